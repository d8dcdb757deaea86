/**
 * A ranked page on SQLite reads the first matches that pass the filters once, and scores only those: the FTS5
 * subquery is flattened into the join, so `bm25()` runs where the filters have already been applied. Kept as a
 * co-routine, it would score every match the window reads (~30 000 for a common word at a million records, when a
 * third pass the filters). Without statistics (Gloss does not ANALYZE) the plan does not depend on how many rows
 * there are, so an empty schema shows it.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { rankedPage } from "../../src/services/search/database/pages.js"
import type { Read } from "../../src/services/search/database/SearchReads.js"
import { sqliteTextIndex } from "../../src/services/search/database/sqliteFts.js"
import type { IndexSchema } from "../../src/services/search/Query.js"
import { freshDatabase } from "../support/databases.js"

const SqliteTest = Layer.unwrapScoped(Effect.map(freshDatabase("sqlite"), ({ env }) =>
  Layer.effectDiscard(runMigrations).pipe(
    Layer.provideMerge(SqlLive),
    Layer.provide(GlossConfig.fromRecord({ ...env, HF_HUB_DISABLE_TELEMETRY: "1" }))
  )))

const schema = {
  datasetId: "01a2102b-399d-732e-875e-093c23e24216",
  fields: [{ name: "text", settings: { type: "text" } }]
} as unknown as IndexSchema

describe("SQLite text matches", () => {
  layer(SqliteTest)((it) => {
    it.effect("a ranked page scores the matches that pass the filters, in one pass", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const text = sqliteTextIndex(sql)
        yield* text.create(schema)
        const from = text.matches(schema, "common word", undefined)!
        const statements: Array<readonly [string, ReadonlyArray<unknown>]> = []
        const read: Read = (statement) => Effect.sync(() => (statements.push(statement.compile()), []))
        const where = sql`r.dataset_id = ${schema.datasetId} and r.status = 'pending'`
        const paged = { from, where, order: [{ key: sql`m.score`, desc: true }], score: sql`m.score`, limit: 50, offset: 0, countUpTo: 10_000 }
        yield* rankedPage(sql, { read, readInTurn: () => Effect.die("a ranked page reads one statement") }, { ...paged, sequence: sql`r.rowid`, window: 10_000 })
        expect(statements).toHaveLength(1)
        const [statement, params] = statements[0]!
        const plan = (yield* sql.unsafe<{ detail: string }>(`explain query plan ${statement}`, params)).map((step) => step.detail)
        // The window is a co-routine of its own; the matches are not (flattened into it, the FTS5 table drives the join).
        expect(plan.filter((step) => /CO-ROUTINE|MATERIALIZE/.test(step))).toHaveLength(1)
        expect(plan.join("; ")).toMatch(/SCAN fts_\w+ VIRTUAL TABLE[^;]*; SEARCH r USING INTEGER PRIMARY KEY/)
      }))
  })
})
