/**
 * The one pass over a request body's JSON text before it is parsed (src/codecs/jsonScan.ts `scanJson`) stands in for
 * parsing it and walking the value: on any JSON text a client can send (UTF-8, so a lone surrogate only as a `\u`
 * escape), it finds the body too deep exactly when the parsed value nests more than `max` objects and arrays, and it
 * notes a lone surrogate exactly when a string or key of the parsed value is not well-formed.
 */
import { describe, expect, it } from "@effect/vitest"
import { scanJson } from "../../../src/codecs/jsonScan.js"
import { fc, RUNS } from "./shapes.js"

/** How many objects and arrays nest inside one another in `value`, itself included. */
const depth = (value: unknown): number =>
  typeof value !== "object" || value === null ? 0 : 1 + Math.max(0, ...Object.values(value).map(depth))

/** Whether a string or key anywhere in `value` holds a lone surrogate. */
const illFormed = (value: unknown): boolean =>
  typeof value === "string"
    ? !value.isWellFormed()
    : typeof value === "object" && value !== null
    ? Object.entries(value).some(([key, child]) => !key.isWellFormed() || illFormed(child))
    : false

/**
 * A string as JSON text a client may write it: each character raw or as a `\u` escape (upper- or lower-case hex), a
 * pair as two escapes or raw, a lone surrogate only escaped (UTF-8 cannot hold one raw).
 */
const quote = (text: string, escapeAll: boolean, upper: boolean) => {
  const hex = (unit: number) => {
    const digits = unit.toString(16).padStart(4, "0")
    return `\\u${upper ? digits.toUpperCase() : digits}`
  }
  let out = "\""
  for (const char of text) {
    const point = char.codePointAt(0)!
    if (char === "\"" || char === "\\" || point < 0x20) out += JSON.stringify(char).slice(1, -1)
    else if (point >= 0xd800 && point <= 0xdfff) out += hex(point)
    else if (escapeAll && point > 0x7f) out += [...Array(char.length).keys()].map((i) => hex(char.charCodeAt(i))).join("")
    else out += char
  }
  return `${out}"`
}
const write = (value: unknown, escapeAll: boolean, upper: boolean, space: string): string =>
  typeof value === "string"
    ? quote(value, escapeAll, upper)
    : Array.isArray(value)
    ? `[${space}${value.map((v) => write(v, escapeAll, upper, space)).join(`,${space}`)}${space}]`
    : typeof value === "object" && value !== null
    ? `{${space}${Object.entries(value).map(([k, v]) => `${quote(k, escapeAll, upper)}:${space}${write(v, escapeAll, upper, space)}`).join(`,${space}`)}${space}}`
    : JSON.stringify(value)

/** Text with lone halves, pairs, escaped-looking backslashes and brackets: what the scan must see through. */
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.constantFrom("\ud800", "\udfff", "\ud83d\ude00", "\ude00\ud83d", "\\ud800", "\\", "\"", "[{", "}]", "\\\"[", "\ud800\\ude00")
)
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), text),
    fc.array(tie("json"), { maxLength: 3 }),
    fc.dictionary(text, tie("json"), { maxKeys: 3 })
  )
})).json
const body = fc.record({
  value,
  escapeAll: fc.boolean(),
  upper: fc.boolean(),
  space: fc.constantFrom("", " ", "\n  ")
})

describe("scanJson", () => {
  it("finds a body too deep exactly when its parsed value nests more than the limit", () => {
    let deep = 0
    fc.assert(
      fc.property(body, fc.integer({ min: 0, max: 4 }), ({ value, escapeAll, upper, space }, max) => {
        const json = write(value, escapeAll, upper, space)
        const parsed: unknown = JSON.parse(json)
        if (depth(parsed) > max) deep++
        expect(scanJson(json, max).tooDeep, json).toBe(depth(parsed) > max)
      }),
      { numRuns: RUNS * 2 }
    )
    expect(deep).toBeGreaterThan(RUNS / 10)
  })

  it("notes a lone surrogate exactly when a string or key of the parsed value holds one", () => {
    let lone = 0
    fc.assert(
      fc.property(body, ({ value, escapeAll, upper, space }) => {
        const json = write(value, escapeAll, upper, space)
        const parsed: unknown = JSON.parse(json)
        if (illFormed(parsed)) lone++
        expect(scanJson(json, 64).loneSurrogate, json).toBe(illFormed(parsed))
      }),
      { numRuns: RUNS * 2 }
    )
    expect(lone).toBeGreaterThan(RUNS / 10)
  })
})
