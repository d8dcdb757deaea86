/**
 * The column codecs (src/codecs/columns.ts) as the hand decoders use them: `timestampOf`, which every fast
 * path reads a timestamp with, takes exactly the timestamps `DbTimestamp` takes, to the same instant; and what each
 * column schema writes, it reads back as it was (timestamps, integers, booleans, vectors).
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { DbBoolean, DbInt, DbTimestamp, DbVector, timestampOf } from "../../../src/codecs/columns.js"
import { dbTimestamp, fc, notDbTimestamp, RUNS } from "./shapes.js"

/** How the fast paths read a timestamp column (recordRows.ts, vectorRows.ts, reviewRows.ts). */
const fastTimestamp = (value: unknown) => value instanceof Date || typeof value === "string" ? timestampOf(value) : undefined

describe("timestampOf", () => {
  it("reads a timestamp column exactly as DbTimestamp decodes it, and refuses what it refuses", () => {
    let read = 0
    fc.assert(
      fc.property(fc.oneof(dbTimestamp, notDbTimestamp), (value) => {
        const fast = fastTimestamp(value)
        const slow = Schema.decodeUnknownEither(DbTimestamp)(value)
        if (fast === undefined) expect(Either.isLeft(slow), String(value)).toBe(true)
        else {
          read++
          expect(slow).toStrictEqual(Either.right(fast))
        }
      }),
      { numRuns: RUNS }
    )
    expect(read).toBeGreaterThan(RUNS / 4)
  })
})

describe("the column schemas", () => {
  it("read back what they write", () => {
    const instant = fc.date({ noInvalidDate: true })
    fc.assert(
      fc.property(instant, fc.maxSafeInteger(), fc.boolean(), fc.array(fc.double()), (at, n, flag, vector) => {
        const written = Schema.encodeSync(DbTimestamp)(at)
        expect(Schema.decodeUnknownSync(DbTimestamp)(written).getTime()).toBe(at.getTime())
        expect(timestampOf(written)?.getTime()).toBe(at.getTime())
        expect(Schema.decodeUnknownSync(DbInt)(Schema.encodeSync(DbInt)(n))).toBe(n)
        // PostgreSQL's bigint text reads to the same number.
        expect(Schema.decodeUnknownSync(DbInt)(String(n))).toBe(n)
        expect(Schema.decodeUnknownSync(DbBoolean)(Schema.encodeSync(DbBoolean)(flag))).toBe(flag)
        const bytes = Schema.encodeSync(DbVector)(vector)
        expect(Schema.decodeUnknownSync(DbVector)(bytes)).toStrictEqual(vector)
        expect(Schema.decodeUnknownSync(DbVector)(Buffer.from(bytes))).toStrictEqual(vector)
      }),
      { numRuns: RUNS }
    )
  })
})
