/**
 * The answer of a bulk record write, serialised without a pass through `Schema.encode`.
 *
 * A bulk upsert answers with the 500 records it wrote. Encoding them through `RecordsBulk` re-checks every field,
 * id and nested response of data the service has just built from decoded input, and cost ~8 % of an ingest. In
 * these types the only values whose encoded form differs from their JSON are the `Timestamp`s (a `Date`, written as
 * ISO-8601 without the zone suffix, as Argilla does); they are written here, and the rest is `JSON.stringify`.
 * The HTTP tests check that what goes out is exactly what the schema would have written.
 */
import { HttpServerResponse } from "@effect/platform"
import type { DatasetRecord, RecordsBulk } from "../domain/Record.js"
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

/** A `RecordsBulk` answer as the JSON body the schema would encode it to. */
export const bulkJson = (bulk: typeof RecordsBulk.Type, status: number) =>
  HttpServerResponse.text(JSON.stringify({ ...bulk, items: bulk.items.map(record) }), {
    status,
    contentType: "application/json"
  })
