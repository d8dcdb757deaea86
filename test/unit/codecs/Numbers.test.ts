/**
 * `Numbers` (src/domain/Numbers.ts), the hand codec for vectors, decodes and encodes as `Schema.Array(Schema.Number)`
 * does on every generated input: the very array for an array of numbers, and the same error (tree and issues, with
 * their paths) for anything else, whether the first error or all are asked for.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { Numbers } from "../../../src/domain/Numbers.js"
import { fc, RUNS } from "./shapes.js"

const Checked = Schema.Array(Schema.Number)

/** What a decoding gave, comparable: the value, or the error as the API would show it (tree and flat issues). */
const outcome = (result: Either.Either<unknown, ParseResult.ParseError>) =>
  Either.match(result, {
    onRight: (value) => ({ value }),
    onLeft: (error) => ({ tree: ParseResult.TreeFormatter.formatErrorSync(error), issues: ParseResult.ArrayFormatter.formatErrorSync(error) })
  })

const input = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.double(), { maxLength: 8 }) },
  { weight: 2, arbitrary: fc.array(fc.oneof({ weight: 8, arbitrary: fc.double() }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }), { maxLength: 8 }) },
  // Holes: `Array.isArray` and a walk by index see them as undefined.
  { weight: 1, arbitrary: fc.sparseArray(fc.double(), { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.oneof(fc.anything(), fc.constantFrom(null, undefined, "1,2", { 0: 1, length: 1 })) }
)

describe("Numbers", () => {
  it("decodes and encodes every input as Schema.Array(Schema.Number) does", () => {
    fc.assert(
      fc.property(input, (value) => {
        for (const errors of ["first", "all"] as const) {
          expect(outcome(Schema.decodeUnknownEither(Numbers, { errors })(value)))
            .toStrictEqual(outcome(Schema.decodeUnknownEither(Checked, { errors })(value)))
          expect(outcome(Schema.encodeUnknownEither(Numbers, { errors })(value)))
            .toStrictEqual(outcome(Schema.encodeUnknownEither(Checked, { errors })(value)))
        }
      }),
      { numRuns: RUNS }
    )
  })

  it("gives back the very array when every element is a number (no copy)", () => {
    fc.assert(
      fc.property(fc.array(fc.double()), (vector) => {
        expect(Schema.decodeUnknownSync(Numbers)(vector)).toBe(vector)
      }),
      { numRuns: RUNS / 4 }
    )
  })
})
