/**
 * Counts read by the repositories decode the same on both databases: PostgreSQL's `count(*)` is a bigint, which its
 * client returns as text ("0"), SQLite's a number. A count decoded as a plain number stopped every server on
 * PostgreSQL that started without an owner.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { DatasetId, WorkspaceId } from "../../src/domain/Ids.js"
import { Database, SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { RecordsRepo } from "../../src/services/records/RecordsRepo.js"
import { Users } from "../../src/services/users/Users.js"
import { UsersRepo } from "../../src/services/users/UsersRepo.js"
import { WebhooksRepo } from "../../src/services/webhooks/WebhooksRepo.js"
import { WorkspacesRepo } from "../../src/services/workspaces/WorkspacesRepo.js"
import { dialects, freshDatabase } from "../support/databases.js"

const CountsTest = (dialect: (typeof dialects)[number]) =>
  Layer.unwrapScoped(Effect.map(freshDatabase(dialect), ({ env }) =>
    Layer.mergeAll(Users.Default, UsersRepo.Default, WorkspacesRepo.Default, WebhooksRepo.Default, RecordsRepo.Default).pipe(
      Layer.provideMerge(Database.Default),
      Layer.provideMerge(Layer.effectDiscard(runMigrations)),
      Layer.provideMerge(SqlLive),
      Layer.provideMerge(GlossConfig.fromRecord(env))
    )))

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(CountsTest(dialect), { excludeTestServices: true, timeout: 60_000 })("counts", (it) => {
      it.effect("every repository count reads as a number, none and some", () =>
        Effect.gen(function*() {
          const users = yield* UsersRepo
          expect(yield* users.hasOwner).toBe(false)
          expect(yield* (yield* WorkspacesRepo).countDatasets(WorkspaceId.make(crypto.randomUUID()))).toBe(0)
          expect(yield* (yield* WebhooksRepo).count).toBe(0)
          expect(yield* (yield* RecordsRepo).count(DatasetId.make(crypto.randomUUID()))).toBe(0)
          yield* (yield* Users).createTrusted({ first_name: "o", username: "counted-owner", password: "owner-password", role: "owner" })
          expect(yield* users.hasOwner).toBe(true)
        }))
    })
  })
}
