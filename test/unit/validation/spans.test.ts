import { describe, it } from "@effect/vitest"
import { validateAnswer } from "../../../src/services/records/validation/answers.js"
import { expectInvalid, expectValid, spanQuestion } from "./fixtures.js"

const span = (label: string, start: number, end: number) => ({ label, start, end })
const check = (value: unknown, text: unknown = "Ada Lovelace worked with Babbage", allowOverlapping = false) =>
  validateAnswer(spanQuestion("entities", allowOverlapping), value, { text }, "submitted")

describe("validateAnswer: span offsets", () => {
  it("accepts spans within the text, including one ending at its last character", () => {
    expectValid(check([span("PER", 0, 12), span("PER", 25, 32)]))
    expectValid(check([]))
  })
  it("counts offsets in code points: '👍🏽 nice' is 7 long, 'nice' is 3..7", () => {
    const text = "👍🏽 nice"
    expectValid(check([span("ORG", 3, 7)], text))
    expectValid(check([span("ORG", 0, 2)], text))
    // In UTF-16 units the text is 9 long, so 8 would pass a `.length` check.
    expectInvalid(check([span("ORG", 3, 8)], text), "`end` (8)", "`text`", "`7`")
    expectInvalid(check([span("ORG", 7, 8)], text), "`start` (7)", "`7`")
  })
  it("counts a combining accent as its own code point", () => {
    const decomposed = "cafe\u0301!" // "café!" with é as e + U+0301: 6 code points
    expectValid(check([span("ORG", 0, 5)], decomposed))
    expectValid(check([span("ORG", 5, 6)], decomposed))
    expectInvalid(check([span("ORG", 0, 7)], decomposed), "`end` (7)", "`6`")
    expectValid(check([span("ORG", 4, 5)], "café!")) // precomposed: 5 code points
    expectInvalid(check([span("ORG", 5, 6)], "café!"), "`start` (5)", "`5`")
  })
  it("refuses an end beyond the text and a start at its length", () => {
    expectInvalid(check([span("PER", 25, 33)]), "'entities'", "`end` (33)", "`32`")
    expectInvalid(check([span("PER", 32, 33)]), "`start` (32)")
  })
  it("refuses end <= start, a negative start and non-integer offsets", () => {
    expectInvalid(check([span("PER", 4, 4)]), "'entities'", "item 0", "greater than `start`")
    expectInvalid(check([span("PER", 5, 2)]), "greater than `start`")
    expectInvalid(check([span("PER", -1, 2)]), "`start`", "-1")
    expectInvalid(check([span("PER", 0, 0)]), "`end`", "0")
    expectInvalid(check([span("PER", 0.5, 2)]), "0.5")
    expectInvalid(check([{ label: "PER", start: 0 }]), "`end`")
  })
  it("refuses a label that is not an option, naming it", () =>
    expectInvalid(check([span("PER", 0, 3), span("LOC", 4, 8)]), "'LOC'", "'entities'", "['PER', 'ORG']"))
  it("refuses more than 10 000 spans", () =>
    expectInvalid(check(Array.from({ length: 10_001 }, () => span("PER", 0, 1))), "10000"))
  it("refuses a value that is not a list", () => expectInvalid(check(span("PER", 0, 3)), "'entities'", "list"))
})

describe("validateAnswer: span field and overlaps", () => {
  it("refuses spans when the record has no text for the span field", () => {
    expectInvalid(validateAnswer(spanQuestion(), [span("PER", 0, 1)], {}, "draft"), "'entities'", "`text`")
    expectInvalid(check([span("PER", 0, 1)], null), "`text`")
    expectInvalid(check([], ["not", "text"]), "`text`")
  })
  it("refuses overlapping spans with the same or different labels", () => {
    expectInvalid(check([span("PER", 0, 5), span("PER", 4, 8)]), "overlapping", "idx=0", "idx=1")
    expectInvalid(check([span("PER", 0, 5), span("ORG", 4, 8)]), "overlapping")
    expectInvalid(check([span("ORG", 20, 30), span("PER", 0, 3), span("PER", 2, 25)]), "idx=1 and idx=2")
  })
  it("finds an overlap with a long span that started earlier (nested)", () =>
    expectInvalid(check([span("PER", 0, 30), span("ORG", 5, 6), span("PER", 10, 12)]), "idx=0 and idx=1"))
  it("accepts adjacent spans: one may start where another ends", () =>
    expectValid(check([span("PER", 4, 12), span("PER", 0, 3), span("ORG", 3, 4)])))
  it("accepts overlaps, identical spans included, when the question allows overlapping", () => {
    expectValid(check([span("PER", 0, 5), span("ORG", 4, 8)], undefined, true))
    expectValid(check([span("PER", 0, 5), span("PER", 0, 5)], undefined, true))
  })
})
