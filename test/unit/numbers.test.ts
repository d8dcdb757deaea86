/**
 * `Numbers` (src/domain/Numbers.ts) decodes and encodes as `Schema.Array(Schema.Number)` does: the same value for an
 * array of numbers (the very array, not a copy), and the same error, with the same path and message, for anything
 * else — alone, and where the API meets it, in a vector search and in a record's vectors.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, JSONSchema, ParseResult, Schema } from "effect"
import { Numbers } from "../../src/domain/Numbers.js"
import { RecordUpsert } from "../../src/domain/Record.js"
import { SearchRecordsQuery } from "../../src/domain/Search.js"

const Checked = Schema.Array(Schema.Number)

const inputs: ReadonlyArray<[string, unknown]> = [
  ["numbers", [0.25, -1, 3e-8, 0, 1e300]],
  ["no numbers", []],
  ["NaN and infinities (as Schema.Number takes them)", [Number.NaN, Infinity, -Infinity]],
  ["a string among numbers", [1, "2", 3]],
  ["null among numbers", [1, null]],
  ["a nested array", [[1, 2]]],
  ["a hole", [1, , 3]], // eslint-disable-line no-sparse-arrays
  ["an object", { 0: 1, length: 1 }],
  ["a string", "1,2,3"],
  ["null", null],
  ["undefined", undefined]
]

/** What a decoding gave, comparable: the value, or the error as the API would show it (tree and flat issues). */
const outcome = (result: Either.Either<unknown, ParseResult.ParseError>) =>
  Either.match(result, {
    onRight: (value) => ({ value }),
    onLeft: (error) => ({ tree: ParseResult.TreeFormatter.formatErrorSync(error), issues: ParseResult.ArrayFormatter.formatErrorSync(error) })
  })

describe("Numbers", () => {
  for (const [name, input] of inputs) {
    it(`decodes and encodes ${name} as Schema.Array(Schema.Number) does`, () => {
      expect(outcome(Schema.decodeUnknownEither(Numbers)(input))).toEqual(outcome(Schema.decodeUnknownEither(Checked)(input)))
      expect(outcome(Schema.encodeUnknownEither(Numbers)(input))).toEqual(outcome(Schema.encodeUnknownEither(Checked)(input)))
      for (const errors of ["first", "all"] as const) {
        expect(outcome(Schema.decodeUnknownEither(Numbers, { errors })(input)))
          .toEqual(outcome(Schema.decodeUnknownEither(Checked, { errors })(input)))
      }
    })
  }

  it("gives back the array it was given when every element is a number", () => {
    const vector = [0.5, 0.25]
    expect(Schema.decodeUnknownSync(Numbers)(vector)).toBe(vector)
  })

  it("names the element at fault in a vector search and in a record's vectors", () => {
    const search = Schema.decodeUnknownEither(SearchRecordsQuery)({ query: { vector: { name: "emb", value: [0.1, "x"] } } })
    expect(outcome(search)).toMatchObject({
      issues: expect.arrayContaining([expect.objectContaining({ path: ["query", "vector", "value", 1], message: "Expected number, actual \"x\"" })])
    })
    const record = Schema.decodeUnknownEither(RecordUpsert)({ fields: { text: "a" }, vectors: { emb: [0.1, null] } })
    expect(outcome(record)).toMatchObject({
      issues: expect.arrayContaining([expect.objectContaining({ path: ["vectors", "emb", 1], message: "Expected number, actual null" })])
    })
  })

  it("is described in JSON Schema (and so in the OpenAPI document) as an array of numbers, inline", () => {
    expect(JSONSchema.make(Numbers)).toEqual(JSONSchema.make(Checked))
  })
})
