/**
 * The record rows' hand codecs (src/codecs/recordRows.ts) equal `RecordRow`: `decodeRecordRows` gives what
 * `Schema.decodeUnknown` gives on every page either database returns, the schema's own error on a page it refuses;
 * `encodeRecordRow` (a bulk insert on SQLite) writes what `Schema.encode` writes, for every row the service builds
 * (from decoded values: see `decoded` in shapes.ts for the one value of the schema's type the two would write
 * differently). `recordRowsDocument` (a bulk insert on PostgreSQL) is one JSON document, which `jsonb_to_recordset`
 * unpacks into typed columns: each row of it must be the schema's encoding, with the JSON columns as the objects their
 * text holds (they land in `jsonb`) and the timestamps as the same ISO text. The keyset walk's next key
 * (`RecordsRepo.pageAfter`) is read by `intOf` (plainRows.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { decodeRecordRows, encodeRecordRow, RecordRow, recordRowsDocument } from "../../../src/codecs/recordRows.js"
import {
  byFastPath,
  bySchema,
  dbTimestamp,
  decoded,
  equalsSchema,
  fc,
  idLike,
  jsonObjectText,
  notDbTimestamp,
  notJsonObjectText,
  RUNS,
  rows,
  uuid
} from "./shapes.js"

const recordRows = rows({
  id: { valid: uuid, invalid: idLike },
  dataset_id: { valid: uuid, invalid: idLike },
  external_id: { valid: fc.option(fc.string(), { nil: null }), invalid: fc.constantFrom(3, undefined, true) },
  fields: { valid: jsonObjectText, invalid: notJsonObjectText },
  metadata: { valid: fc.option(jsonObjectText, { nil: null }), invalid: notJsonObjectText },
  status: { valid: fc.constantFrom("pending", "completed"), invalid: fc.constantFrom("discarded", "Pending", null, 1) },
  inserted_at: { valid: dbTimestamp, invalid: notDbTimestamp },
  updated_at: { valid: dbTimestamp, invalid: notDbTimestamp }
})

/** A `RecordRow` as the service builds one for a bulk insert: from decoded input (see `decoded`). */
const recordRow = decoded(RecordRow)

describe("decodeRecordRows", () => {
  it("equals Schema.decodeUnknown(Schema.Array(RecordRow)) on every generated page, accepted or refused", () => {
    const { accepted, refused } = equalsSchema(RecordRow, decodeRecordRows, recordRows, (fast, slow) => expect(fast).toStrictEqual(slow))
    expect(accepted).toBeGreaterThan(RUNS / 10)
    expect(refused).toBeGreaterThan(RUNS / 10)
  })

  it("reads back what encodeRecordRow writes, as the schema does", () => {
    fc.assert(
      fc.property(fc.array(recordRow, { maxLength: 3 }), (values) => {
        const stored = values.map(encodeRecordRow)
        expect(byFastPath(decodeRecordRows, stored)).toStrictEqual(bySchema(RecordRow, stored))
      }),
      { numRuns: RUNS / 4 }
    )
  })
})

describe("decodeRecordRows and a record map's __proto__ key", () => {
  it("never gives fields or metadata with an own __proto__ key (the one thing the hand encoders would write)", () => {
    const stored = fc.tuple(uuid, uuid, jsonObjectText).map(([id, dataset_id, text]) => ({
      id,
      dataset_id,
      external_id: null,
      fields: `{"__proto__": {"x": 1}${text === "{}" ? "" : `, ${text.slice(1, -1)}`}}`,
      metadata: `{"__proto__": 1}`,
      status: "pending",
      inserted_at: "2026-11-22T08:00:00.000Z",
      updated_at: "2026-11-22T08:00:00.000Z"
    }))
    fc.assert(
      fc.property(stored, (row) => {
        const read = Effect.runSync(decodeRecordRows([row]))
        expect(read.some(({ fields, metadata }) => Object.hasOwn(fields, "__proto__") || (metadata !== null && Object.hasOwn(metadata, "__proto__")))).toBe(false)
      }),
      { numRuns: RUNS / 4 }
    )
  })
})

describe("encodeRecordRow", () => {
  it("writes what Schema.encode(RecordRow) writes, key for key, for every row the service builds", () => {
    fc.assert(
      fc.property(recordRow, (row) => {
        expect(encodeRecordRow(row)).toStrictEqual(Schema.encodeSync(RecordRow)(row))
      }),
      { numRuns: RUNS }
    )
  })
})

/** A row of the schema's encoding as `jsonb_to_recordset` reads it: JSON text columns parsed, like a jsonb column. */
const asDocumentRow = (encoded: typeof RecordRow.Encoded) => ({
  ...encoded,
  fields: JSON.parse(encoded.fields) as unknown,
  metadata: encoded.metadata === null ? null : JSON.parse(encoded.metadata) as unknown
})

describe("recordRowsDocument", () => {
  it("holds each row as Schema.encode(RecordRow) writes it, JSON columns as objects", () => {
    fc.assert(
      fc.property(fc.array(recordRow, { maxLength: 4 }), (rows) => {
        const document = JSON.parse(recordRowsDocument(rows)) as unknown
        expect(document).toStrictEqual(rows.map((row) => asDocumentRow(Schema.encodeSync(RecordRow)(row))))
      }),
      { numRuns: RUNS / 2 }
    )
  })
})
