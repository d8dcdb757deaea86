/**
 * The queue's candidate decoder (src/codecs/candidateRows.ts `decodeCandidates`) gives exactly what
 * its schema gives, on generated rows as either database returns them (numbers, PostgreSQL's bigint text) and on
 * rows it must refuse, where the schema's own error comes back.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import fc from "fast-check"
import { CandidateRow, decodeCandidates } from "../../src/codecs/candidateRows.js"

const bySchema = (rows: ReadonlyArray<unknown>) =>
  Either.mapLeft(Schema.decodeUnknownEither(Schema.Array(CandidateRow))(rows), (error) => error.message)
const byFastPath = (rows: ReadonlyArray<unknown>) =>
  Either.mapLeft(Effect.runSync(Effect.either(decodeCandidates(rows))), (error) => error.message)

const integer = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.integer({ min: 0, max: 2 ** 40 }).map(String),
  fc.integer({ min: -1000, max: -1 }).map(String)
)
const junk = fc.oneof(fc.constant(null), fc.constant(1.5), fc.constant("12a"), fc.constant(""), fc.boolean(), fc.constant(2 ** 60))
const row = fc.record({
  id: fc.oneof({ weight: 5, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.string() }),
  seq: fc.oneof({ weight: 5, arbitrary: integer }, { weight: 1, arbitrary: junk }),
  priority: fc.oneof({ weight: 5, arbitrary: integer }, { weight: 1, arbitrary: junk })
})

describe("decodeCandidates", () => {
  it("equals the schema on every generated page, accepted or refused", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), (rows) => {
        expect(byFastPath(rows)).toEqual(bySchema(rows))
      }),
      { numRuns: 500 }
    )
  })

  it("takes the fast path's values for plain rows", () => {
    const id = "0b9f6c1e-4a57-4a8f-9d5e-2f6a1c3b7d10"
    expect(byFastPath([{ id, seq: "42", priority: -3 }])).toEqual(Either.right([{ id, seq: 42, priority: -3 }]))
  })
})
