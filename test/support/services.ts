/**
 * The application's services without the HTTP server, on a fresh migrated database of `dialect`: for tests that call
 * services directly (to count their statements, or to run a job beside requests) rather than over HTTP.
 */
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { Database, SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { SearchEngineLive } from "../../src/services/search/SearchEngineLive.js"
import { type Dialect, freshDatabase } from "./databases.js"

type Infrastructure = Layer.Layer.Success<typeof SearchEngineLive> | Database | Layer.Layer.Success<typeof SqlLive> | GlossConfig

/** `services` on a fresh database, its search engine, `Database` and the configuration (`env` adds variables). */
export const servicesOnFreshDatabase = <A, E>(
  dialect: Dialect,
  services: Layer.Layer<A, E, Infrastructure>,
  env: Record<string, string> = {}
) =>
  Layer.unwrapScoped(Effect.map(freshDatabase(dialect), (database) =>
    services.pipe(
      Layer.provide(Layer.effectDiscard(runMigrations)),
      Layer.provide(SearchEngineLive),
      Layer.provide(Database.Default),
      Layer.provide(SqlLive),
      Layer.provide(GlossConfig.fromRecord({ ...database.env, HF_HUB_DISABLE_TELEMETRY: "1", ...env }))
    )))
