/**
 * PostgreSQL's text matches read one row per record (migration 0009): a search over every field uses the whole-
 * record row, a search in one field that field's row. Before, every field's row matched and a `distinct` made them
 * one a record, which read every match of a common word before the first came out: a count capped at 10 001 took
 * 1.5–2 s at a million records. The plans of the capped count must stream: no Unique, Sort or grouping under the
 * limit, so that it stops once it has enough.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
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
  })
})
