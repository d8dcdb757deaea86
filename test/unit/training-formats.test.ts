/**
 * The training formats' pure parts (src/transfer/training.ts): whitespace tokens with offsets, IOB tags (spans that
 * end inside a token, adjacent spans, overlapping ones), spans trimmed for spaCy, DPO pairs from rankings with ties
 * or without ranks, and the plan's refusals.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import type { DatasetRecord } from "../../src/domain/Record.js"
import type { FinalAnswer } from "../../src/domain/Review.js"
import type { DatasetSettings } from "../../src/transfer/dataset.js"
import { groupByRecord, isSettled, finalsByQuestion } from "../../src/transfer/finalAnswers.js"
import { iobTags, spansOf, trainingLines, trainingPlan, trimmedSpan, whitespaceTokens } from "../../src/transfer/training.js"

describe("whitespace tokens", () => {
  it("split on any whitespace, each with its offsets in the text", () => {
    const text = "  New\tYork,  NY\n"
    const tokens = whitespaceTokens(text)
    expect(tokens).toEqual([
      { text: "New", start: 2, end: 5 },
      { text: "York,", start: 6, end: 11 },
      { text: "NY", start: 13, end: 15 }
    ])
    for (const token of tokens) expect(text.slice(token.start, token.end)).toBe(token.text)
    expect(whitespaceTokens(" \n ")).toEqual([])
  })
})

describe("IOB tags", () => {
  const tokens = whitespaceTokens("Alice met Bob Smith in New York")
  it("B- on a span's first token, I- on the rest, O elsewhere; adjacent spans each begin with B-", () => {
    const spans = spansOf([
      { start: 10, end: 19, label: "PER" },
      { start: 0, end: 5, label: "PER" },
      { start: 23, end: 26, label: "LOC" },
      { start: 27, end: 31, label: "LOC" }
    ])
    expect(iobTags(tokens, spans)).toEqual(["B-PER", "O", "B-PER", "I-PER", "O", "B-LOC", "B-LOC"])
  })
  it("a span that starts or ends inside a token takes the whole token", () => {
    expect(iobTags(tokens, spansOf([{ start: 2, end: 12, label: "X" }]))).toEqual(["B-X", "I-X", "I-X", "O", "O", "O", "O"])
  })
  it("of overlapping spans the earlier (then the longer) wins; malformed items are no spans", () => {
    const spans = spansOf([
      { start: 10, end: 13, label: "FIRST" },
      { start: 10, end: 19, label: "FULL" },
      { start: 14, end: 22, label: "LATER" },
      { start: 5, end: 5, label: "EMPTY" },
      { start: "0", end: 5, label: "TEXT" },
      "junk"
    ])
    expect(spans.map((span) => span.label)).toEqual(["FULL", "FIRST", "LATER"])
    expect(iobTags(tokens, spans)).toEqual(["O", "O", "B-FULL", "I-FULL", "O", "O", "O"])
  })
})

describe("spans for spaCy", () => {
  it("lose the whitespace at their edges, and go when nothing else is left", () => {
    const text = "in  New York "
    expect(trimmedSpan({ start: 2, end: 13, label: "LOC" }, text)).toEqual({ start: 4, end: 12, label: "LOC" })
    expect(trimmedSpan({ start: 2, end: 4, label: "LOC" }, text)).toBeUndefined()
  })
})

const question = (name: string, settings: Record<string, unknown>) =>
  ({ id: `q-${name}`, name, settings }) as unknown as DatasetSettings["questions"][number]
const SETTINGS = {
  fields: ["prompt", "a", "b", "c"].map((name) => ({ name, settings: { type: "text" } })),
  questions: [
    question("rank", { type: "ranking", options: ["a", "b", "c", "d"].map((value) => ({ value, text: `option ${value}` })) }),
    question("pick", { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }, { value: "tie", text: "Tie" }] }),
    question("topic", { type: "label_selection", options: [{ value: "x", text: "X" }, { value: "y", text: "Y" }] }),
    question("spans", { type: "span", field: "a", options: [{ value: "E", text: "E" }] })
  ],
  metadata: [],
  vectors: []
} as unknown as DatasetSettings

const record = {
  id: "rec-1",
  external_id: "ext-1",
  fields: { prompt: "Why?", a: "answer a", b: "answer b", c: "" },
  metadata: {},
  responses: [{ user_id: "u1", status: "submitted", values: { rank: { value: [] }, topic: { value: "x" } } }]
} as unknown as DatasetRecord

const final = (question: string, value: unknown) =>
  ({ record_id: "rec-1", question, value, source: "reviewer", settled_by: "u2" }) as unknown as FinalAnswer

const plan = (format: "dpo" | "conll" | "training-jsonl", name: string | null) =>
  Either.getOrThrowWith(trainingPlan(format, SETTINGS, name), (message) => new Error(message))

const pairs = (name: string, value: unknown) =>
  (trainingLines(plan("dpo", name), record, groupByRecord([final(name, value)])) ?? "").trimEnd().split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const { chosen, rejected } = JSON.parse(line)
      return [chosen, rejected]
    })

describe("DPO pairs", () => {
  it("every two options ranked apart, the better chosen; ties make none; an option naming no field gives its text", () => {
    const value = [{ value: "d", rank: 3 }, { value: "a", rank: 1 }, { value: "b", rank: 2 }, { value: "c", rank: 2 }]
    // `c` names a field whose text is empty: its pairs are left out.
    expect(pairs("rank", value)).toEqual([
      ["answer a", "answer b"],
      ["answer a", "option d"],
      ["answer b", "option d"]
    ])
  })
  it("without ranks, the list's order is the ranking", () => {
    expect(pairs("rank", ["b", "a"])).toEqual([["answer b", "answer a"]])
  })
  it("a label: the chosen field against each other candidate; a label naming no field gives nothing", () => {
    expect(pairs("pick", "b")).toEqual([["answer b", "answer a"]])
    expect(trainingLines(plan("dpo", "pick"), record, groupByRecord([final("pick", "tie")]))).toBeUndefined()
  })
  it("the prompt is the `prompt` field", () => {
    const line = trainingLines(plan("dpo", "pick"), record, groupByRecord([final("pick", "a")])) ?? ""
    expect(JSON.parse(line)).toMatchObject({ prompt: "Why?", chosen: "answer a", rejected: "answer b" })
  })
})

describe("the plan", () => {
  it("refuses a missing, unknown or unfit question, and a label question naming fewer than two fields", () => {
    expect(trainingPlan("conll", SETTINGS, null)).toEqual(Either.left(expect.stringContaining("it has `spans`")))
    expect(trainingPlan("conll", SETTINGS, "nope")).toEqual(Either.left(expect.stringContaining("no question `nope`")))
    expect(trainingPlan("spacy", SETTINGS, "rank")).toEqual(Either.left(expect.stringContaining("`rank` is a ranking question")))
    expect(trainingPlan("dpo", SETTINGS, "topic")).toEqual(Either.left(expect.stringContaining("name none")))
    expect(Either.isRight(trainingPlan("training-jsonl", SETTINGS, undefined))).toBe(true)
  })
})

describe("settled", () => {
  it("every question with a submitted answer has a final answer, and there is one at least", () => {
    const finals = (...names: Array<string>) => finalsByQuestion(groupByRecord(names.map((name) => final(name, "x"))), record)
    expect(isSettled(record, finals())).toBe(false)
    expect(isSettled(record, finals("topic"))).toBe(false)
    expect(isSettled(record, finals("topic", "rank"))).toBe(true)
    const unanswered = { ...record, responses: [] } as unknown as DatasetRecord
    expect(isSettled(unanswered, finals("pick"))).toBe(true)
    expect(trainingLines(plan("training-jsonl", null), record, groupByRecord([final("topic", "x")]))).toBeUndefined()
  })
})
