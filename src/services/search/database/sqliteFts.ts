/**
 * SQLite: one contentless FTS5 table per published dataset (`fts_<dataset id>`), a column per field, one row per
 * record keyed by the record's rowid. Contentless: the text is already in `records`; the index stores only what it
 * needs to find it.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { DatasetId, RecordId } from "../../../domain/Ids.js"
import type { IndexSchema } from "../Query.js"
import { queryTerms, searchableText } from "./texts.js"
import type { TextIndex } from "./TextIndex.js"

const table = (datasetId: DatasetId) => `fts_${datasetId.replaceAll("-", "")}`
/** Columns are named by position: field names may contain characters FTS5 query syntax does not accept. */
const column = (schema: IndexSchema, field: string) => `c${schema.fields.findIndex((f) => f.name === field)}`

export const sqliteTextIndex = (sql: SqlClient.SqlClient): TextIndex => {
  const ddl = (schema: IndexSchema) => {
    const columns = schema.fields.map((_, i) => `c${i}`).join(", ") || "c0"
    return `create virtual table if not exists ${table(schema.datasetId)} using fts5(${columns}, content='', ` +
      `contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`
  }
  const remove = (datasetId: DatasetId, ids: ReadonlyArray<RecordId>) =>
    ids.length === 0
      ? Effect.void
      : sql`delete from ${sql(table(datasetId))} where rowid in (select rowid from records where ${sql.in("id", ids)})`
        .pipe(Effect.asVoid, Effect.orDie)
  return {
    // automerge 8 (default 4): FTS5 merges its segments in larger, rarer steps while records arrive, which made
    // bulk indexing faster with no measurable change to query time (`npm run bench -- ingest`, `-- search`).
    create: (schema) =>
      sql.unsafe(ddl(schema)).pipe(
        Effect.zipRight(sql.unsafe(`insert into ${table(schema.datasetId)} (${table(schema.datasetId)}, rank) values ('automerge', 8)`)),
        Effect.asVoid,
        Effect.orDie
      ),
    drop: (datasetId) => sql.unsafe(`drop table if exists ${table(datasetId)}`).pipe(Effect.asVoid, Effect.orDie),
    upsert: (schema, records) =>
      Effect.gen(function*() {
        if (records.length === 0) return
        yield* sql.unsafe(ddl(schema))
        // The records' rowids in one query: a `(select rowid from records where id = ?)` in each row of the insert
        // is several times slower in a bulk upsert.
        const ids = records.map((record) => record.id)
        const rowids = new Map(
          (yield* sql<{ id: string; rowid: number }>`select id, rowid from records where ${sql.in("id", ids)}`)
            .map((row) => [row.id, row.rowid])
        )
        const width = Math.max(1, schema.fields.length)
        // A record deleted meanwhile has no rowid and nothing to index.
        const rows = records.flatMap((record) => {
          const rowid = rowids.get(record.id)
          if (rowid === undefined) return []
          const columns = schema.fields.map((field) => searchableText(field, record.fields[field.name]))
          return [[rowid, ...(columns.length === 0 ? [null] : columns)]]
        })
        if (rows.length === 0) return
        const names = ["rowid", ...Array.from({ length: width }, (_, i) => `c${i}`)].join(", ")
        const tuple = `(?, ${Array(width).fill("?").join(", ")})`
        // A contentless-delete table takes REPLACE: a record indexed before is replaced by rowid, in one statement.
        yield* sql.unsafe(
          `insert or replace into ${table(schema.datasetId)} (${names}) values ${rows.map(() => tuple).join(", ")}`,
          rows.flat()
        )
      }).pipe(Effect.orDie),
    remove,
    matches: (schema, q, field, options) => {
      // Each word once: FTS5 evaluates and bm25 scores every phrase of the query at every match, so a word repeated
      // 100 times made a common word's search ~100 times slower, and found nothing more.
      const terms = [...new Set(queryTerms(q))]
      if (terms.length === 0) return undefined
      const phrase = terms.map((term) => `"${term.replaceAll("\"", "\"\"")}"`).join(" ")
      const match = field === undefined ? phrase : `{${column(schema, field)}} : (${phrase})`
      const fts = sql(table(schema.datasetId))
      // bm25 reads each match's column sizes (a lookup per row): ~1 µs a match, most of a common word's search.
      const score = options?.scored === false ? sql`null` : sql`-bm25(${fts})`
      return sql`(select rowid as record_rowid, ${score} as score from ${fts} where ${fts} match ${match}) m
                 cross join records r on r.rowid = m.record_rowid`
    }
  }
}
