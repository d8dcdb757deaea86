/** What the ANN index's own tests share: a migrated SQLite database, and vectors written as another process would. */
import type { WrittenVector } from "../../src/services/search/Query.js"
import * as crypto from "node:crypto"
import type { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { freshDatabase } from "./databases.js"

/** A fresh SQLite database with Gloss's schema, for one suite. */
export const MigratedSqlite = Layer.unwrapScoped(Effect.map(freshDatabase("sqlite"), ({ env }) =>
  Layer.effectDiscard(runMigrations).pipe(
    Layer.provideMerge(SqlLive),
    Layer.provide(GlossConfig.fromRecord({ ...env, HF_HUB_DISABLE_TELEMETRY: "1" }))
  )))

/**
 * Writes a record with a 4-dimension vector of `settingsId` straight into the database, stamped at `stampedAt` (ms
 * on the test clock), as another write's transaction commits it: rows only, no dataset or settings around them.
 */
export const stampedVectors = (sql: SqlClient.SqlClient, settingsId: string) => {
  let n = 0
  /** Writes the record's vector, (1, n, 0, 0) for the n-th unless `value` is given; answers it as it was stored. */
  return (stampedAt: number, value?: ReadonlyArray<number>): Effect.Effect<WrittenVector, unknown> =>
    Effect.gen(function*() {
      yield* sql`PRAGMA foreign_keys = OFF`
      const at = new Date(stampedAt).toISOString()
      const record = crypto.randomUUID()
      n++
      const stored = value ?? [1, n, 0, 0]
      yield* sql`insert into records (id, dataset_id, external_id, fields, metadata, status, inserted_at, updated_at)
        values (${record}, ${crypto.randomUUID()}, ${`r${n}`}, '{}', '{}', 'pending', ${at}, ${at})`
      yield* sql`insert into vectors (id, record_id, vector_settings_id, value, inserted_at, updated_at)
        values (${crypto.randomUUID()}, ${record}, ${settingsId}, ${new Uint8Array(Float64Array.from(stored).buffer)}, ${at}, ${at})`
      return { recordId: record, settingsId, at: new Date(stampedAt), value: stored }
    })
}
