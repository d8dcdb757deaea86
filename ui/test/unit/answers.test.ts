import { describe, expect, it } from "vitest"
import { searchBody } from "../../src/data/search.js"
import {
  initialValues,
  questionOfMessage,
  submitErrors,
  toResponseValues
} from "../../src/screens/annotation/questions/answers.js"
import { orderedOptions, pick } from "../../src/screens/annotation/questions/pick.js"
import { label, multi, question, ranking, rating, record, span, suggestion, text } from "../fixtures.js"

describe("picking options", () => {
  it("label: selects, and selecting again clears", () => {
    const q = label()
    expect(pick(q, undefined, 1)).toEqual({ _tag: "set", value: "negative" })
    expect(pick(q, "negative", 1)).toEqual({ _tag: "set", value: undefined })
    expect(pick(q, undefined, 7)).toEqual({ _tag: "none" })
  })

  it("multi-label: toggles, in suggestion order when the question asks for it", () => {
    const q = multi()
    expect(pick(q, ["a"], 1)).toEqual({ _tag: "set", value: ["a", "b"] })
    expect(pick(q, ["a"], 0)).toEqual({ _tag: "set", value: undefined })
    const bySuggestion = question("tags", {
      type: "multi_label_selection",
      options: [{ value: "a", text: "A" }, { value: "b", text: "B" }, { value: "c", text: "C" }],
      options_order: "suggestion"
    })
    const s = { ...suggestion(bySuggestion.id, ["c"]), inserted_at: new Date(), updated_at: new Date() }
    const decoded = record({ t: "x" }, { suggestions: [suggestion(bySuggestion.id, ["c"])] }).suggestions?.[0]
    expect(orderedOptions(bySuggestion, decoded).map((o) => o.value)).toEqual(["c", "a", "b"])
    expect(s.value).toEqual(["c"])
  })

  it("rating: key n picks the n-th value", () => {
    expect(pick(rating(), undefined, 4)).toEqual({ _tag: "set", value: 5 })
  })

  it("ranking: keys rank the options in turn", () => {
    const q = ranking()
    const first = pick(q, undefined, 1)
    expect(first).toEqual({ _tag: "set", value: [{ value: "x", rank: 2 }, { value: "y", rank: null }, { value: "z", rank: null }] })
    const second = first._tag === "set" ? pick(q, first.value, 0) : first
    expect(second).toEqual({ _tag: "set", value: [{ value: "x", rank: 2 }, { value: "y", rank: 1 }, { value: "z", rank: null }] })
  })
})

describe("answers", () => {
  const sentiment = label("sentiment", true)
  const questions = [sentiment, multi(), ranking(), text(), span()]

  it("pre-fills from suggestions when there is no response, and from the response when there is one", () => {
    const r = record({ text: "x" }, { suggestions: [suggestion(sentiment.id, "positive", 0.8)] })
    expect(initialValues(questions, r, undefined)).toEqual({ sentiment: "positive" })
  })

  it("sends only answered questions; unranked options are left out of a draft ranking", () => {
    expect(toResponseValues(questions, {})).toBeNull()
    expect(toResponseValues(questions, {
      sentiment: "negative",
      comment: "  ",
      order: [{ value: "x", rank: 1 }, { value: "y", rank: null }, { value: "z", rank: null }]
    })).toEqual({ sentiment: { value: "negative" }, order: { value: [{ value: "x", rank: 1 }] } })
  })

  it("says per question what blocks a submit", () => {
    expect(submitErrors(questions, { order: [{ value: "x", rank: 1 }, { value: "y", rank: null }, { value: "z", rank: null }] }))
      .toEqual({ sentiment: "This question is required.", order: "Give every option a rank." })
    expect(submitErrors(questions, {
      sentiment: "positive",
      entities: [{ label: "ORG", start: 0, end: 4 }, { label: "LOC", start: 2, end: 6 }]
    })).toEqual({ entities: "Spans must not overlap in this question." })
  })

  it("finds the question a server message names", () => {
    expect(questionOfMessage(questions, "undefined label 'X' for span question 'entities', valid labels are: ['ORG']"))
      .toBe("entities")
    expect(questionOfMessage(questions, "missing response value for required question with name='sentiment'")).toBe("sentiment")
    expect(questionOfMessage(questions, "something else")).toBeUndefined()
  })
})

describe("queue search body", () => {
  it("filters Pending by no response and pending records, and adds text and metadata filters", () => {
    expect(searchBody({ queue: "pending", text: "", metadata: {} })).toEqual({
      filters: {
        and: [
          { type: "terms", scope: { entity: "response", property: "status" }, values: ["pending"] },
          { type: "terms", scope: { entity: "record", property: "status" }, values: ["pending"] }
        ]
      }
    })
    expect(searchBody({
      queue: "draft",
      text: " acme ",
      metadata: { source: { kind: "terms", values: ["web"] }, length: { kind: "range", ge: 3 } }
    })).toEqual({
      query: { text: { q: "acme" } },
      filters: {
        and: [
          { type: "terms", scope: { entity: "response", property: "status" }, values: ["draft"] },
          { type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web"] },
          { type: "range", scope: { entity: "metadata", metadata_property: "length" }, ge: 3 }
        ]
      }
    })
  })
})
