import { describe, expect, it } from "vitest"
import {
  addSpan,
  CodePoints,
  lanes,
  overlapping,
  segments,
  snap,
  tokens
} from "../../src/screens/annotation/span/offsets.js"

/** What the server counts (Python's `len`): code points. */
const cpLength = (s: string) => Array.from(s).length

describe("code-point offsets", () => {
  const text = "Great 👍🏽 service from Zoë at Acme"

  it("converts UTF-16 offsets to code points and back, around an emoji with a skin tone (4 UTF-16 units, 2 code points)", () => {
    const cp = new CodePoints(text)
    expect(cp.length).toBe(cpLength(text))
    const acme16 = text.indexOf("Acme")
    const acmeCp = cpLength(text.slice(0, acme16))
    expect(acme16 - acmeCp).toBe(2) // two astral code points before it
    expect(cp.codePoint(acme16)).toBe(acmeCp)
    expect(cp.utf16(acmeCp)).toBe(acme16)
    expect(cp.toWire("ORG", { start: acme16, end: acme16 + 4 })).toEqual({ label: "ORG", start: acmeCp, end: acmeCp + 4 })
    expect(cp.fromWire({ label: "ORG", start: acmeCp, end: acmeCp + 4 })).toEqual({ start: acme16, end: acme16 + 4 })
  })

  it("maps every offset of a text of emoji and combining marks consistently with Array.from", () => {
    const mixed = "a👍🏽b\u0301c🥐\u{1F468}\u200D\u{1F469}d"
    const cp = new CodePoints(mixed)
    const points = Array.from(mixed)
    let u16 = 0
    points.forEach((point, i) => {
      expect(cp.codePoint(u16)).toBe(i)
      expect(cp.utf16(i)).toBe(u16)
      u16 += point.length
    })
    expect(cp.codePoint(mixed.length)).toBe(points.length)
  })

  it("counts a combining accent as its own code point (Café with U+0301 is 5)", () => {
    const cafe = "Cafe\u0301 Lumière"
    const cp = new CodePoints(cafe)
    const word = snap(cafe, 1, 2, "token")
    expect(word).toEqual({ start: 0, end: 5 })
    expect(cp.toWire("LOC", word ?? { start: 0, end: 0 })).toEqual({ label: "LOC", start: 0, end: 5 })
  })
})

describe("snapping", () => {
  const text = "Hello, Zoë 👍🏽 at Acme Corp."

  it("grows a partial selection to whole tokens and leaves white space out", () => {
    const from = text.indexOf("cme")
    expect(snap(text, from, from + 1, "token")).toEqual({ start: text.indexOf("Acme"), end: text.indexOf("Acme") + 4 })
    expect(snap(text, text.indexOf(" at ") , text.indexOf(" at ") + 4, "token")).toEqual({
      start: text.indexOf("at "),
      end: text.indexOf("at ") + 2
    })
  })

  it("keeps punctuation as its own token", () => {
    const corp = text.indexOf("Corp")
    expect(snap(text, corp, corp + 2, "token")).toEqual({ start: corp, end: corp + 4 })
    expect(snap(text, corp + 4, corp + 5, "token")).toEqual({ start: corp + 4, end: corp + 5 })
  })

  it("with Shift (characters) never cuts an emoji or a letter from its accent", () => {
    const emoji = text.indexOf("👍")
    // Selecting only the first half of the surrogate pair still takes the whole emoji with its modifier.
    expect(snap(text, emoji, emoji + 1, "character")).toEqual({ start: emoji, end: emoji + 4 })
    const decomposed = "Cafe\u0301!"
    expect(snap(decomposed, 3, 4, "character")).toEqual({ start: 3, end: 5 })
    expect(snap(decomposed, 1, 2, "character")).toEqual({ start: 1, end: 2 })
  })

  it("refuses a selection of white space only", () => {
    expect(snap("a   b", 1, 4, "token")).toBeUndefined()
  })

  it("lists tokens without white space, for the keyboard cursor", () => {
    expect(tokens("Hi, Zoë 👍🏽!").map((t) => "Hi, Zoë 👍🏽!".slice(t.start, t.end))).toEqual(["Hi", ",", "Zoë", "👍🏽", "!"])
  })
})

describe("overlap", () => {
  const a = { label: "ORG", start: 0, end: 10 }
  const b = { label: "LOC", start: 5, end: 15 }

  it("keeps overlapping spans when the question allows it, and replaces them when it does not", () => {
    expect(addSpan([a], b, true)).toEqual([a, b])
    expect(addSpan([a], b, false)).toEqual([b])
    expect(addSpan([a], a, true)).toEqual([a])
  })

  it("finds overlapping spans, and puts them on separate lanes", () => {
    expect(overlapping([a, b, { label: "PER", start: 20, end: 25 }])).toEqual([0, 1])
    expect(lanes([{ start: 0, end: 10 }, { start: 5, end: 15 }, { start: 10, end: 12 }])).toEqual([0, 1, 0])
  })

  it("cuts the text into pieces covered by a fixed set of spans", () => {
    expect(segments(20, [{ start: 0, end: 10 }, { start: 5, end: 15 }])).toEqual([
      { start: 0, end: 5, covering: [0] },
      { start: 5, end: 10, covering: [0, 1] },
      { start: 10, end: 15, covering: [1] },
      { start: 15, end: 20, covering: [] }
    ])
  })

  it("segments a 50 000-character text with 200 spans in a few milliseconds", () => {
    const long = "word ".repeat(10_000)
    const ranges = Array.from({ length: 200 }, (_, i) => ({ start: i * 250, end: i * 250 + 4 + (i % 3) * 5 }))
    const started = performance.now()
    const pieces = segments(long.length, ranges)
    const cp = new CodePoints(long)
    const elapsed = performance.now() - started
    expect(pieces.length).toBe(400)
    expect(cp.length).toBe(50_000)
    expect(elapsed).toBeLessThan(50)
  })
})
