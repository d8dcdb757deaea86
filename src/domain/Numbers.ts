import { ParseResult, Schema } from "effect"

const Checked = Schema.Array(Schema.Number)
const decodeChecked = ParseResult.decodeUnknown(Checked)
const encodeChecked = ParseResult.encodeUnknown(Checked)

/** Whether `input` is an array of numbers (what `Numbers` passes through as it is). */
export const isNumbers = (input: unknown): input is ReadonlyArray<number> => {
  if (!Array.isArray(input)) return false
  for (let i = 0; i < input.length; i++) if (typeof input[i] !== "number") return false
  return true
}

/**
 * `Schema.Array(Schema.Number)`, decoded and encoded without copying an array that is all numbers. Vectors are
 * hundreds of numbers, and that schema allocates an `Either` and an index pair for each: tens of megabytes for a
 * bulk of 500 records with a vector each, and a share of every vector search's garbage on the main thread. Anything
 * else goes through that schema, so its errors (which element, what was expected) are the same.
 */
export const Numbers: Schema.Schema<ReadonlyArray<number>> = Schema.declare([], {
  decode: () => (input, options) => isNumbers(input) ? ParseResult.succeed(input) : decodeChecked(input, options),
  encode: () => (input, options) => isNumbers(input) ? ParseResult.succeed(input) : encodeChecked(input, options)
}, {
  // What the OpenAPI document said of `Schema.Array(Schema.Number)` (no identifier: it stays inline, not a $ref).
  jsonSchema: { type: "array", items: { type: "number" } },
  arbitrary: () => (fc) => fc.array(fc.double())
})
