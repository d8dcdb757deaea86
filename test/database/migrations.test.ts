/**
 * Several processes migrating one fresh database at once (a server and its workers starting together): every one
 * of them finishes with the whole schema, and each migration is applied exactly once.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { dialects, freshDatabase } from "../support/databases.js"

for (const dialect of dialects) {
  describe(dialect, () => {
    it.scopedLive("four processes migrating at once each end with the complete schema", () =>
      Effect.gen(function*() {
        const { env } = yield* freshDatabase(dialect)
        // Each "process" has its own connections (a layer provided separately is built separately).
        const connection = () => SqlLive.pipe(Layer.provide(GlossConfig.fromRecord(env)))
        const migrateAndLook = Effect.gen(function*() {
          const applied = yield* runMigrations
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ n: number | string }>`select count(*) as n from outbox`
          return { applied: applied.length, outboxRows: Number(rows[0]?.n) }
        })
        const results = yield* Effect.all(
          Array.from({ length: 4 }, () => migrateAndLook.pipe(Effect.provide(connection()))),
          { concurrency: "unbounded" }
        )
        // Every process can use the newest table; between them the migrations ran once.
        expect(results.map((r) => r.outboxRows)).toEqual([0, 0, 0, 0])
        const recorded = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ migration_id: number }>`select migration_id from effect_sql_migrations order by migration_id`
        }).pipe(Effect.provide(connection()))
        const ids = recorded.map((row) => Number(row.migration_id))
        expect(new Set(ids).size).toBe(ids.length)
        expect(results.reduce((sum, r) => sum + r.applied, 0)).toBe(ids.length)
      }), 60_000)
  })
}
