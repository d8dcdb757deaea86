import { describe, it } from "@effect/vitest"
import { validateSuggestion } from "../../../src/services/records/validation/suggestions.js"
import {
  expectInvalid,
  expectValid,
  labelQuestion,
  multiLabelQuestion,
  rankingQuestion,
  ratingQuestion,
  spanQuestion,
  textQuestion
} from "./fixtures.js"

const record = { text: "Ada Lovelace" }

describe("validateSuggestion: value", () => {
  it("checks the value like a response value", () => {
    expectValid(validateSuggestion(labelQuestion(), "positive", null, record))
    expectInvalid(validateSuggestion(labelQuestion(), "great", null, record), "'great'", "'sentiment'")
    expectInvalid(validateSuggestion(ratingQuestion(), 7, 0.5, record), "7 is not a valid rating")
  })
  it("accepts a partial ranking (the submitted checks do not apply)", () =>
    expectValid(validateSuggestion(rankingQuestion(), [{ value: "b", rank: 1 }], [0.9], record)))
  it("checks spans against the record's text", () =>
    expectInvalid(validateSuggestion(spanQuestion(), [{ label: "PER", start: 0, end: 20 }], null, record), "`end` (20)"))
})

describe("validateSuggestion: score", () => {
  it("accepts no score, and a scalar in [0, 1] for a single value", () => {
    expectValid(validateSuggestion(labelQuestion(), "positive", undefined, record))
    expectValid(validateSuggestion(labelQuestion(), "positive", 0, record))
    expectValid(validateSuggestion(labelQuestion(), "positive", 1, record))
    expectValid(validateSuggestion(textQuestion(), "a summary", 0.42, record))
  })
  it("refuses a scalar outside [0, 1] or not a number", () => {
    expectInvalid(validateSuggestion(labelQuestion(), "positive", 1.01, record), "1.01", "between 0 and 1")
    expectInvalid(validateSuggestion(labelQuestion(), "positive", -0.1, record), "-0.1")
    expectInvalid(validateSuggestion(labelQuestion(), "positive", Number.NaN, record), "NaN")
    expectInvalid(validateSuggestion(labelQuestion(), "positive", "0.5", record), "'0.5'")
  })
  it("refuses a list of scores for a single value", () =>
    expectInvalid(validateSuggestion(labelQuestion(), "positive", [0.5], record), "list of score values", "single value"))
  it("accepts one score per item for list values", () => {
    expectValid(validateSuggestion(multiLabelQuestion(), ["sports", "science"], [0.9, 0.1], record))
    expectValid(validateSuggestion(spanQuestion(), [{ label: "PER", start: 0, end: 12 }], [1], record))
    expectValid(validateSuggestion(multiLabelQuestion(), ["sports"], null, record))
  })
  it("refuses a scalar score for a list value", () =>
    expectInvalid(validateSuggestion(multiLabelQuestion(), ["sports", "science"], 0.9, record), "single score value"))
  it("refuses a list of scores of another length than the value", () => {
    expectInvalid(validateSuggestion(multiLabelQuestion(), ["sports", "science"], [0.9], record), "value has 2 items, score has 1")
    expectInvalid(validateSuggestion(multiLabelQuestion(), ["sports"], [0.9, 0.1], record), "score has 2")
  })
  it("refuses a list score with an item outside [0, 1], naming its index", () =>
    expectInvalid(validateSuggestion(multiLabelQuestion(), ["sports", "science"], [0.5, 2], record), "index 1", "2"))
})

describe("validateSuggestion: agent", () => {
  it("accepts agents made of letters, digits, -_:./ and spaces", () => {
    expectValid(validateSuggestion(labelQuestion(), "positive", null, record, "gpt-4o:2024/08 v1.2"))
    expectValid(validateSuggestion(labelQuestion(), "positive", null, record, null))
  })
  it("refuses agents with other characters or without a letter or digit", () => {
    expectInvalid(validateSuggestion(labelQuestion(), "positive", null, record, "model<script>"), "'model<script>'", "agent")
    expectInvalid(validateSuggestion(labelQuestion(), "positive", null, record, "--"), "'--'")
    expectInvalid(validateSuggestion(labelQuestion(), "positive", null, record, ""), "agent")
  })
})
