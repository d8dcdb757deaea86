/**
 * PostgreSQL's text matches read one row per record (migration 0009): a search over every field uses the whole-
 * record row, a search in one field that field's row. Before, every field's row matched and a `distinct` made them
 * one a record, which read every match of a common word before the first came out, so a capped count still read
 * them all. The plans of the capped count must stream: no Unique, Sort or grouping under the
 * limit, so that it stops once it has enough. A ranked page too, and it scores only the matches that pass.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { rankedPage } from "../../src/services/search/database/pages.js"
import type { Read } from "../../src/services/search/database/SearchReads.js"
import { postgresTextIndex } from "../../src/services/search/database/postgresText.js"
import type { IndexSchema } from "../../src/services/search/Query.js"
import { dialects, freshDatabase } from "../support/databases.js"

const PostgresTest = Layer.unwrapScoped(Effect.map(freshDatabase("postgres"), ({ env }) =>
  Layer.effectDiscard(runMigrations).pipe(
    Layer.provideMerge(SqlLive),
    Layer.provide(GlossConfig.fromRecord({ ...env, HF_HUB_DISABLE_TELEMETRY: "1" }))
  )))

const schema = { datasetId: "01a2102b-399d-732e-875e-093c23e24216", fields: [] } as unknown as IndexSchema

describe.skipIf(!dialects.includes("postgres"))("PostgreSQL text matches", () => {
  layer(PostgresTest)((it) => {
    it.effect("a capped count streams, over every field and in one field", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const text = postgresTextIndex(sql)
        for (const field of [undefined, "title"]) {
          const from = text.matches(schema, "common word", field, { scored: false })
          const [statement, params] = sql`select count(*) as n from (select 1 from ${from!} where r.dataset_id = ${schema.datasetId}
            limit 10001) c`.compile()
          const plan = (yield* sql.unsafe<{ "QUERY PLAN": string }>(`explain (costs off) ${statement}`, params))
            .map((row) => row["QUERY PLAN"]).join("\n")
          expect(plan, String(field)).not.toMatch(/Unique|Sort|HashAggregate|GroupAggregate/)
          expect(plan).toMatch(/field = /)
        }
      }))

    it.effect("each search reads its own partial index, in a generic plan too", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const text = postgresTextIndex(sql)
        // A prepared statement planned once for any parameters: what a pooled connection runs after five calls.
        const planOf = (field: string | undefined) =>
          sql.withTransaction(Effect.gen(function*() {
            yield* sql`set local plan_cache_mode = force_generic_plan`
            yield* sql`set local enable_seqscan = off`
            const [statement, params] = sql`select m.record_id from ${text.matches(schema, "word", field, { scored: false })!}
              where r.dataset_id = ${schema.datasetId}`.compile()
            yield* sql.unsafe(`prepare matches as ${statement}`)
            const literals = params.map((param) => `'${String(param).replaceAll("'", "''")}'`).join(", ")
            const rows = yield* sql.unsafe<{ "QUERY PLAN": string }>(`explain (costs off) execute matches(${literals})`)
            yield* sql.unsafe(`deallocate matches`)
            return rows.map((row) => row["QUERY PLAN"]).join("\n")
          }))
        expect(yield* planOf(undefined)).toMatch(/record_texts_whole/)
        const inField = yield* planOf("title")
        expect(inField).toMatch(/record_texts_fields/)
        expect(inField).toMatch(/\$3/) // generic: the field is a parameter, not a value the planner saw
      }))

    it.effect("a ranked page scores the matches that pass the filters, as they stream out of the join", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const from = postgresTextIndex(sql).matches(schema, "common word", undefined)!
        const statements: Array<readonly [string, ReadonlyArray<unknown>]> = []
        const read: Read = (statement) => Effect.sync(() => (statements.push(statement.compile()), []))
        const where = sql`r.dataset_id = ${schema.datasetId} and r.status = 'pending'`
        const paged = { from, where, order: [{ key: sql`m.score`, desc: true }], score: sql`m.score`, limit: 50, offset: 0, countUpTo: 10_000 }
        yield* rankedPage(sql, { read, readInTurn: () => Effect.die("a ranked page reads one statement") }, { ...paged, sequence: sql`r.seq`, window: 10_000 })
        const [statement, params] = statements[0]!
        const plan = (yield* sql.unsafe<{ "QUERY PLAN": string }>(`explain (verbose, costs off) ${statement}`, params))
          .map((row) => row["QUERY PLAN"]).join("\n")
        // The matches' subquery is pulled up into the join: ts_rank is computed where the filters have been applied
        // (not for every match the window reads), and nothing under the window's limit sorts, so it stops early.
        expect(plan).not.toMatch(/Subquery Scan on m/)
        const window = plan.slice(plan.indexOf("WindowAgg"))
        expect(window).toMatch(/Limit\s+Output: [^\n]*\s+->  (Nested Loop|Hash Join|Merge Join)\s+Output: [^\n]*ts_rank/)
        expect(window).not.toMatch(/Sort|Unique|Aggregate/)
      }))
  })
})
