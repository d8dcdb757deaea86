/**
 * The review walk's row decoders (src/codecs/reviewRows.ts) give exactly what their schemas give: the
 * same value for every row either database returns, or the schema's own error for a row it refuses.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import {
  AnswerRow,
  decodeAnswers,
  decodeRecordKeys,
  decodeSuggestionValues,
  RecordKeyRow,
  SuggestionValueRow
} from "../../src/codecs/reviewRows.js"

const ID = "0b9f6c1e-4a57-4a8f-9d5e-2f6a1c3b7d10"
const OTHER = "6a1f0e2d-3c4b-4a59-8e7f-1d2c3b4a5f60"

const bySchema = <A, I>(schema: Schema.Schema<A, I>, rows: ReadonlyArray<unknown>) =>
  Either.mapLeft(Schema.decodeUnknownEither(Schema.Array(schema))(rows), (error) => error.message)
const byFastPath = <A>(
  decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, { readonly message: string }>,
  rows: ReadonlyArray<unknown>
) => Either.mapLeft(Effect.runSync(Effect.either(decode(rows))), (error) => error.message)

const cases = <A, I>(
  name: string,
  schema: Schema.Schema<A, I>,
  decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, { readonly message: string }>,
  rows: ReadonlyArray<[string, unknown]>
) =>
  describe(name, () => {
    for (const [label, row] of rows) {
      it(`${label}: the schema's answer`, () => {
        expect(byFastPath(decode, [row])).toEqual(bySchema(schema, [row]))
      })
    }
    it("a page with one row the fast path cannot vouch for: the schema decides the whole page", () => {
      const page = rows.map(([, row]) => row)
      expect(byFastPath(decode, page)).toEqual(bySchema(schema, page))
    })
  })

const key = { insertion_key: 7, id: ID, inserted_at: "2026-11-22T08:00:00.123Z" }
cases("decodeRecordKeys", RecordKeyRow, decodeRecordKeys, [
  ["as SQLite returns it", key],
  ["PostgreSQL's bigint key and Date", { ...key, insertion_key: "12345678901", inserted_at: new Date(0) }],
  ["a timestamp without a zone", { ...key, inserted_at: "2026-11-22 08:00:00" }],
  ["a fractional key", { ...key, insertion_key: 1.5 }],
  ["an unreadable timestamp", { ...key, inserted_at: "yesterday" }],
  ["an id that is not a UUID", { ...key, id: "r1" }]
])

const answer = { record_id: ID, user_id: OTHER, values: JSON.stringify({ label: { value: "a" }, topics: { value: ["x", "y"] } }) }
cases("decodeAnswers", AnswerRow, decodeAnswers, [
  ["as either database returns it", answer],
  ["null values", { ...answer, values: null }],
  ["values as JSON null", { ...answer, values: "null" }],
  ["an upper-case id", { ...answer, user_id: OTHER.toUpperCase() }],
  ["a __proto__ key", { ...answer, values: "{\"__proto__\": {\"value\": 1}}" }],
  ["values that are not JSON", { ...answer, values: "{" }],
  ["values already parsed", { ...answer, values: { label: { value: "a" } } }],
  ["a user id that is not a UUID", { ...answer, user_id: "alice" }]
])

const suggestion = { record_id: ID, question_id: OTHER, value: "\"a\"" }
cases("decodeSuggestionValues", SuggestionValueRow, decodeSuggestionValues, [
  ["as either database returns it", suggestion],
  ["a list value", { ...suggestion, value: "[{\"start\": 0, \"end\": 2, \"label\": \"x\"}]" }],
  ["a value that is not JSON", { ...suggestion, value: "a" }],
  ["a missing value", { record_id: ID, question_id: OTHER }]
])
