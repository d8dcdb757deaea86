/**
 * The owner bootstrap run by several servers at once on one database with the same variables (replicas): each
 * finds or creates the owner, the ones that lose the race read back what the winner created, and the result is one
 * owner and one membership of WORKSPACE (of "default" when WORKSPACE is unset).
 */
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { ensureOwner } from "../../src/Bootstrap.js"
import { GlossConfig } from "../../src/Config.js"
import { Database, SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { Users } from "../../src/services/users/Users.js"
import { Workspaces } from "../../src/services/workspaces/Workspaces.js"
import { dialects, freshDatabase } from "../support/databases.js"

const BootstrapTest = (dialect: (typeof dialects)[number], owner: Record<string, string>) =>
  Layer.unwrapScoped(Effect.map(freshDatabase(dialect), ({ env }) =>
    Layer.mergeAll(Users.Default, Workspaces.Default).pipe(
      Layer.provideMerge(Database.Default),
      Layer.provideMerge(Layer.effectDiscard(runMigrations)),
      Layer.provideMerge(SqlLive),
      Layer.provideMerge(GlossConfig.fromRecord({ ...env, ...owner }))
    )))

const countsOf = (workspace: string) => Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ owners: number | string; spaces: number | string; members: number | string }>`select
    (select count(*) from users where role = 'owner') as owners,
    (select count(*) from workspaces where name = ${workspace}) as spaces,
    (select count(*) from workspaces_users) as members`
  return { owners: Number(row?.owners), spaces: Number(row?.spaces), members: Number(row?.members) }
})

const OWNERS = [
  { name: "a generated API key", workspace: "team", env: { USERNAME: "owner", PASSWORD: "owner-password", WORKSPACE: "team" } },
  {
    name: "API_KEY",
    workspace: "team",
    env: { USERNAME: "owner", PASSWORD: "owner-password", WORKSPACE: "team", API_KEY: "bootstrap.race.key.0123456789abcdefghijklmnop" }
  },
  { name: "no WORKSPACE", workspace: "default", env: { USERNAME: "owner", PASSWORD: "owner-password" } }
]

for (const dialect of dialects) {
  for (const owner of OWNERS) {
    describe(`${dialect}, with ${owner.name}`, () => {
      layer(BootstrapTest(dialect, owner.env), { excludeTestServices: true, timeout: 60_000 })("owner bootstrap", (it) => {
        it.effect(`three at once all succeed: one owner, one workspace (${owner.workspace}), one membership; again changes nothing`, () =>
          Effect.gen(function*() {
            const counts = countsOf(owner.workspace)
            yield* Effect.all([ensureOwner, ensureOwner, ensureOwner], { concurrency: "unbounded" })
            expect(yield* counts).toEqual({ owners: 1, spaces: 1, members: 1 })
            yield* ensureOwner
            expect(yield* counts).toEqual({ owners: 1, spaces: 1, members: 1 })
          }))
      })
    })
  }
}

for (const dialect of dialects) {
  describe(`${dialect}, an existing owner without WORKSPACE`, () => {
    layer(BootstrapTest(dialect, { USERNAME: "owner", PASSWORD: "owner-password" }), { excludeTestServices: true, timeout: 60_000 })(
      "owner bootstrap",
      (it) => {
        it.effect("the \"default\" workspace is given once, when the owner is created: deleted later, it is not made again", () =>
          Effect.gen(function*() {
            yield* ensureOwner
            expect(yield* countsOf("default")).toEqual({ owners: 1, spaces: 1, members: 1 })
            const sql = yield* SqlClient.SqlClient
            yield* sql`delete from workspaces where name = 'default'`
            yield* ensureOwner
            expect(yield* countsOf("default")).toEqual({ owners: 1, spaces: 0, members: 0 })
          }))
      }
    )
  })
}
