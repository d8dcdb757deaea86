import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What the built-in engine's ANN vector index reads (services/search/database/ann): the vectors changed since its
 * watermark, by settings and time; and, on PostgreSQL, records by their insertion counter, which keys the index
 * (SQLite's rowid is its table's key already).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create index vectors_by_settings_updated on vectors (vector_settings_id, updated_at)`
  yield* sql.onDialectOrElse({
    pg: () => sql`create unique index records_seq on records (seq)`,
    orElse: () => Effect.void
  })
})
