/**
 * What the admin commands run on: the configured database (brought up to date first), the search engine and the
 * domain services, acting as the built-in system owner — the command line is the operator's own tool.
 */
import { Data, Effect, Layer } from "effect"
import { GlossConfig } from "../Config.js"
import { UserId } from "../domain/Ids.js"
import type { User } from "../domain/User.js"
import { Database, SqlLive } from "../services/database/Database.js"
import { runMigrations } from "../services/database/migrations.js"
import { Datasets } from "../services/datasets/Datasets.js"
import { Ingest } from "../services/records/ingest/Ingest.js"
import { SearchEngineLive } from "../services/search/SearchEngineLive.js"
import { SearchIndex } from "../services/records/SearchIndex.js"
import { Users } from "../services/users/Users.js"
import { Workspaces } from "../services/workspaces/Workspaces.js"

/** The actor of admin commands: an owner that exists only in this process (policies let owners do anything). */
export const SYSTEM_OWNER: User = {
  id: UserId.make("00000000-0000-4000-8000-000000000000"),
  first_name: "gloss",
  last_name: null,
  username: "gloss (command line)",
  role: "owner",
  inserted_at: new Date(0),
  updated_at: new Date(0)
}

/** A command used wrongly (an unknown name, a bad value): printed as one line. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

export const MigrationsLive = Layer.effectDiscard(Effect.gen(function*() {
  const applied = yield* runMigrations
  if (applied.length > 0) yield* Effect.logInfo(`Applied ${applied.length} database migration(s)`)
}))

export const AdminLive = Layer.mergeAll(
  Users.Default,
  Workspaces.Default,
  Datasets.Default,
  SearchIndex.Default,
  Ingest.Default
).pipe(
  Layer.provide(MigrationsLive),
  Layer.provide(SearchEngineLive),
  Layer.provide(Database.Default),
  Layer.provideMerge(SqlLive),
  Layer.provideMerge(GlossConfig.layer)
)
