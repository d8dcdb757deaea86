/**
 * Row decoders with a hand-written fast path, for the reads every search makes: its page of records, its hits, a
 * vector search's hundred rescored candidates. `Schema.decodeUnknown` allocates for every key of every row (an
 * `Either` per value, a Union parser for each nullable column or `DbInt`): megabytes on the main thread for a vector
 * search of 50 records, garbage whose full collections made that search's latency tail (`npm run bench -- scale`). A
 * fast path checks a row exactly as the schema would and builds the same value; a row it does not recognise sends the
 * whole read through the schema, so a bad row fails with the schema's own error. Tests keep each fast path equal to its
 * schema.
 */
import { Effect, type ParseResult, Schema } from "effect"

export type Row = Readonly<Record<string, unknown>>

/** Decodes rows with `plain` (undefined: not a row it can vouch for), and through `schema` when any row is not. */
export const plainRows = <A, I>(schema: Schema.Schema<A, I>, plain: (row: Row) => A | undefined) => {
  const decode = Schema.decodeUnknown(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError> => {
    const decoded: Array<A> = []
    for (const row of rows) {
      const value = typeof row === "object" && row !== null ? plain(row as Row) : undefined
      if (value === undefined) return decode(rows)
      decoded.push(value)
    }
    return Effect.succeed(decoded)
  }
}

/**
 * A `DbInt` column's value as the schema decodes it: a safe integer, or (PostgreSQL's bigint) its decimal text;
 * undefined for anything else, which the schema is left to judge.
 */
export const intOf = (value: unknown): number | undefined =>
  typeof value === "number"
    ? Number.isSafeInteger(value) ? value : undefined
    : typeof value === "string" && /^(?:0|[1-9]\d{0,14})$/.test(value)
    ? Number(value)
    : undefined

/** What `Schema.NullOr(Schema.Number)` accepts. */
export const isNumberOrNull = (value: unknown): value is number | null => value === null || typeof value === "number"

/** What `Schema.UUID` (and so every branded id) accepts: the schema's own predicate. */
export const isUuid: (value: unknown) => value is string = Schema.is(Schema.UUID)

/** Two column values the same: equal primitives, or Dates of the same instant (PostgreSQL's timestamps). */
const sameValue = (a: unknown, b: unknown) =>
  a === b || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime())

const sameRow = (a: unknown, b: unknown) => {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) if (!sameValue((a as Row)[key], (b as Row)[key])) return false
  return true
}

/**
 * Decodes rows through `schema`, remembering under each key (a dataset) the last rows read and what they decoded
 * to: rows read again unchanged are not decoded again. For small reads that every request repeats, such as a
 * dataset's settings (whose questions are a union of six kinds, costly to decode on every search). The rows are still
 * read from the database each time, so every process sees every change; only the decoding is saved. The decoded
 * values are shared between requests: they are immutable (`readonly` throughout).
 */
export const rememberedRows = <A, I>(schema: Schema.Schema<A, I>, capacity = 256) => {
  const decode = Schema.decodeUnknown(Schema.Array(schema))
  const last = new Map<string, { readonly rows: ReadonlyArray<unknown>; readonly decoded: ReadonlyArray<A> }>()
  return (key: string, rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError> => {
    const known = last.get(key)
    if (known !== undefined && known.rows.length === rows.length && known.rows.every((row, i) => sameRow(row, rows[i]))) {
      return Effect.succeed(known.decoded)
    }
    return Effect.map(decode(rows), (decoded) => {
      last.delete(key)
      last.set(key, { rows, decoded })
      // The key decoded longest ago goes first (a Map iterates in insertion order).
      if (last.size > capacity) last.delete(last.keys().next().value as string)
      return decoded
    })
  }
}
