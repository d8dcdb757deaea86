import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * PostgreSQL's text index gets one more row per record: all its searchable fields together, under the field name
 * `''` (no field is named so: names are validated identifiers). A search over every field then reads one row per
 * matching record, where it read one per field and had to make them distinct: that `distinct` read every match of a
 * common word before the first row came out (seconds at a million records), and now a count capped at 10 001, or a
 * ranking window, stops as soon as it has enough.
 *
 * `gloss_tsvector_agg` concatenates tsvectors (positions shifted, as `||` does); the backfill and every upsert build
 * the whole-record row from the per-field ones with it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.gen(function*() {
        yield* sql`create aggregate gloss_tsvector_agg (tsvector) (sfunc = tsvector_concat, stype = tsvector, initcond = '')`
        yield* sql`insert into record_texts (record_id, dataset_id, field, tsv)
          select record_id, dataset_id, '', gloss_tsvector_agg(tsv order by field)
          from record_texts group by record_id, dataset_id`
        yield* sql`create index record_texts_whole on record_texts using gin (tsv) where field = ''`
      }),
    orElse: () => Effect.void
  })
})
