import { describe, expect, it } from "@effect/vitest"
import type { ResponseValues } from "../../../src/domain/Response.js"
import { validateResponseValues } from "../../../src/services/records/validation/responses.js"
import {
  context,
  expectInvalid,
  expectValid,
  labelQuestion,
  messageOf,
  rankingQuestion,
  spanQuestion,
  textQuestion
} from "./fixtures.js"

const ctx = context({
  questions: [labelQuestion("sentiment", true), textQuestion("comment"), rankingQuestion("preference"), spanQuestion("entities")]
})
const record = { text: "Ada Lovelace" }
const check = (status: "draft" | "submitted" | "discarded", values: ResponseValues | null | undefined) =>
  validateResponseValues(ctx, status, values, record)
const complete = [{ value: "a", rank: 1 }, { value: "b", rank: 2 }, { value: "c", rank: 3 }]

describe("validateResponseValues", () => {
  it("accepts a submitted response answering the required questions", () => {
    expectValid(check("submitted", { sentiment: { value: "positive" } }))
    expectValid(check("submitted", {
      sentiment: { value: "negative" },
      comment: { value: "meh" },
      preference: { value: complete },
      entities: { value: [{ label: "PER", start: 0, end: 12 }] }
    }))
  })
  it("refuses a submitted response without values or with empty values", () => {
    expectInvalid(check("submitted", null), "missing response values for submitted response")
    expectInvalid(check("submitted", undefined), "submitted")
    expectInvalid(check("submitted", {}), "missing response values for submitted response")
  })
  it("refuses a submitted response missing a required question, naming it", () =>
    expectInvalid(check("submitted", { comment: { value: "fine" } }), "required question with name='sentiment'"))
  it("refuses a draft without values", () => {
    expectInvalid(check("draft", null), "missing response values for draft response")
    expectInvalid(check("draft", undefined), "draft")
  })
  it("accepts a draft missing required questions, and an empty draft", () => {
    expectValid(check("draft", { comment: { value: "thinking" } }))
    expectValid(check("draft", {}))
  })
  it("accepts a discarded response without values or with partial ones", () => {
    expectValid(check("discarded", null))
    expectValid(check("discarded", undefined))
    expectValid(check("discarded", { preference: { value: [{ value: "a", rank: 1 }] } }))
  })
  it("refuses a value for a question the dataset does not have, with Argilla's message", () =>
    expect(messageOf(check("draft", { sentiment: { value: "positive" }, mood: { value: "x" } })))
      .toBe("found response value for non configured question with name='mood'"))
  it("checks each answer: ranking complete only when submitted", () => {
    const partial = { sentiment: { value: "positive" }, preference: { value: [{ value: "a", rank: 1 }] } }
    expectValid(check("draft", partial))
    expectInvalid(check("submitted", partial), "'preference'", "3 values")
    expectValid(check("submitted", { ...partial, preference: { value: complete } }))
  })
  it("refuses an invalid answer in any status, naming the question", () => {
    expectInvalid(check("draft", { sentiment: { value: "great" } }), "'great'", "'sentiment'")
    expectInvalid(check("discarded", { comment: { value: 3 } }), "'comment'")
    expectInvalid(check("submitted", { sentiment: { value: null } }), "'sentiment'", "null")
    expectInvalid(check("draft", { entities: { value: [{ label: "PER", start: 0, end: 13 }] } }), "'entities'", "`12`")
  })
  it("does not take inherited object members for answers (a question named `constructor`)", () => {
    const withConstructor = context({ questions: [textQuestion("constructor", true), textQuestion("note")] })
    expectInvalid(
      validateResponseValues(withConstructor, "submitted", { note: { value: "x" } }, record),
      "required question with name='constructor'"
    )
  })
})
