import type { SqlClient } from "@effect/sql"

/** Column type names for DDL written once for both dialects. */
export const columnTypes = (sql: SqlClient.SqlClient) =>
  sql.onDialectOrElse({
    pg: () => ({ uuid: "uuid", timestamp: "timestamptz", json: "jsonb", boolean: "boolean", bigint: "bigint" }),
    orElse: () => ({ uuid: "text", timestamp: "text", json: "text", boolean: "integer", bigint: "integer" })
  })
