/**
 * On SQLite a search's words each reach FTS5 once: FTS5 evaluates, and bm25 scores, every phrase of a query at every
 * match, so a word repeated up to the text limit (100 times) made a common word's search ~100 times slower and found
 * nothing more.
 */
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { sqliteTextIndex } from "../../src/services/search/database/sqliteFts.js"
import type { IndexSchema } from "../../src/services/search/Query.js"

const schema = {
  datasetId: "01a2102b-399d-732e-875e-093c23e24216",
  fields: [{ name: "text", settings: { type: "text" } }]
} as unknown as IndexSchema

describe("SQLite text query", () => {
  layer(SqliteClient.layer({ filename: ":memory:" }))((it) => {
    it.effect("names each word once, in the order first written", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const from = sqliteTextIndex(sql).matches(schema, "Beta alpha BETA beta, alpha gamma", undefined)
        const [, params] = sql`select 1 from ${from!}`.compile()
        expect(params).toContain(`"beta" "alpha" "gamma"`)
        const [, inField] = sql`select 1 from ${sqliteTextIndex(sql).matches(schema, "alpha alpha", "text")!}`.compile()
        expect(inField).toContain(`{c0} : ("alpha")`)
      }))
  })
})
