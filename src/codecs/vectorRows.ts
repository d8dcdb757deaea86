/**
 * The rows of the `vectors` table that the ANN index (AnnIndex) and its exact rescoring (VectorSearch) read, with
 * their hand decoders, and stored vectors' bytes read as numbers. A row's `key` is its record's insertion order, its
 * `version` PostgreSQL's `xmin` (0 on SQLite). The reads themselves are the built-in search engine's.
 */
import { Schema } from "effect"
import { DbInt, DbTimestamp, timestampOf } from "./columns.js"
import { intOf, isNumberOrNull, plainRows } from "./plainRows.js"

/** Where a keyset of stamps goes on from: a key and its time. */
export const StampRow = Schema.Struct({ key: DbInt, at: DbTimestamp })
export const Stamped = Schema.Struct({ key: DbInt, id: Schema.String, at: DbTimestamp, version: DbInt })
export const Valued = Schema.Struct({ ...Stamped.fields, value: Schema.Uint8ArrayFromSelf })
/** A row's `at` as DbTimestamp decodes it, or undefined (then the schema decodes the row, and says why). */
const atOf = (row: Record<string, unknown>) =>
  row.at instanceof Date || typeof row.at === "string" ? timestampOf(row.at) : undefined
/** A row's key and time. */
const stampOf = (row: Record<string, unknown>) => {
  const key = intOf(row.key)
  const at = atOf(row)
  return key !== undefined && at !== undefined ? { key, at } : undefined
}
/** A row's stamp: its key and time, with its record and row version. */
const stampedOf = (row: Record<string, unknown>) => {
  const stamp = stampOf(row)
  const version = intOf(row.version)
  return stamp !== undefined && version !== undefined && typeof row.id === "string"
    ? { key: stamp.key, id: row.id, at: stamp.at, version }
    : undefined
}
// The index's upkeep reads the stamps of every vector written in its look-back window (after an import, tens of
// thousands every five seconds, too many to decode through the schema on the main thread); a vector search on
// PostgreSQL reads a hundred (SQLite scores them in SQL, as `Scored`), and values where its copies lack them: fast
// paths.
export const decodeStamped = plainRows(Stamped, stampedOf)
export const decodeValued = plainRows(Valued, (row) => {
  const stamped = stampedOf(row)
  return stamped !== undefined && row.value instanceof Uint8Array ? { ...stamped, value: row.value } : undefined
})
export const Scored = Schema.Struct({ key: DbInt, id: Schema.String, score: Schema.NullOr(Schema.Number) })
// Every vector search on SQLite reads a hundred of these: decoded with a fast path (see plainRows).
export const decodeScored = plainRows(Scored, (row) => {
  const key = intOf(row.key)
  return key !== undefined && typeof row.id === "string" && isNumberOrNull(row.score) ? { key, id: row.id, score: row.score } : undefined
})

/** The stored float64 bytes as numbers (copied: a Node Buffer may be an unaligned view into a shared pool). */
export const float64sOf = (value: Uint8Array) => new Float64Array(new Uint8Array(value).buffer)
