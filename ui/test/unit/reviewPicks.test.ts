/** Adjudication's pure parts: which answers count, what a question starts with, what a settle sends, and the keys. */
import { describe, expect, it } from "vitest"
import type { UserId } from "../../../src/domain/Ids.js"
import type { FinalAnswer } from "../../../src/domain/Review.js"
import { REVIEW_HELP, REVIEW_KEYS, reviewActionFor } from "../../src/screens/annotation/review/keys.js"
import { initialPick, settleItems, submittedAnswers } from "../../src/screens/annotation/review/picks.js"
import { label, ranking, record, text } from "../fixtures.js"

const ALICE = "a0000000-0000-4000-8000-000000000001" as UserId
const BOB = "a0000000-0000-4000-8000-000000000002" as UserId
const CAROL = "a0000000-0000-4000-8000-000000000003" as UserId
const names = new Map<string, string>([[ALICE, "alice"], [BOB, "bob"], [CAROL, "carol"]])
const nameOf = (id: string) => names.get(id) ?? id
let n = 0

const answered = (...responses: ReadonlyArray<readonly [UserId, string, Record<string, unknown>]>) =>
  record({ text: "Acme in Paris" }, {
    responses: responses.map(([user, status, values]) => ({
      id: `b0000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
      values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
      status,
      record_id: "c0000000-0000-4000-8000-000000000001",
      user_id: user,
      inserted_at: "2026-01-01T00:00:00",
      updated_at: "2026-01-01T00:00:00"
    }))
  })

const key = (k: string, extra: Partial<{ shiftKey: boolean; ctrlKey: boolean }> = {}) =>
  ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...extra })

describe("submitted answers", () => {
  it("counts only submitted, non-blank answers, ordered by username", () => {
    const comment = text()
    const r = answered(
      [CAROL, "submitted", { comment: "fine" }],
      [ALICE, "submitted", { comment: "good", sentiment: "positive" }],
      // Bob left the comment blank: he gave no answer to it, so one answer remains and nothing is compared.
      [BOB, "submitted", { comment: "   ", sentiment: "negative" }],
      [ALICE, "draft", { comment: "draft text" }]
    )
    expect(submittedAnswers(r, comment, nameOf)).toEqual([
      { userId: ALICE, value: "good" },
      { userId: CAROL, value: "fine" }
    ])
    const blank = answered([ALICE, "submitted", { sentiment: "positive" }], [BOB, "submitted", { comment: "" }])
    expect(submittedAnswers(blank, comment, nameOf)).toEqual([])
    expect(submittedAnswers(blank, label(), nameOf)).toEqual([{ userId: ALICE, value: "positive" }])
  })
})

describe("the pick a question starts with", () => {
  const answers = [{ userId: ALICE, value: "positive" }, { userId: BOB, value: "positive" }]
  it("the answer everyone gave, where nobody disputes it and nothing is settled", () => {
    expect(initialPick(answers, false, undefined)).toEqual({ source: "response", userId: ALICE, value: "positive" })
    expect(initialPick(answers, true, undefined)).toBeUndefined()
    expect(initialPick([], false, undefined)).toBeUndefined()
    const final = { question: "sentiment", value: "negative" } as unknown as FinalAnswer
    expect(initialPick(answers, false, final)).toBeUndefined()
  })
})

describe("what a settle sends", () => {
  const sentiment = label()
  const order = ranking()
  const comment = text()
  const questions = [sentiment, order, comment]

  it("one item per picked question, with its source, annotator and trimmed note", () => {
    const result = settleItems(questions, {
      sentiment: { source: "response", userId: BOB, value: "negative" },
      order: { source: "reviewer", value: [{ value: "x", rank: 1 }, { value: "y", rank: 2 }, { value: "z", rank: null }] },
      comment: undefined
    }, { sentiment: "  bob read it right ", order: "" })
    expect(result).toEqual({
      _tag: "items",
      items: [
        { question: "sentiment", value: "negative", source: "response", source_user_id: BOB, note: "bob read it right" },
        { question: "order", value: [{ value: "x", rank: 1 }, { value: "y", rank: 2 }], source: "reviewer", source_user_id: null, note: null }
      ]
    })
  })

  it("an own answer left empty is a problem on its question, and nothing is sent", () => {
    expect(settleItems(questions, { comment: { source: "reviewer", value: "  " } }, {})).toEqual({
      _tag: "problems",
      problems: { comment: "Enter an answer, or pick another one." }
    })
  })
})

describe("review keys", () => {
  it("digits pick annotators, letters the rest, Enter settles; nothing while typing but Escape", () => {
    expect(reviewActionFor(key("1"), false)).toEqual({ _tag: "pickAnswer", index: 0 })
    expect(reviewActionFor(key("9"), false)).toEqual({ _tag: "pickAnswer", index: 8 })
    expect(reviewActionFor(key("0"), false)).toBeUndefined()
    expect(reviewActionFor(key("s"), false)).toEqual({ _tag: "pickSuggestion" })
    expect(reviewActionFor(key("O"), false)).toEqual({ _tag: "ownAnswer" })
    expect(reviewActionFor(key("n"), false)).toEqual({ _tag: "note" })
    expect(reviewActionFor(key("u"), false)).toEqual({ _tag: "unsettle" })
    expect(reviewActionFor(key("Enter"), false)).toEqual({ _tag: "settle" })
    expect(reviewActionFor(key("j"), false)).toEqual({ _tag: "nextRecord" })
    expect(reviewActionFor(key("k"), false)).toEqual({ _tag: "previousRecord" })
    expect(reviewActionFor(key("ArrowRight"), false)).toEqual({ _tag: "nextRecord" })
    expect(reviewActionFor(key("ArrowDown"), false)).toEqual({ _tag: "nextQuestion" })
    expect(reviewActionFor(key("s", { ctrlKey: true }), false)).toBeUndefined()
    expect(reviewActionFor(key("s"), true)).toBeUndefined()
    expect(reviewActionFor(key("Enter"), true)).toBeUndefined()
    expect(reviewActionFor(key("Escape"), true)).toEqual({ _tag: "leave" })
  })

  it("the help sheet lists every key a button hints at", () => {
    const documented = REVIEW_HELP.map((row) => row.keys).join(" ")
    for (const key of Object.values(REVIEW_KEYS)) expect(documented).toContain(key)
  })
})
