/**
 * The statements behind the ANN index and its rescoring, as SQLite plans them. Left alone, SQLite's planner served
 * each of them from the settings' index on `vectors`, walking every vector of the settings: a rescoring lookup of a
 * hundred keys grew with the vectors of the settings, and a full scan in pages was quadratic. Without
 * statistics (Gloss does not ANALYZE) the plan does not depend on how many rows there are, so an empty schema shows it.
 * PostgreSQL plans from statistics, so its check fills and analyzes tables first.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { vectorRows } from "../../src/services/search/vectors/rows.js"
import { type Dialect, dialects, freshDatabase } from "../support/databases.js"

const migrated = (dialect: Dialect) =>
  Layer.unwrapScoped(Effect.map(freshDatabase(dialect), ({ env }) =>
    Layer.effectDiscard(runMigrations).pipe(
      Layer.provideMerge(SqlLive),
      Layer.provide(GlossConfig.fromRecord({ ...env, HF_HUB_DISABLE_TELEMETRY: "1" }))
    )))

/** The plan of each statement a `vectorRows` read runs, one string a statement. */
const plansOf = <A, E>(use: (rows: ReturnType<typeof vectorRows>) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const plans: Array<string> = []
    const explain = (statement: Statement.Statement<object>) =>
      Effect.gen(function*() {
        const [text, params] = statement.compile()
        const steps = yield* sql.unsafe<{ detail: string }>(`explain query plan ${text}`, params)
        plans.push(steps.map((step) => step.detail).join("; "))
        return []
      })
    yield* use(vectorRows(sql, explain))
    return plans
  })

const SETTINGS = "01a2102b-399d-732e-875e-093c23e24216"

describe("vector reads on SQLite", () => {
  layer(migrated("sqlite"))((it) => {
    it.effect("a lookup by key starts from the records' primary key", () =>
      Effect.gen(function*() {
        // A rescoring asks for at least 100 candidates; with few keys SQLite picked this order by itself.
        const [plan] = yield* plansOf((rows) => rows.byKeys(SETTINGS, Array.from({ length: 100 }, (_, i) => i + 1)))
        expect(plan).toMatch(/^SEARCH r USING INTEGER PRIMARY KEY \(rowid=\?\); SEARCH v USING INDEX \S+ \(record_id=\? AND vector_settings_id=\?\)$/)
      }))

    it.effect("a page walks the (record_id, settings) index in order, without sorting the settings' vectors", () =>
      Effect.gen(function*() {
        const plans = yield* plansOf((rows) =>
          Effect.zip(rows.page(SETTINGS, undefined, 2_000), rows.page(SETTINGS, "01a2102b-0000-7000-8000-000000000000", 2_000))
        )
        expect(plans).toHaveLength(2)
        for (const plan of plans) {
          expect(plan).not.toMatch(/vectors_by_settings|TEMP B-TREE/)
          expect(plan).toMatch(/^(SCAN|SEARCH) v USING INDEX sqlite_autoindex_vectors_2/)
        }
      }))

    it.effect("changes since a time are read in the order of the (settings, updated_at) index", () =>
      Effect.gen(function*() {
        const plans = yield* plansOf((rows) =>
          Effect.zip(
            rows.changed(SETTINGS, "2026-01-01T00:00:00.000Z", undefined, 20_000),
            rows.changed(SETTINGS, "2026-01-01T00:00:00.000Z", { key: 7, at: new Date("2026-01-02T00:00:00.000Z") }, 20_000)
          )
        )
        for (const plan of plans) {
          expect(plan).toMatch(/^SEARCH v USING INDEX vectors_by_settings_updated \(vector_settings_id=\? AND updated_at>\?\)/)
          // Only ties of one time are sorted (by key), never the whole range.
          expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
        }
      }))
  })
})

describe.skipIf(!dialects.includes("postgres"))("vector reads on PostgreSQL", () => {
  layer(migrated("postgres"))((it) => {
    it.effect("a page from the middle reads about a page of records, not every record before it", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const records = 100_000
        // Rows only (foreign keys off for this transaction): records with random ids, one small vector each.
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`set local session_replication_role = replica`
          yield* sql`insert into records (id, dataset_id, fields, status, inserted_at, updated_at)
            select gen_random_uuid(), ${SETTINGS}, '{}', 'pending', now(), now() from generate_series(1, ${records})`
          yield* sql`insert into vectors (id, record_id, vector_settings_id, value, inserted_at, updated_at)
            select gen_random_uuid(), id, ${SETTINGS}, '\\x00', now(), now() from records`
        }))
        yield* sql`analyze records`
        yield* sql`analyze vectors`
        const [middle] = yield* sql<{ id: string }>`select record_id as id from vectors order by record_id offset ${records / 2} limit 1`
        // The most rows any step of the plan read: at most a page (and the one row that ends a merge).
        const read = Effect.gen(function*() {
          let most = 0
          const plansRead = (statement: Statement.Statement<object>) =>
            Effect.gen(function*() {
              const [text, params] = statement.compile()
              const [row] = yield* sql.unsafe<{ "QUERY PLAN": unknown }>(`explain (analyze, format json) ${text}`, params)
              const visit = (node: { "Actual Rows": number; "Actual Loops": number; Plans?: ReadonlyArray<never> }) => {
                most = Math.max(most, node["Actual Rows"] * node["Actual Loops"])
                for (const child of node.Plans ?? []) visit(child)
              }
              const plan = row!["QUERY PLAN"]
              visit((typeof plan === "string" ? JSON.parse(plan) : plan)[0].Plan)
              return []
            })
          yield* vectorRows(sql, plansRead).page(SETTINGS, middle!.id, 2_000)
          return most
        })
        // It merge-joined the page with the records' primary key read from the first record on: 50 000 rows here,
        // half a million for a page in the middle of a million: quadratic over a whole walk.
        expect(yield* read).toBeLessThanOrEqual(2_001)
      }), { timeout: 60_000 })
  })
})
