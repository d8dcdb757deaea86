/**
 * The records' answers written by hand as JSON text. A bulk upsert answers with the 500 records it wrote: encoding
 * them through `RecordsBulk` re-checks every field, id and nested response of data the service has just built from
 * decoded input, a visible share of an ingest. A search answers with up to `limit` records read back from the
 * database: encoding them through `SearchRecordsResult` allocated heavily on the main thread for a page of 50 (a Union
 * parser for each `NullOr`, a copy of every field map), a third of what a vector search allocates, and the full
 * collections that make its tail. In these types the only values whose encoded form differs from their JSON are the
 * `Timestamp`s (a `Date`, written as ISO-8601 without the zone suffix, as Argilla does); they are written here, and
 * the rest is `JSON.stringify`.
 */
import type { DatasetRecord, RecordsBulk } from "../domain/Record.js"
import type { SearchRecordsResult } from "../domain/Search.js"
import { isoString } from "../domain/Timestamp.js"

const stamp = (date: Date) => isoString(date).slice(0, -1)
const stamped = <T extends { readonly inserted_at: Date; readonly updated_at: Date }>(value: T) => ({
  ...value,
  inserted_at: stamp(value.inserted_at),
  updated_at: stamp(value.updated_at)
})
const record = (value: DatasetRecord) => {
  const out: Record<string, unknown> = stamped(value)
  if (value.responses !== undefined) out.responses = value.responses.map(stamped)
  if (value.suggestions !== undefined) out.suggestions = value.suggestions.map(stamped)
  return out
}

/** A `RecordsBulk` answer as the JSON text the schema would encode it to. */
export const bulkJson = (bulk: typeof RecordsBulk.Type): string => JSON.stringify({ ...bulk, items: bulk.items.map(record) })

/** A `SearchRecordsResult` as the JSON text the schema would encode it to. */
export const searchJson = (result: typeof SearchRecordsResult.Type): string =>
  JSON.stringify({ ...result, items: result.items.map((item) => ({ record: record(item.record), query_score: item.query_score })) })
