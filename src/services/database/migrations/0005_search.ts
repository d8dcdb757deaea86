import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The built-in search engine's text index on PostgreSQL (SQLite's FTS5 tables are made per dataset at publish;
 * see services/search/database).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.gen(function*() {
        yield* sql`create table record_texts (
          record_id uuid not null references records (id) on delete cascade,
          dataset_id uuid not null,
          field text not null,
          tsv tsvector not null
        )`
        yield* sql`create index record_texts_tsv on record_texts using gin (tsv)`
        yield* sql`create index record_texts_record on record_texts (record_id)`
      }),
    orElse: () => Effect.void
  })
})
