import { Command } from "@effect/cli"
import { Console, Effect, Layer } from "effect"
import { GlossConfig } from "../Config.js"
import { SqlLive } from "../services/database/Database.js"
import { runMigrations } from "../services/database/migrations.js"

const migrate = Command.make("migrate", {}, () =>
  Effect.gen(function*() {
    const applied = yield* runMigrations
    yield* Console.log(
      applied.length === 0
        ? "The database is up to date"
        : `Applied ${applied.length} migration(s): ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}`
    )
  }).pipe(Effect.provide(SqlLive.pipe(Layer.provide(GlossConfig.layer))))).pipe(
  Command.withDescription("Apply the database migrations (the server and workers also do this when they start)")
)

export const dbCommand = Command.make("db").pipe(
  Command.withDescription("Database maintenance"),
  Command.withSubcommands([migrate])
)
