import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Field } from "../../../src/domain/Field.js"
import { Question } from "../../../src/domain/Question.js"
import { questionsFor, unavailableReason } from "../../src/screens/export/trainingQuestions.js"

const question = (name: string, settings: unknown) =>
  Schema.decodeUnknownSync(Question)({
    id: "00000000-0000-4000-8000-000000000001",
    name,
    title: name.toUpperCase(),
    description: null,
    required: false,
    settings,
    dataset_id: "00000000-0000-4000-8000-000000000002",
    inserted_at: "2024-01-01T00:00:00",
    updated_at: "2024-01-01T00:00:00"
  })

const textField = (name: string) =>
  Schema.decodeUnknownSync(Field)({
    id: "00000000-0000-4000-8000-000000000003",
    name,
    title: name,
    required: true,
    settings: { type: "text", use_markdown: false },
    dataset_id: "00000000-0000-4000-8000-000000000002",
    inserted_at: "2024-01-01T00:00:00",
    updated_at: "2024-01-01T00:00:00"
  })

describe("the export dialog's training formats", () => {
  const spans = question("entities", { type: "span", field: "text", options: [{ value: "PER", text: "Person" }], visible_options: null, allow_overlapping: false })
  const label = question("sentiment", { type: "label_selection", options: [{ value: "pos", text: "Pos" }, { value: "neg", text: "Neg" }] })
  const pick = question("better", { type: "label_selection", options: [{ value: "answer_a", text: "A" }, { value: "answer_b", text: "B" }] })
  const rank = question("order", { type: "ranking", options: [{ value: "x", text: "X" }, { value: "y", text: "Y" }] })
  const fields = [textField("text"), textField("answer_a"), textField("answer_b")]

  it("offers span questions for CoNLL and spaCy, rankings and field-naming labels for DPO, any for final answers", () => {
    const all = [spans, label, pick, rank]
    expect(questionsFor("conll", all, fields)?.map((q) => q.name)).toEqual(["entities"])
    expect(questionsFor("spacy", all, fields)?.map((q) => q.name)).toEqual(["entities"])
    expect(questionsFor("dpo", all, fields)?.map((q) => q.name)).toEqual(["better", "order"])
    expect(questionsFor("training-jsonl", all, fields)?.map((q) => q.name)).toEqual(["entities", "sentiment", "better", "order"])
    expect(questionsFor("jsonl", all, fields)).toBeUndefined()
  })

  it("says why a format is out of reach when the dataset has no question for it", () => {
    expect(unavailableReason("conll", [label], fields)).toContain("span question")
    expect(unavailableReason("dpo", [label, spans], fields)).toContain("ranking question")
    expect(unavailableReason("dpo", [rank], fields)).toBeUndefined()
    expect(unavailableReason("training-jsonl", [], fields)).toBeUndefined()
    expect(unavailableReason("csv", [], fields)).toBeUndefined()
  })
})
