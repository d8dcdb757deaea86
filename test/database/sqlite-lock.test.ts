import Sqlite from "better-sqlite3"
import { describe, expect, layer } from "@effect/vitest"
import { Cause, Context, Effect, Exit, Layer, Option } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { Database, SqlLive } from "../../src/services/database/Database.js"
import { DatabaseLocked } from "../../src/services/database/errors.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { WorkspacesRepo } from "../../src/services/workspaces/WorkspacesRepo.js"
import { WorkspaceId } from "../../src/domain/Ids.js"
import { freshDatabase } from "../support/databases.js"

class DatabaseFile extends Context.Tag("test/DatabaseFile")<DatabaseFile, string>() {}

const LockTest = Layer.unwrapScoped(Effect.map(freshDatabase("sqlite"), ({ env, name }) =>
  WorkspacesRepo.Default.pipe(
    Layer.provideMerge(Database.Default),
    Layer.provideMerge(Layer.effectDiscard(runMigrations)),
    Layer.provideMerge(SqlLive),
    Layer.provideMerge(GlossConfig.fromRecord({ ...env, GLOSS_DATABASE_SQLITE_TIMEOUT: "1" })),
    Layer.merge(Layer.succeed(DatabaseFile, name))
  )))

const newWorkspace = (name: string) => {
  const at = new Date()
  return { id: WorkspaceId.make(crypto.randomUUID()), name, inserted_at: at, updated_at: at }
}

/** Another process's connection holding the write lock. */
const holdWriteLock = (file: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const other = new Sqlite(file)
      other.exec("BEGIN EXCLUSIVE")
      return other
    }),
    (other) => Effect.sync(() => other.close())
  )

describe("sqlite", () => {
  layer(LockTest, { excludeTestServices: true, timeout: 30_000 })("a locked database", (it) => {
    it.scoped("a write waits for the lock asynchronously, then dies with DatabaseLocked after the timeout", () =>
      Effect.gen(function*() {
        const db = yield* Database
        const repo = yield* WorkspacesRepo
        yield* holdWriteLock(yield* DatabaseFile)
        const exit = yield* db.transaction(repo.insert(newWorkspace("blocked"))).pipe(Effect.exit)
        expect(Exit.isFailure(exit)).toBe(true)
        if (Exit.isFailure(exit)) {
          expect(Option.getOrUndefined(Cause.dieOption(exit.cause))).toBeInstanceOf(DatabaseLocked)
        }
      }))

    it.effect("a write that starts while the lock is held succeeds once it is released within the timeout", () =>
      Effect.gen(function*() {
        const db = yield* Database
        const repo = yield* WorkspacesRepo
        const other = new Sqlite(yield* DatabaseFile)
        other.exec("BEGIN EXCLUSIVE")
        setTimeout(() => other.close(), 300)
        const inserted = yield* db.transaction(repo.insert(newWorkspace("waited")))
        expect(Option.isSome(inserted)).toBe(true)
      }))
  })
})
