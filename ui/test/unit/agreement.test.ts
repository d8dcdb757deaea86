/** Review mode's agreement: which submitted answers count as equal, per question kind. */
import { describe, expect, it } from "vitest"
import {
  answerKey,
  hasDisagreement,
  questionAgreement
} from "../../src/screens/annotation/review/agreement.js"
import { label, multi, ranking, rating, record, span, text } from "../fixtures.js"

const ANN = ["a0000000-0000-4000-8000-000000000001", "a0000000-0000-4000-8000-000000000002", "a0000000-0000-4000-8000-000000000003"]
let n = 0

/** A record with one response per entry: [annotator index, status, values by question name]. */
const answered = (...responses: ReadonlyArray<readonly [number, string, Record<string, unknown> | null]>) =>
  record({ text: "Acme in Paris" }, {
    responses: responses.map(([who, status, values]) => ({
      id: `b0000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
      values: values === null ? null : Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
      status,
      record_id: "c0000000-0000-4000-8000-000000000001",
      user_id: ANN[who],
      inserted_at: "2026-01-01T00:00:00",
      updated_at: "2026-01-01T00:00:00"
    }))
  })

const same = (kind: Parameters<typeof answerKey>[0], a: unknown, b: unknown) => answerKey(kind, a) === answerKey(kind, b)

describe("answer equality", () => {
  it("label and rating: by value", () => {
    expect(same("label_selection", "positive", "positive")).toBe(true)
    expect(same("label_selection", "positive", "negative")).toBe(false)
    expect(same("rating", 3, 3)).toBe(true)
    expect(same("rating", 3, 4)).toBe(false)
  })

  it("multi-label: as a set (order and repeats do not matter)", () => {
    expect(same("multi_label_selection", ["a", "c"], ["c", "a"])).toBe(true)
    expect(same("multi_label_selection", ["a", "c", "a"], ["c", "a"])).toBe(true)
    expect(same("multi_label_selection", ["a"], ["a", "b"])).toBe(false)
  })

  it("ranking: by order, not by the rank numbers; ties count", () => {
    const r = (...pairs: ReadonlyArray<readonly [string, number]>) => pairs.map(([value, rank]) => ({ value, rank }))
    expect(same("ranking", r(["x", 1], ["y", 2]), r(["y", 2], ["x", 1]))).toBe(true)
    expect(same("ranking", r(["x", 1], ["y", 2]), r(["x", 1], ["y", 3]))).toBe(true)
    expect(same("ranking", r(["x", 1], ["y", 2]), r(["y", 1], ["x", 2]))).toBe(false)
    expect(same("ranking", r(["x", 1], ["y", 1]), r(["x", 1], ["y", 2]))).toBe(false)
    expect(same("ranking", r(["x", 1], ["y", 1]), r(["y", 4], ["x", 4]))).toBe(true)
  })

  it("text: by trimmed string, case kept", () => {
    expect(same("text", "  Fine\n", "Fine")).toBe(true)
    expect(same("text", "Fine", "fine")).toBe(false)
  })

  it("spans: as a set of (label, start, end)", () => {
    const a = { label: "ORG", start: 0, end: 4 }
    const b = { label: "LOC", start: 8, end: 13 }
    expect(same("span", [a, b], [b, a])).toBe(true)
    expect(same("span", [a], [{ ...a, label: "PER" }])).toBe(false)
    expect(same("span", [a], [{ ...a, end: 5 }])).toBe(false)
    expect(same("span", [a], [a, b])).toBe(false)
  })
})

describe("agreement on a question", () => {
  it("counts agreeing annotators and marks a disagreement when submitted answers differ", () => {
    const q = label()
    const r = answered([0, "submitted", { sentiment: "positive" }], [1, "submitted", { sentiment: "positive" }], [
      2,
      "submitted",
      { sentiment: "negative" }
    ])
    const agreement = questionAgreement(q, r.responses ?? [])
    expect(agreement.disagreement).toBe(true)
    expect(agreement.agreeing).toBe(2)
    expect(agreement.answered).toBe(3)
    expect(agreement.groups.map((g) => [g.value, g.users])).toEqual([["positive", [ANN[0], ANN[1]]], ["negative", [ANN[2]]]])
  })

  it("drafts and discards do not count; nor do submitted responses that left the question out", () => {
    const q = label()
    const r = answered([0, "submitted", { sentiment: "positive" }], [1, "draft", { sentiment: "negative" }], [2, "discarded", null])
    const agreement = questionAgreement(q, r.responses ?? [])
    expect(agreement).toMatchObject({ disagreement: false, agreeing: 1, answered: 1 })
    const partial = answered([0, "submitted", { sentiment: "positive" }], [1, "submitted", { comment: "x" }])
    expect(questionAgreement(q, partial.responses ?? [])).toMatchObject({ disagreement: false, answered: 1 })
  })

  it("a record disagrees when any of its questions does", () => {
    const questions = [label(), multi(), rating(), ranking(), text(), span()]
    const agree = answered(
      [0, "submitted", { sentiment: "positive", topics: ["a", "b"], entities: [{ label: "ORG", start: 0, end: 4 }] }],
      [1, "submitted", { sentiment: "positive", topics: ["b", "a"], entities: [{ label: "ORG", start: 0, end: 4 }] }]
    )
    expect(hasDisagreement(questions, agree)).toBe(false)
    const disagree = answered(
      [0, "submitted", { sentiment: "positive", comment: "ok" }],
      [1, "submitted", { sentiment: "positive", comment: "not ok" }]
    )
    expect(hasDisagreement(questions, disagree)).toBe(true)
    expect(hasDisagreement(questions, answered())).toBe(false)
  })
})
