/**
 * `gloss bootstrap`: the container entrypoint's owner step as a command — the database brought up
 * to date, then the owner from USERNAME / PASSWORD / API_KEY / WORKSPACE, exactly as the server does at start-up
 * (`ensureOwner`). A user that already has the username or the key is left alone, so running it again is harmless.
 */
import { Command } from "@effect/cli"
import { Console, Effect, Layer, Option, Redacted } from "effect"
import { GlossConfig } from "../Config.js"
import { ensureOwner } from "../Bootstrap.js"
import { Database, SqlLive } from "../services/database/Database.js"
import { Users } from "../services/users/Users.js"
import { Workspaces } from "../services/workspaces/Workspaces.js"
import { MigrationsLive, UsageError } from "./admin.js"

/** Only what the owner step touches: no search engine, no queue (they may not be reachable yet in a container). */
const BootstrapLive = Layer.mergeAll(Users.Default, Workspaces.Default).pipe(
  Layer.provide(MigrationsLive),
  Layer.provide(Database.Default),
  Layer.provideMerge(SqlLive)
)

/** Who already holds the owner's username or key, if anyone: then `ensureOwner` creates nobody. */
const existingHolder = (username: string, apiKey: Option.Option<string>) =>
  Effect.gen(function*() {
    const users = yield* Users
    if (Option.isSome(yield* users.findByUsername(username))) return Option.some(`a user named '${username}'`)
    if (Option.isSome(apiKey) && Option.isSome(yield* users.findByApiKey(apiKey.value))) {
      return Option.some("a user with that API_KEY")
    }
    return Option.none<string>()
  })

/** `ensureOwner`, plus one line when it left things as they were (it only logs what it creates). */
const bootstrap = (username: string, apiKey: Option.Option<string>) =>
  Effect.gen(function*() {
    const holder = yield* existingHolder(username, apiKey)
    yield* ensureOwner
    if (Option.isSome(holder)) yield* Console.log(`The owner was not created: ${holder.value} already exists`)
  })

export const bootstrapCommand = Command.make("bootstrap", {}, () =>
  Effect.gen(function*() {
    const { owner } = yield* GlossConfig
    if (Option.isNone(owner.username) && Option.isNone(owner.password)) {
      return yield* new UsageError({
        message: "USERNAME and PASSWORD are not set: set both (and optionally API_KEY, WORKSPACE) to create the owner"
      })
    }
    yield* Option.isSome(owner.username) && Option.isSome(owner.password)
      ? bootstrap(owner.username.value, Option.map(owner.apiKey, Redacted.value)).pipe(Effect.provide(BootstrapLive))
      // Only one of the two: `ensureOwner` says why nothing happens.
      : ensureOwner.pipe(Effect.provide(BootstrapLive))
  }).pipe(Effect.provide(GlossConfig.layer))).pipe(
  Command.withDescription(
    "Create the owner user from USERNAME and PASSWORD (API_KEY: its key, random when unset and then printed " +
      "once; WORKSPACE: a workspace it joins), after applying the database migrations. Skipped when a user " +
      "with that username or API key already exists. The container entrypoint runs this before the server."
  )
)
