/**
 * The reads of the `vectors` table behind the ANN index (ann/) and its exact rescoring (rank.ts), each
 * decoded. A vector's key is its record's insertion order (SQLite `rowid`, PostgreSQL `seq`; see ddl.ts): an
 * integer, which is what the index stores, and which no later write changes.
 */
import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DbInt } from "../../../codecs/columns.js"
import { insertionOrder, notIndexed } from "../../database/ddl.js"
import type { Read } from "../database/SearchReads.js"
import {
  decodeScored,
  decodeStamped,
  decodeValued,
  type Scored,
  type Stamped,
  type StampRow,
  type Valued
} from "../../../codecs/vectorRows.js"

/** Keys per `in (…)` list: well under SQLite's 32 766 parameters, and a short statement for PostgreSQL to plan. */
const KEYS_PER_QUERY = 500

const decodeCount = Schema.decodeUnknown(Schema.Array(Schema.Struct({ n: DbInt })))
const decodeIds = Schema.decodeUnknown(Schema.Array(Schema.Struct({ id: Schema.String })))

/**
 * A stored vector with its record: `value` holds little-endian float64s (see DbVector); `version` is PostgreSQL's
 * `xmin`, which changes with every write of the row (0 on SQLite), for the copies beside the index (copies.ts).
 */
export type VectorRow = typeof Valued.Type
/** A stored vector's record and stamp, without its value. */
export type StampedRow = typeof Stamped.Type
/** When a vector was last written, by key. */
export type Stamp = typeof StampRow.Type

/** A stored vector's exact cosine with the query, computed where it is stored (null: other dimensions). */
export type ScoredRow = typeof Scored.Type

/**
 * `scoresInSql`: `read` runs where SQL has `gloss_cosine` (SQLite's search worker, see SqliteReader), so rescoring
 * can read scores instead of vectors (`scoredByKeys`).
 */
export const vectorRows = (sql: SqlClient.SqlClient, read: Read, options?: { readonly scoresInSql?: boolean }) => {
  const keyColumn = `r.${insertionOrder(sql)}`
  const key = sql.unsafe(keyColumn)
  // The row version the copies are checked against (vectorCopies); SQLite's search never uses copies.
  const version = sql.unsafe(sql.onDialectOrElse({ pg: () => "v.xmin::text::bigint", orElse: () => "0" }))
  // SQLite's planner, left alone, serves every read here from the settings' index on `vectors`, walking all vectors of
  // the settings; these two steer it (PostgreSQL plans from its statistics and needs neither):
  // - `+column` keeps a condition from choosing an index (a page must walk the (record_id, settings) index in order);
  const byRecordIndex = sql.unsafe(notIndexed(sql))
  // - CROSS JOIN fixes the join order, so that a lookup by key starts from the records: otherwise finding a hundred
  //   vectors walked them all, for each search's rescoring, a cost that grows with the vectors of the settings.
  const recordsThenVectors = sql.unsafe(sql.onDialectOrElse({ pg: () => "join", orElse: () => "cross join" }))
  const ofKeys = (settingsId: string, keys: ReadonlyArray<number>) =>
    sql`from records r ${recordsThenVectors} vectors v on v.record_id = r.id and v.vector_settings_id = ${settingsId}
        where ${sql.in(keyColumn, keys)}`
  const inChunks = <A, E>(keys: ReadonlyArray<number>, run: (chunk: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<A>, E>) =>
    Effect.map(
      Effect.forEach(
        Array.from({ length: Math.ceil(keys.length / KEYS_PER_QUERY) }, (_, i) => keys.slice(i * KEYS_PER_QUERY, (i + 1) * KEYS_PER_QUERY)),
        run
      ),
      (chunks) => chunks.flat()
    )

  return {
    count: (settingsId: string) =>
      Effect.map(
        Effect.flatMap(read(sql`select count(*) as n from vectors where vector_settings_id = ${settingsId}`), decodeCount),
        (rows) => rows[0]?.n ?? 0
      ),

    /** Whether these vector settings still exist (a dataset's deletion takes them, and their vectors, with it). */
    exists: (settingsId: string) =>
      Effect.map(
        Effect.flatMap(read(sql`select id from vectors_settings where id = ${settingsId}`), decodeIds),
        (rows) => rows.length > 0
      ),

    /**
     * A page of every vector of the settings, in record id order after `after`: a keyset served by the unique
     * `(record_id, vector_settings_id)` index on both databases. On SQLite the settings column is written `+column`
     * so that it cannot pick the settings' own index instead, which reads and sorts every vector of the settings for
     * each page: quadratic, minutes for a full scan at a million vectors. The bound is on both sides of the join:
     * PostgreSQL does not carry it from `v.record_id` to `r.id`, and at a million records it merge-joined each page
     * with the records' primary key read from the first record on (half a million rows for a page in the middle),
     * quadratic again.
     */
    page: (settingsId: string, after: string | undefined, limit: number) =>
      Effect.flatMap(
        read(sql`select ${key} as key, r.id, v.value, v.updated_at as at, ${version} as version from vectors v join records r on r.id = v.record_id
          where ${byRecordIndex}v.vector_settings_id = ${settingsId}${
          after === undefined ? sql`` : sql` and v.record_id > ${after} and r.id > ${after}`
        }
          order by v.record_id limit ${limit}`),
        decodeValued
      ),

    /**
     * The stamps (key, record, time, row version) of the vectors written at or after `since` (ISO-8601, as stored),
     * `limit` at most, in (time, key) order after `after`, a keyset the `(vector_settings_id, updated_at)` index
     * serves in order; no values, so that a look-back over many vectors stays cheap. The record tells a catch-up
     * which of them this process handed over (ann/handed.ts).
     */
    changed: (settingsId: string, since: string, after: Stamp | undefined, limit: number) =>
      Effect.flatMap(
        read(sql`select ${key} as key, r.id, v.updated_at as at, ${version} as version from vectors v join records r on r.id = v.record_id
          where v.vector_settings_id = ${settingsId} and v.updated_at >= ${since}${
          after === undefined ? sql`` : sql` and (v.updated_at > ${after.at.toISOString()} or (v.updated_at = ${after.at.toISOString()} and ${key} > ${after.key}))`
        }
          order by v.updated_at, ${key} limit ${limit}`),
        decodeStamped
      ),

    /** The vectors of these keys (those whose record and vector still exist). */
    byKeys: (settingsId: string, keys: ReadonlyArray<number>) =>
      inChunks(keys, (chunk) =>
        Effect.flatMap(read(sql`select ${key} as key, r.id, v.value, v.updated_at as at, ${version} as version ${ofKeys(settingsId, chunk)}`), decodeValued)),

    /** The stamps of these keys' vectors (those whose record and vector still exist), without their values. */
    stampsByKeys: (settingsId: string, keys: ReadonlyArray<number>) =>
      inChunks(keys, (chunk) =>
        Effect.flatMap(read(sql`select ${key} as key, r.id, v.updated_at as at, ${version} as version ${ofKeys(settingsId, chunk)}`), decodeStamped)),

    /** The scores of these keys' vectors against a unit query (`unitBytes`), where SQL computes them; else undefined. */
    scoredByKeys: options?.scoresInSql === true
      ? (settingsId: string, keys: ReadonlyArray<number>, unit: Uint8Array) =>
        inChunks(keys, (chunk) =>
          Effect.flatMap(
            read(sql`select ${key} as key, r.id, gloss_cosine(v.value, ${unit}) as score ${ofKeys(settingsId, chunk)}`),
            decodeScored
          ))
      : undefined
  } as const
}

export type VectorRows = ReturnType<typeof vectorRows>
