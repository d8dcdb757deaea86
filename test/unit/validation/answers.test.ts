import { describe, it } from "@effect/vitest"
import { validateAnswer } from "../../../src/services/records/validation/answers.js"
import type { AnswerMode, QuestionSpec } from "../../../src/services/records/validation/context.js"
import {
  expectInvalid,
  expectValid,
  labelQuestion,
  multiLabelQuestion,
  rankingQuestion,
  ratingQuestion,
  textQuestion
} from "./fixtures.js"

const answer = (question: QuestionSpec, value: unknown, mode: AnswerMode = "submitted") =>
  validateAnswer(question, value, {}, mode)

describe("validateAnswer: text, rating, label", () => {
  it("text takes a string, even an empty one", () => {
    expectValid(answer(textQuestion(), "Looks good"))
    expectValid(answer(textQuestion(), ""))
    expectInvalid(answer(textQuestion(), 5), "'comment'", "5")
  })
  it("rating takes one of its option values", () => {
    expectValid(answer(ratingQuestion(), 1))
    expectValid(answer(ratingQuestion(), 3))
    expectInvalid(answer(ratingQuestion(), 4), "4 is not a valid rating", "'quality'", "[1, 2, 3]")
    expectInvalid(answer(ratingQuestion(), 0), "0 is not a valid rating")
  })
  it("rating refuses non-integers", () => {
    expectInvalid(answer(ratingQuestion(), "3"), "'quality'", "'3'")
    expectInvalid(answer(ratingQuestion(), 2.5), "2.5")
    expectInvalid(answer(ratingQuestion(), null), "null")
  })
  it("label selection takes one option value", () => {
    expectValid(answer(labelQuestion(), "positive"))
    expectInvalid(answer(labelQuestion(), "neutral"), "'neutral' is not a valid label", "'sentiment'")
    expectInvalid(answer(labelQuestion(), ["positive"]), "'sentiment'")
  })
})

describe("validateAnswer: multi-label selection", () => {
  it("takes a non-empty list of unique option values", () => {
    expectValid(answer(multiLabelQuestion(), ["sports"]))
    expectValid(answer(multiLabelQuestion(), ["science", "sports", "politics"]))
  })
  it("refuses an empty list", () => expectInvalid(answer(multiLabelQuestion(), []), "'topics'", "non-empty"))
  it("refuses duplicates, naming the repeated label", () =>
    expectInvalid(answer(multiLabelQuestion(), ["sports", "science", "sports"]), "'topics'", "'sports' more than once"))
  it("refuses unknown labels, naming them", () =>
    expectInvalid(answer(multiLabelQuestion(), ["sports", "art", "music"]), "['art', 'music'] are not valid labels"))
  it("refuses a single string and non-string items", () => {
    expectInvalid(answer(multiLabelQuestion(), "sports"), "'topics'")
    expectInvalid(answer(multiLabelQuestion(), ["sports", 1]), "'topics'")
  })
})

describe("validateAnswer: ranking", () => {
  const rank = (...pairs: ReadonlyArray<readonly [string, number | null]>) => pairs.map(([value, r]) => ({ value, rank: r }))
  it("a submitted ranking places every option with ranks 1..N", () =>
    expectValid(answer(rankingQuestion(), rank(["b", 1], ["a", 2], ["c", 3]))))
  it("allows ties", () => {
    expectValid(answer(rankingQuestion(), rank(["a", 1], ["b", 1], ["c", 2])))
    expectValid(answer(rankingQuestion(), rank(["a", 3], ["b", 3], ["c", 3])))
  })
  it("a submitted ranking must list every option", () =>
    expectInvalid(answer(rankingQuestion(), rank(["a", 1], ["b", 2])), "'preference'", "3 values", "['c']"))
  it("a draft or a suggestion may be partial, with null or unchecked ranks", () => {
    expectValid(answer(rankingQuestion(), rank(["a", 1]), "draft"))
    expectValid(answer(rankingQuestion(), rank(["a", null], ["b", 7]), "draft"))
    expectValid(answer(rankingQuestion(), [], "suggestion"))
    expectValid(answer(rankingQuestion(), [{ value: "c" }], "suggestion"))
  })
  it("a submitted ranking refuses rank 0, rank N+1 and a null rank", () => {
    expectInvalid(answer(rankingQuestion(), rank(["a", 0], ["b", 1], ["c", 2])), "[0] are not valid ranks", "1 to 3")
    expectInvalid(answer(rankingQuestion(), rank(["a", 1], ["b", 2], ["c", 4])), "[4] are not valid ranks")
    expectInvalid(answer(rankingQuestion(), rank(["a", 1], ["b", 2], ["c", null])), "[null] are not valid ranks")
  })
  it("refuses unknown and repeated values in any mode", () => {
    expectInvalid(answer(rankingQuestion(), rank(["a", 1], ["z", 2]), "draft"), "['z'] are not valid values", "'preference'")
    expectInvalid(answer(rankingQuestion(), rank(["a", 1], ["a", 2]), "suggestion"), "'a' more than once")
    expectInvalid(answer(rankingQuestion(), rank(["a", 1], ["a", 2], ["b", 3])), "'a' more than once")
  })
  it("refuses malformed items", () => {
    expectInvalid(answer(rankingQuestion(), ["a", "b", "c"]), "'preference'", "item 0")
    expectInvalid(answer(rankingQuestion(), [{ value: "a", rank: 1.5 }], "draft"), "item 0", "1.5")
    expectInvalid(answer(rankingQuestion(), { a: 1 }), "'preference'", "list")
  })
})
