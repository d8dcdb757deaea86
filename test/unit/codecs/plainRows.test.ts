/**
 * The pieces every hand row decoder is built from (src/codecs/plainRows.ts): `intOf` reads only what
 * `DbInt` reads, to the same number; `isNumberOrNull` and `isUuid` accept exactly what their schemas accept;
 * `plainRows` gives the schema's answer whenever its fast path steps aside for a row; and `rememberedRows` gives what
 * decoding every read afresh gives.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { DbInt, DbJson, DbTimestamp } from "../../../src/codecs/columns.js"
import { intOf, isNumberOrNull, isUuid, plainRows, rememberedRows } from "../../../src/codecs/plainRows.js"
import { byFastPath, bySchema, dbInt, dbTimestamp, fc, idLike, jsonText, notDbInt, RUNS } from "./shapes.js"

describe("intOf", () => {
  it("reads DbInt's values as DbInt does, and leaves the rest to the schema", () => {
    let read = 0
    fc.assert(
      fc.property(fc.oneof(dbInt, notDbInt), (value) => {
        const fast = intOf(value)
        if (fast === undefined) return
        read++
        expect(Schema.decodeUnknownEither(DbInt)(value)).toStrictEqual(Either.right(fast))
      }),
      { numRuns: RUNS }
    )
    expect(read).toBeGreaterThan(RUNS / 4)
  })

  it("reads every integer either database returns for a key or a count (the usual rows keep to the fast path)", () => {
    // PostgreSQL's bigint text of a negative number is the schema's to read: no key or count is negative.
    const usual = fc.oneof(fc.maxSafeInteger(), fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }).map(String))
    fc.assert(
      fc.property(usual, (value) => {
        expect(intOf(value)).toBe(Number(value))
      }),
      { numRuns: RUNS }
    )
  })
})

describe("isNumberOrNull and isUuid", () => {
  it("accept exactly what Schema.NullOr(Schema.Number) and Schema.UUID accept", () => {
    const isNullOrNumber = Schema.is(Schema.NullOr(Schema.Number))
    const isUUID = Schema.is(Schema.UUID)
    fc.assert(
      fc.property(fc.oneof(idLike, fc.double(), fc.anything()), (value) => {
        expect(isNumberOrNull(value)).toBe(isNullOrNumber(value))
        expect(isUuid(value)).toBe(isUUID(value))
      }),
      { numRuns: RUNS }
    )
  })
})

describe("plainRows", () => {
  // A fast path that vouches for only some of the rows the schema accepts (even `n`, numbers only).
  const Row = Schema.Struct({ n: DbInt })
  const decode = plainRows(Row, (row) => (Number.isSafeInteger(row.n) && typeof row.n === "number" && row.n % 2 === 0 ? { n: row.n } : undefined))

  it("gives the schema's answer for any page, whichever rows its fast path takes", () => {
    const page = fc.array(fc.oneof(fc.record({ n: fc.oneof(dbInt, notDbInt) }), fc.constantFrom(null, 1, "row")), { maxLength: 5 })
    fc.assert(
      fc.property(page, (rows) => {
        expect(byFastPath(decode, rows)).toStrictEqual(bySchema(Row, rows))
      }),
      { numRuns: RUNS }
    )
  })
})

describe("rememberedRows", () => {
  // Columns whose decoding allocates (JSON, timestamps) and that repeat: reads of the same few rows, some changed.
  const Row = Schema.Struct({ id: Schema.String, value: DbJson(Schema.Unknown), n: DbInt, at: DbTimestamp })
  const row = fc.record({
    id: fc.constantFrom("a", "b"),
    value: fc.oneof(fc.constantFrom("1", "{\"x\": [1, 2]}", "{"), jsonText),
    n: fc.oneof(fc.constantFrom(1, "1", 2), dbInt, notDbInt),
    at: fc.oneof(fc.constantFrom("2026-11-22T08:00:00.000Z", "2026-11-22 08:00:00"), fc.constant(0).map(() => new Date(0)), dbTimestamp)
  })
  const reads = fc.array(fc.tuple(fc.constantFrom("d1", "d2", "d3"), fc.array(row, { maxLength: 3 })), { minLength: 1, maxLength: 12 })

  it("gives, for every read, what decoding that read afresh gives", () => {
    fc.assert(
      fc.property(reads, fc.integer({ min: 1, max: 3 }), (sequence, capacity) => {
        const decode = rememberedRows(Row, capacity)
        for (const [key, rows] of sequence) {
          expect(byFastPath((page) => decode(key, page), rows)).toStrictEqual(bySchema(Row, rows))
        }
      }),
      { numRuns: RUNS }
    )
  })
})
