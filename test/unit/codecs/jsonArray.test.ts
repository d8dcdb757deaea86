/**
 * The hand JSON array reader and writer of `records.json` (src/codecs/jsonArray.ts) equal `JSON.parse` and
 * `JSON.stringify` of the whole array. Reading, in any pieces: the text is taken (no break reported, every element
 * `JSON.parse`s) exactly when `JSON.parse` reads it as an array of objects, and the elements are that array's.
 * Writing, in any batches: the text `JSON.parse`s to the elements written, in order.
 */
import { describe, expect, it } from "@effect/vitest"
import { jsonArrayReader, jsonArrayText } from "../../../src/codecs/jsonArray.js"
import { fc, jsonObject, RUNS } from "./shapes.js"

/** The elements the reader gives for `text` cut at `cuts`, or undefined when it reports a break or an element is not JSON. */
const read = (text: string, cuts: ReadonlyArray<number>): ReadonlyArray<unknown> | undefined => {
  const reader = jsonArrayReader()
  const out: Array<unknown> = []
  const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b)
  let from = 0
  for (const to of [...at, text.length]) {
    const pushed = reader.push(text.slice(from, to))
    from = to
    try {
      out.push(...pushed.elements.map((element) => JSON.parse(element) as unknown))
    } catch {
      return undefined
    }
    if (pushed._tag === "Malformed") return undefined
  }
  return reader.end() === undefined ? out : undefined
}

/** What `JSON.parse` reads `text` as, when that is an array of objects; else undefined. */
const parsed = (text: string): ReadonlyArray<unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) && value.every((element) => typeof element === "object" && element !== null && !Array.isArray(element))
      ? value
      : undefined
  } catch {
    return undefined
  }
}

const objects = fc.array(fc.oneof(jsonObject, fc.constant({ text: "a } ] \" \\\" [ {", "{": "}" })), { maxLength: 5 })
/** An array's text as a file may hold it: compact, indented, or with Python's separators. */
const arrayText = fc.tuple(objects, fc.constantFrom(undefined, 2, "\t")).map(([values, indent]) => JSON.stringify(values, null, indent))
/** One character changed, removed or added: a broken file, or still a good one. */
const mutated = fc.tuple(arrayText, fc.nat(), fc.constantFrom("replace", "delete", "insert"), fc.constantFrom(..."{}[],:\" \\\n1a"))
  .map(([text, at, how, char]) => {
    const i = at % (text.length + 1)
    return how === "replace" ? text.slice(0, i) + char + text.slice(i + 1)
      : how === "delete" ? text.slice(0, i) + text.slice(i + 1)
      : text.slice(0, i) + char + text.slice(i)
  })
const cuts = fc.array(fc.nat(), { maxLength: 6 })

describe("jsonArrayReader", () => {
  it("reads, in any pieces, exactly the texts JSON.parse reads as an array of objects, to the same elements", () => {
    let taken = 0
    let refused = 0
    fc.assert(
      fc.property(fc.oneof(arrayText, mutated, mutated, fc.string()), cuts, (text, at) => {
        const whole = parsed(text)
        if (whole === undefined) refused++
        else taken++
        expect(read(text, at), text).toStrictEqual(whole)
      }),
      { numRuns: RUNS * 2 }
    )
    expect(Math.min(taken, refused)).toBeGreaterThan(RUNS / 10)
  })
})

describe("jsonArrayText", () => {
  it("writes, in any batches, the text JSON.parse reads back as the elements written", () => {
    fc.assert(
      fc.property(fc.array(fc.array(jsonObject, { maxLength: 3 }), { maxLength: 4 }), (batches) => {
        const writer = jsonArrayText()
        const text = writer.open + batches.map((batch) => writer.elements(batch)).join("") + writer.close
        expect(JSON.parse(text)).toStrictEqual(JSON.parse(JSON.stringify(batches.flat())))
      }),
      { numRuns: RUNS }
    )
  })
})
