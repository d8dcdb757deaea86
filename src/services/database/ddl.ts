import type { SqlClient } from "@effect/sql"

/** Column type names for DDL written once for both dialects. */
export const columnTypes = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({
    pg: () => ({
      uuid: "uuid",
      timestamp: "timestamptz",
      json: "jsonb",
      boolean: "boolean",
      bigint: "bigint",
      bytes: "bytea",
      /** An insertion counter (see `insertionOrder`); SQLite's implicit rowid plays this part there. */
      sequence: "seq bigint generated always as identity,"
    }),
    orElse: () => ({
      uuid: "text",
      timestamp: "text",
      json: "text",
      boolean: "integer",
      bigint: "integer",
      bytes: "blob",
      sequence: ""
    })
  })

/**
 * The column that orders rows by insertion. Timestamps alone cannot: rows written in the same millisecond (a bulk
 * insert) would come back in random order.
 */
export const insertionOrder = (sql: SqlClient.SqlClient): string =>
  sql.onDialectOrElse({ pg: () => "seq", orElse: () => "rowid" })

/**
 * Written before a column in a condition (`${notIndexed}column = ?`), keeps SQLite from serving the condition from an
 * index on that column (its unary `+`), where a walk of another index in order is what a keyset page needs; nothing
 * on PostgreSQL, which plans from statistics.
 */
export const notIndexed = (sql: SqlClient.SqlClient): string => sql.onDialectOrElse({ pg: () => "", orElse: () => "+" })

/** `for update` where the dialect has row locks (PostgreSQL); SQLite serialises writers anyway. */
export const forUpdate = (sql: SqlClient.SqlClient): string => sql.onDialectOrElse({ pg: () => "for update", orElse: () => "" })
