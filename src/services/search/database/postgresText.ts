/**
 * PostgreSQL: `record_texts` holds one `tsvector` per record field, built with the language-neutral `simple`
 * configuration, as Elasticsearch's standard analyzer does not stem either; and one for the whole record, under the
 * field name `''`, which a search over every field reads: one row per record, so no `distinct` has to read every
 * match before the first comes out (migration 0009). The two kinds of row have a partial GIN index each (0011).
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { RecordId } from "../../../domain/Ids.js"
import { searchableTexts } from "./texts.js"
import type { TextIndex } from "./TextIndex.js"

export const postgresTextIndex = (sql: SqlClient.SqlClient): TextIndex => {
  const remove = (ids: ReadonlyArray<RecordId>) =>
    ids.length === 0 ? Effect.void : sql`delete from record_texts where ${sql.in("record_id", ids)}`.pipe(Effect.asVoid, Effect.orDie)
  return {
    create: () => Effect.void,
    drop: (datasetId) => sql`delete from record_texts where dataset_id = ${datasetId}`.pipe(Effect.asVoid, Effect.orDie),
    upsert: (schema, records, options) =>
      Effect.gen(function*() {
        if (options?.created !== true) yield* remove(records.map((r) => r.id))
        const ids: Array<string> = []
        const fields: Array<string> = []
        const texts: Array<string> = []
        for (const record of records) {
          for (const { field, text } of searchableTexts(schema, record)) {
            ids.push(record.id)
            fields.push(field)
            texts.push(text)
          }
        }
        if (ids.length === 0) return
        // Three array parameters rather than a `values` row per text: PostgreSQL parses and plans one small statement
        // instead of one with 3 000 parameters, which in a bulk upsert costs about as much as computing the tsvectors.
        // Each text's tsvector is computed once: the whole-record row concatenates the per-field ones.
        yield* sql`with t as (
            select u.record_id, u.field, to_tsvector('simple', u.text) as tsv
            from unnest(${ids}::uuid[], ${fields}::text[], ${texts}::text[]) as u(record_id, field, text)
          ), fields as (
            insert into record_texts (record_id, dataset_id, field, tsv) select t.record_id, ${schema.datasetId}, t.field, t.tsv from t
          )
          insert into record_texts (record_id, dataset_id, field, tsv)
          select t.record_id, ${schema.datasetId}, '', gloss_tsvector_agg(t.tsv order by t.field) from t group by t.record_id`
      }).pipe(Effect.orDie),
    remove: (_, ids) => remove(ids),
    matches: (schema, q, field, options) => {
      if (q.trim() === "") return undefined
      // One row per record either way: the field's, or the whole record's (`''`). Each has its own partial index
      // (migrations 0009 and 0011), so each condition names its index's predicate as a literal: a generic plan of
      // `t.field = $1` alone could not prove `field <> ''`, and would read every row of the dataset.
      const ofField = field === undefined ? sql`t.field = ''` : sql`t.field = ${field} and t.field <> ''`
      if (options?.scored === false) {
        return sql`(select t.record_id, null::real as score from record_texts t
                   where t.dataset_id = ${schema.datasetId} and ${ofField} and t.tsv @@ plainto_tsquery('simple', ${q})) m
                   join records r on r.id = m.record_id`
      }
      // ts_rank reads (and decompresses) each match's tsvector: computed as the rows come out of the join, it is
      // computed only for the matches that pass the filters, and a ranked page stops after its window of them.
      return sql`(select t.record_id, ts_rank(t.tsv, query) as score from record_texts t, plainto_tsquery('simple', ${q}) query
                   where t.dataset_id = ${schema.datasetId} and ${ofField} and t.tsv @@ query) m
                 join records r on r.id = m.record_id`
    }
  }
}
