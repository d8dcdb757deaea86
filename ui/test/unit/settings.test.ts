/** Dataset settings' pure parts: moving label options, telling edited options from saved ones, and the new-dataset draft. */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { WorkspaceId } from "../../../src/domain/Ids.js"
import { datasetPayload, type Draft, draftProblems, fieldPayload, metadataPayload, newField, newMetadata, newQuestion, newVector, parseLabels, parseRatings, questionPayload, vectorPayload } from "../../src/screens/newDataset/draft.js"
import { moveItem, optionsChanged } from "../../src/screens/settings/options.js"

describe("option order", () => {
  it("moves an option up or down by one, and not past either end", () => {
    expect(moveItem(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"])
    expect(moveItem(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"])
    const list = ["a", "b", "c"]
    expect(moveItem(list, 0, -1)).toBe(list)
    expect(moveItem(list, 2, 1)).toBe(list)
    expect(moveItem(list, 5, 1)).toBe(list)
  })

  it("tells options reworded, described or reordered from the saved ones", () => {
    const saved = [{ value: "a", text: "A", description: null }, { value: "b", text: "B", description: null }]
    expect(optionsChanged(saved, saved.map((o) => ({ ...o })))).toBe(false)
    expect(optionsChanged(saved, [saved[1]!, saved[0]!])).toBe(true)
    expect(optionsChanged(saved, [{ ...saved[0]!, text: "Ay" }, saved[1]!])).toBe(true)
    expect(optionsChanged(saved, [{ ...saved[0]!, description: "x" }, saved[1]!])).toBe(true)
  })
})

const draft = (change: Partial<Draft> = {}): Draft => ({
  name: "reviews",
  workspaceId: "w",
  guidelines: "",
  minSubmitted: "1",
  fields: [newField("text")],
  questions: [{ ...newQuestion("label"), labels: "positive\nnegative" }],
  metadata: [],
  vectors: [],
  ...change
})

describe("a new dataset's draft", () => {
  it("has no problem when complete", () => {
    expect(draftProblems(draft())).toEqual({})
  })

  it("reports, by item, bad names, missing titles, too few options, a span without a text field, bad dimensions", () => {
    const field = { ...newField("Bad Name"), title: "" }
    const label = { ...newQuestion("q"), labels: "only one" }
    const span = { ...newQuestion("spans", "span"), labels: "ORG", field: "nope" }
    const rating = { ...newQuestion("r", "rating"), ratings: "1, 20" }
    const vector = { ...newVector(), name: "v", title: "V", dimensions: "0" }
    const problems = draftProblems(draft({ name: "", fields: [field], questions: [label, span, rating], vectors: [vector] }))
    expect(problems["dataset"]).toEqual(["Give the dataset a name."])
    expect(problems[field.key]).toEqual(["Names use lowercase letters, digits, _ and - only.", "Give it a title."])
    expect(problems[label.key]).toEqual(["Write at least two options, one per line."])
    expect(problems[span.key]).toEqual(["Pick the text field the spans are marked in."])
    expect(problems[rating.key]).toEqual(["Ratings are 2 to 11 different whole numbers from 0 to 10."])
    expect(problems[vector.key]).toEqual(["Dimensions are a whole number from 1 to 65 536."])
  })

  it("reports duplicate names and an empty list of fields or questions", () => {
    const a = newMetadata()
    const problems = draftProblems(draft({ fields: [], questions: [], metadata: [{ ...a, name: "m", title: "M" }, { ...newMetadata(), name: "m", title: "M2" }] }))
    expect(problems["fields"]).toEqual(["Add at least one field."])
    expect(problems["questions"]).toEqual(["Add at least one question."])
    expect(Object.values(problems).flat()).toContain("Another metadata property is named “m”.")
  })

  it("builds the contract's create bodies", () => {
    expect(parseLabels(" a \n\nb\n")).toEqual([{ value: "a", text: "a" }, { value: "b", text: "b" }])
    expect(parseRatings("1, 2 3;4")).toEqual([1, 2, 3, 4])
    expect(fieldPayload({ ...newField("body"), markdown: true })).toEqual({ name: "body", title: "Body", required: true, settings: { type: "text", use_markdown: true } })
    expect(questionPayload({ ...newQuestion("spans", "span"), field: "body", labels: "ORG\nLOC", required: false })).toEqual({
      name: "spans",
      title: "Spans",
      required: false,
      settings: { type: "span", field: "body", options: [{ value: "ORG", text: "ORG" }, { value: "LOC", text: "LOC" }] }
    })
    expect(questionPayload({ ...newQuestion("stars", "rating"), ratings: "1,2,3", description: "How good" })).toMatchObject({
      description: "How good",
      settings: { type: "rating", options: [{ value: 1 }, { value: 2 }, { value: 3 }] }
    })
    expect(metadataPayload({ ...newMetadata(), name: "n", title: "N", type: "integer", visible: false })).toEqual({
      name: "n", title: "N", visible_for_annotators: false, settings: { type: "integer" }
    })
    expect(vectorPayload({ ...newVector(), name: "e", title: "E", dimensions: "384" })).toEqual({ name: "e", title: "E", dimensions: 384 })
    const workspace = Schema.decodeSync(WorkspaceId)("00000000-0000-4000-8000-000000000001")
    expect(datasetPayload(draft({ minSubmitted: "2", guidelines: "Be kind" }), workspace)).toEqual({
      name: "reviews", workspace_id: workspace, guidelines: "Be kind", distribution: { strategy: "overlap", min_submitted: 2 }
    })
  })
})
