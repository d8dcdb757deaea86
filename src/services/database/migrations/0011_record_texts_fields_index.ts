import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * PostgreSQL's per-field text index stops indexing the whole-record rows. Migration 0005 indexed every row of
 * `record_texts`; 0009 added a whole-record row per record (field `''`) with its own partial index, so each of those
 * rows' words went into two GIN indexes, and a record's words were indexed three times where two suffice. A search
 * over every field reads `record_texts_whole`, a search in one field reads this one (its statement says
 * `field <> ''` in so many words, so that a generic plan can prove the predicate). The index is rebuilt here: at a
 * million records that takes a few minutes, once.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.gen(function*() {
        yield* sql`drop index record_texts_tsv`
        yield* sql`create index record_texts_fields on record_texts using gin (tsv) where field <> ''`
      }),
    orElse: () => Effect.void
  })
})
