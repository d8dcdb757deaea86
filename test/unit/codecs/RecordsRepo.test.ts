/**
 * The bulk insert's hand encodings (src/services/records/RecordsRepo.ts `insertMany`) write what `RecordRow`'s
 * encoding writes. On SQLite the rows go through `encodeRecordRow` (rows.test.ts). On PostgreSQL they go as one JSON
 * document, `JSON.stringify(rows)`, which `jsonb_to_recordset` unpacks into typed columns: each row of that document
 * must be the schema's encoding, with the JSON columns as the objects their text holds (they land in `jsonb`) and the
 * timestamps as the same ISO text. The keyset walk's next key (`pageAfter`) is read by `intOf` (plainRows.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { RecordRow } from "../../../src/services/records/rows.js"
import { decoded, fc, RUNS } from "./shapes.js"

/** A row of the schema's encoding as `jsonb_to_recordset` reads it: JSON text columns parsed, like a jsonb column. */
const asDocumentRow = (encoded: typeof RecordRow.Encoded) => ({
  ...encoded,
  fields: JSON.parse(encoded.fields) as unknown,
  metadata: encoded.metadata === null ? null : JSON.parse(encoded.metadata) as unknown
})

describe("insertMany's PostgreSQL document", () => {
  it("holds each row as Schema.encode(RecordRow) writes it, JSON columns as objects", () => {
    fc.assert(
      fc.property(fc.array(decoded(RecordRow), { maxLength: 4 }), (rows) => {
        const document = JSON.parse(JSON.stringify(rows)) as unknown
        expect(document).toStrictEqual(rows.map((row) => asDocumentRow(Schema.encodeSync(RecordRow)(row))))
      }),
      { numRuns: RUNS / 2 }
    )
  })
})
