/**
 * The vector reads' hand decoders (src/codecs/vectorRows.ts) equal their schemas on every page
 * either database returns — bigint keys and row versions as text on PostgreSQL, Dates or ISO text, Buffers or
 * Uint8Arrays — and `float64sOf` reads stored bytes as `DbVector` does.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { DbVector } from "../../../src/codecs/columns.js"
import {
  decodeScored,
  decodeStamped,
  decodeValued,
  float64sOf,
  Scored,
  Stamped,
  Valued
} from "../../../src/codecs/vectorRows.js"
import { bytes, dbInt, dbTimestamp, equalsSchema, fc, idLike, notBytes, notDbInt, notDbTimestamp, RUNS, rows } from "./shapes.js"

const key = { valid: dbInt, invalid: notDbInt }
const at = { valid: dbTimestamp, invalid: notDbTimestamp }
// The record's id is any string here (the schema says Schema.String): a UUID, or not.
const id = { valid: fc.oneof(idLike.filter((value) => typeof value === "string"), fc.string()), invalid: fc.constantFrom(null, undefined, 7) }
const both = (fast: unknown, slow: unknown) => expect(fast).toStrictEqual(slow)
const ranBothWays = ({ accepted, refused }: { readonly accepted: number; readonly refused: number }) =>
  expect(Math.min(accepted, refused)).toBeGreaterThan(RUNS / 10)

describe("vector rows' decoders", () => {
  it("decodeStamped equals Stamped", () => {
    ranBothWays(equalsSchema(Stamped, decodeStamped, rows({ key, id, at, version: key }), both))
  })

  it("decodeValued equals Valued, the bytes passed on as read", () => {
    ranBothWays(equalsSchema(Valued, decodeValued, rows({ key, id, at, version: key, value: { valid: bytes, invalid: notBytes } }), both))
  })

  it("decodeScored equals Scored", () => {
    const score = { valid: fc.oneof(fc.constant(null), fc.double()), invalid: fc.constantFrom("0.5", undefined, true) }
    ranBothWays(equalsSchema(Scored, decodeScored, rows({ key, id, score }, { maxLength: 6 }), both))
  })
})

describe("float64sOf", () => {
  it("reads every stored vector as DbVector decodes it", () => {
    const stored = fc.oneof(
      fc.array(fc.double(), { maxLength: 16 }).map((values) => Schema.encodeSync(DbVector)(values)),
      fc.array(fc.double(), { maxLength: 16 }).map((values) => Buffer.from(Schema.encodeSync(DbVector)(values))),
      bytes.filter((value) => value.byteLength % 8 === 0)
    )
    fc.assert(
      fc.property(stored, (value) => {
        expect(Either.right(Array.from(float64sOf(value)))).toStrictEqual(Schema.decodeUnknownEither(DbVector)(value))
      }),
      { numRuns: RUNS }
    )
  })
})
