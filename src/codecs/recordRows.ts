/** How a record is stored (`RecordRow`), with its hand codecs: every search and listing reads it, a bulk writes it. */
import { Schema } from "effect"
import { JsonObject } from "../domain/Common.js"
import { DatasetId, RecordId } from "../domain/Ids.js"
import { isPlainObject } from "../domain/Json.js"
import { RecordStatus } from "../domain/Record.js"
import { isoString } from "../domain/Timestamp.js"
import { DbJson, timestampColumns, timestampOf } from "./columns.js"
import { isUuid, plainRows } from "./plainRows.js"

export const RecordRow = Schema.Struct({
  id: RecordId,
  dataset_id: DatasetId,
  external_id: Schema.NullOr(Schema.String),
  fields: DbJson(JsonObject),
  metadata: Schema.NullOr(DbJson(JsonObject)),
  status: RecordStatus,
  ...timestampColumns
})
export type RecordRow = typeof RecordRow.Type

/**
 * `RecordRow`'s encoding, written out for bulk inserts. The rows come from the service, built from input the API
 * has already decoded, so the schema's checks hold; running them again through `Schema.encode` cost a tenth of a
 * bulk upsert (`npm run bench -- ingest`). A test keeps this equal to the schema's own encoding.
 */
export const encodeRecordRow = (row: RecordRow): typeof RecordRow.Encoded => ({
  id: row.id,
  dataset_id: row.dataset_id,
  external_id: row.external_id,
  fields: JSON.stringify(row.fields),
  metadata: row.metadata === null ? null : JSON.stringify(row.metadata),
  status: row.status,
  inserted_at: isoString(row.inserted_at),
  updated_at: isoString(row.updated_at)
})

const isTimestamp = (value: unknown): value is Date | string => value instanceof Date || typeof value === "string"

/** A JSON column holding an object, parsed; undefined for anything `DbJson(JsonObject)` would not give back as is. */
const jsonObjectOf = (text: unknown): Readonly<Record<string, unknown>> | undefined => {
  if (typeof text !== "string") return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  return isPlainObject(value) ? value : undefined
}

/**
 * `RecordRow`'s decoding with a fast path (see plainRows): every search and listing reads its page of records here,
 * and the schema allocated several kilobytes a row.
 */
export const decodeRecordRows = plainRows(RecordRow, (row): RecordRow | undefined => {
  const { id, dataset_id, external_id, status, inserted_at, updated_at } = row
  if (!isUuid(id) || !isUuid(dataset_id) || (external_id !== null && typeof external_id !== "string")) return undefined
  if ((status !== "pending" && status !== "completed") || !isTimestamp(inserted_at) || !isTimestamp(updated_at)) return undefined
  const fields = jsonObjectOf(row.fields)
  const metadata = row.metadata === null ? null : jsonObjectOf(row.metadata)
  const inserted = timestampOf(inserted_at)
  const updated = timestampOf(updated_at)
  if (fields === undefined || metadata === undefined || inserted === undefined || updated === undefined) return undefined
  return {
    id: id as RecordRow["id"],
    dataset_id: dataset_id as RecordRow["dataset_id"],
    external_id,
    fields,
    metadata,
    status,
    inserted_at: inserted,
    updated_at: updated
  }
})

/**
 * `RecordRow`s as the one JSON document PostgreSQL's `jsonb_to_recordset` unpacks for a bulk insert: one statement
 * instead of eight parameters a row to parse and plan (`npm run bench -- ingest`). Each row is the schema's encoding
 * but for `fields` and `metadata`, which stay objects (they land in jsonb); dates are the same ISO text.
 */
export const recordRowsDocument = (rows: ReadonlyArray<RecordRow>): string => JSON.stringify(rows)
