/**
 * The search hits' hand decoders (src/codecs/hitRows.ts) equal their schemas on every page either
 * database returns: `decodeHits` (every search's page of hits) and `decodeRanked` (a text search's ranked window,
 * with the count of its matches as a bigint).
 */
import { describe, expect, it } from "@effect/vitest"
import { decodeHits, decodeRanked, HitRow, RankedRow } from "../../../src/codecs/hitRows.js"
import { dbInt, equalsSchema, fc, idLike, notDbInt, RUNS, rows, uuid } from "./shapes.js"

const id = { valid: uuid, invalid: idLike }
/** Scores: any number (SQLite may give NaN or an infinity from a computed score), or null for unscored hits. */
const score = {
  valid: fc.oneof(fc.constant(null), fc.double(), fc.integer()),
  invalid: fc.constantFrom("0.5", undefined, true, {}, 1n)
}
const both = (fast: unknown, slow: unknown) => expect(fast).toStrictEqual(slow)

describe("search hits' decoders", () => {
  it("decodeHits equals its schema", () => {
    const { accepted, refused } = equalsSchema(HitRow, decodeHits, rows({ id, score }, { maxLength: 6 }), both)
    expect(Math.min(accepted, refused)).toBeGreaterThan(RUNS / 10)
  })

  it("decodeRanked equals its schema", () => {
    const pages = rows({ id, score, n: { valid: dbInt, invalid: notDbInt } }, { maxLength: 6 })
    const { accepted, refused } = equalsSchema(RankedRow, decodeRanked, pages, both)
    expect(Math.min(accepted, refused)).toBeGreaterThan(RUNS / 10)
  })
})
