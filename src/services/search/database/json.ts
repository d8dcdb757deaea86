/**
 * Reading values out of JSON columns, on both dialects: SQLite's json1 functions, PostgreSQL's jsonb operators.
 * Paths are made of names the API has already validated (`[a-z0-9_-]`), so they can be spelled into the SQL.
 */
import { type SqlClient, SqlError, type Statement } from "@effect/sql"
import type { TermValue } from "../Query.js"

type Fragment = Statement.Fragment

export interface JsonSql {
  /** The value at `path` as a number, or null when it is not a number. */
  readonly number: (column: string, path: ReadonlyArray<string>) => Fragment
  /** The value at `path` as text (numbers and booleans as their JSON text). */
  readonly text: (column: string, path: ReadonlyArray<string>) => Fragment
  /** True when the value at `path` — or, when it is an array, one of its elements — is one of `values`. */
  readonly containsAny: (column: string, path: ReadonlyArray<string>, values: ReadonlyArray<TermValue>) => Fragment
  /** True when the value at `path` — or one of its elements — is a number within the bounds. */
  readonly numberBetween: (
    column: string,
    path: ReadonlyArray<string>,
    ge: number | undefined,
    le: number | undefined
  ) => Fragment
  /**
   * Each value at `path` (each element of an array; none where there is no value): a table function to join
   * (`from … , <from>`) and the JSON text of the current value (`term`).
   */
  readonly elements: (column: string, path: ReadonlyArray<string>) => { readonly from: Fragment; readonly term: Fragment }
}

/** SQLite's complaint about a document it cannot parse (see `tolerant` below). */
export const isMalformedJson = (error: unknown): boolean =>
  error instanceof SqlError.SqlError &&
  [error.message, error.cause instanceof Error ? error.cause.message : String(error.cause)].some((message) =>
    message.includes("malformed JSON")
  )

const sqlitePath = (path: ReadonlyArray<string>) => `'$${path.map((key) => `."${key}"`).join("")}'`
const pgPath = (path: ReadonlyArray<string>) => `'{${path.join(",")}}'`

/**
 * `tolerant`: on SQLite, a document that does not parse is read as null instead of failing the whole statement
 * ("malformed JSON"). SQLite's parser refuses JSON nested 1 000 levels deep, which records written before values were
 * bounded in depth may hold. Checking costs a second parse of every document, so it is for the retry only.
 */
export const jsonSql = (sql: SqlClient.SqlClient, tolerant = false): JsonSql =>
  sql.onDialectOrElse({
    pg: (): JsonSql => {
      // `->` key by key: cheaper than `#>` with a path array, for a filter evaluated on every record.
      const at = (column: string, path: ReadonlyArray<string>) => `(${column}${path.map((key) => ` -> '${key}'`).join("")})`
      return {
        number: (column, path) =>
          sql.unsafe(`(case jsonb_typeof(${at(column, path)}) when 'number' then ${at(column, path)}::numeric end)`),
        text: (column, path) => sql.unsafe(`(${column} #>> ${pgPath(path)})`),
        containsAny: (column, path, values) =>
          sql`(${sql.unsafe(at(column, path))} @> any(${sql.unsafe("array[")}${
            sql.csv(values.map((value) => sql`${JSON.stringify(value)}::jsonb`))
          }${sql.unsafe("])")})`,
        // A number is compared as it is; only an array is expanded into its elements. Expanding every value (a
        // one-element array made of a scalar) cost a set-returning subquery a row, which dominates a filter that reads
        // every record's metadata. SQLite keeps json_each for both shapes: there the two-branch form is slower (each
        // json_* call reads the document again).
        numberBetween: (column, path, ge, le) => {
          const within = (value: Fragment) =>
            sql.and([
              ...(ge === undefined ? [] : [sql`${value} >= ${ge}`]),
              ...(le === undefined ? [] : [sql`${value} <= ${le}`])
            ])
          const value = sql.unsafe(at(column, path))
          // A case, not `typeof = 'number' and cast`: PostgreSQL may evaluate an `and`'s sides in any order, and
          // casting a string element fails the whole statement.
          return sql`(case jsonb_typeof(${value}) when 'number' then ${within(sql`(${value})::numeric`)}
            when 'array' then exists (select 1 from jsonb_array_elements(${value}) e
              where ${within(sql`(case jsonb_typeof(e) when 'number' then (e)::numeric end)`)}) else false end)`
        },
        // One set-returning function a row, over the value as an array (an array as it is). A record without the
        // value gives an empty array: wrapped as it was, it became `[null]` and counted as a `null` term. One pass is
        // faster than two (scalars as they are, then arrays' elements), since each pass reads the table, and faster
        // than a jsonpath (`$.name[*]`); `npm run bench -- scale` runs the metadata metrics that use it.
        elements: (column, path) => {
          const value = at(column, path)
          return {
            from: sql.unsafe(`jsonb_array_elements(case coalesce(jsonb_typeof(${value}), 'missing') when 'array' then ${value} ` +
              `when 'missing' then '[]'::jsonb else jsonb_build_array(${value}) end) e`),
            term: sql.unsafe("e::text")
          }
        }
      }
    },
    orElse: (): JsonSql => {
      const doc = (column: string) => (tolerant ? `iif(json_valid(${column}), ${column}, null)` : column)
      const each = (column: string, path: ReadonlyArray<string>) => `json_each(${doc(column)}, ${sqlitePath(path)})`
      // json_each over a scalar yields that scalar, over an array its elements: one query for both shapes.
      const bind = (value: TermValue) => (typeof value === "boolean" ? (value ? 1 : 0) : value)
      return {
        number: (column, path) =>
          sql.unsafe(
            `(case when json_type(${doc(column)}, ${sqlitePath(path)}) in ('integer', 'real') ` +
              `then json_extract(${doc(column)}, ${sqlitePath(path)}) end)`
          ),
        text: (column, path) => sql.unsafe(`json_extract(${doc(column)}, ${sqlitePath(path)})`),
        containsAny: (column, path, values) =>
          sql`exists (select 1 from ${sql.unsafe(each(column, path))} j where j.value in ${sql.in(values.map(bind))})`,
        numberBetween: (column, path, ge, le) =>
          sql`exists (select 1 from ${sql.unsafe(each(column, path))} j where j.type in ('integer', 'real')
                ${ge === undefined ? sql`` : sql`and j.value >= ${ge}`}
                ${le === undefined ? sql`` : sql`and j.value <= ${le}`})`,
        elements: (column, path) => ({
          from: sql.unsafe(`${each(column, path)} j`),
          term: sql.unsafe("case j.type when 'true' then 'true' when 'false' then 'false' else json_quote(j.value) end")
        })
      }
    }
  })
