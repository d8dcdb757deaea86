/**
 * Column schemas that read and write the same values on SQLite and PostgreSQL, so repositories keep one code path:
 * SQLite cannot bind booleans, Dates or objects and returns timestamps and JSON as text; PostgreSQL returns Dates,
 * parsed JSON and bigint counts as strings. Rows are decoded with these, never typed by assertion.
 */
import { Either, ParseResult, Schema } from "effect"

/** A timestamp as either database returns it (a Date, or text with or without a zone: UTC); undefined if none. */
export const timestampOf = (value: Date | string): Date | undefined => {
  if (value instanceof Date) return value
  const date = new Date(/(?:Z|[+-]\d\d(?::?\d\d)?)$/.test(value) ? value : `${value.replace(" ", "T")}Z`)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/** Stored as ISO-8601 text with `Z` (sorts chronologically on SQLite); PostgreSQL parses it into timestamptz. */
export const DbTimestamp = Schema.transformOrFail(
  Schema.Union(Schema.DateFromSelf, Schema.String),
  Schema.DateFromSelf,
  {
    strict: true,
    decode: (value, _, ast) => {
      const date = timestampOf(value)
      return date === undefined
        ? ParseResult.fail(new ParseResult.Type(ast, value, "Expected a timestamp"))
        : ParseResult.succeed(date)
    },
    encode: (date) => Either.right(date.toISOString())
  }
)

/** A row's `inserted_at` and `updated_at`, as most tables keep them. */
export const timestampColumns = { inserted_at: DbTimestamp, updated_at: DbTimestamp }

/** Bound as 0/1 (PostgreSQL accepts `1` for boolean); read from 0/1 or true/false. */
export const DbBoolean = Schema.transform(Schema.Union(Schema.Number, Schema.Boolean), Schema.Boolean, {
  strict: true,
  decode: (value) => value === true || value === 1,
  encode: (value) => (value ? 1 : 0)
})

/** JSON columns travel as text on both databases (the PostgreSQL client is told not to parse json/jsonb). */
export const DbJson = <A, I>(schema: Schema.Schema<A, I>) => Schema.parseJson(schema)

/** Counts: PostgreSQL returns bigint as a string. */
export const DbInt = Schema.Union(Schema.Int, Schema.NumberFromString.pipe(Schema.int()))

/**
 * A vector stored as little-endian float64 bytes (BLOB on SQLite, bytea on PostgreSQL): exact round trips of what
 * clients send, a third of the size of JSON, and no parsing when the search engine loads them.
 */
export const DbVector = Schema.transformOrFail(Schema.Uint8ArrayFromSelf, Schema.Array(Schema.Number), {
  strict: true,
  decode: (bytes, _, ast) =>
    bytes.byteLength % 8 === 0
      // Copy first: a Node Buffer may be a view into a shared, unaligned pool.
      ? ParseResult.succeed(Array.from(new Float64Array(new Uint8Array(bytes).buffer)))
      : ParseResult.fail(new ParseResult.Type(ast, bytes, "Expected float64 bytes")),
  encode: (values) => ParseResult.succeed(new Uint8Array(Float64Array.from(values).buffer))
})
