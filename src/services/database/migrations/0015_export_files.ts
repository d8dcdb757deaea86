import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

/**
 * Export files (`POST /api/gloss/datasets/{id}/exports`): kept in the database, not on a server's disk, so that a
 * worker process writes what any server then serves. `exports` is one row per export job (who asked, for which
 * dataset, the file's name and type, when it finished and when it expires); `export_file_chunks` holds the file in
 * pieces, read back one at a time. Both go with their dataset; the chunks are deleted when the export expires,
 * the row stays a while longer so that a late download is told the file expired.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`
    create table exports (
      job_id text primary key,
      dataset_id ${t.uuid} not null references datasets (id) on delete cascade,
      user_id ${t.uuid} not null references users (id) on delete cascade,
      format text not null,
      file_name text not null,
      content_type text not null,
      size ${t.bigint},
      inserted_at ${t.timestamp} not null,
      finished_at ${t.timestamp},
      expires_at ${t.timestamp} not null
    )`)
  yield* sql.unsafe(`create index exports_dataset on exports (dataset_id)`)
  yield* sql.unsafe(`create index exports_expiry on exports (expires_at)`)
  yield* sql.unsafe(`
    create table export_file_chunks (
      job_id text not null references exports (job_id) on delete cascade,
      sequence integer not null,
      bytes ${t.bytes} not null,
      primary key (job_id, sequence)
    )`)
})
