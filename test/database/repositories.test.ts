import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Exit, Layer, Option } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { UserId, WorkspaceId } from "../../src/domain/Ids.js"
import { Database, SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { MembershipsRepo } from "../../src/services/MembershipsRepo.js"
import { type UserRow, UsersRepo } from "../../src/services/users/UsersRepo.js"
import { WorkspacesRepo } from "../../src/services/workspaces/WorkspacesRepo.js"
import { dialects, freshDatabase } from "../support/databases.js"

const DatabaseTest = (dialect: (typeof dialects)[number]) =>
  Layer.unwrapScoped(Effect.map(freshDatabase(dialect), ({ env }) =>
    Layer.mergeAll(UsersRepo.Default, WorkspacesRepo.Default, MembershipsRepo.Default).pipe(
      Layer.provideMerge(Database.Default),
      Layer.provideMerge(Layer.effectDiscard(runMigrations)),
      Layer.provideMerge(SqlLive),
      Layer.provideMerge(GlossConfig.fromRecord(env))
    )))

const userRow = (name: string): UserRow => {
  const at = new Date("2024-09-02T11:41:57.561Z")
  return {
    id: UserId.make(crypto.randomUUID()),
    first_name: name,
    last_name: null,
    username: name,
    role: "annotator",
    api_key: `key-${name}`,
    password_hash: "$2b$10$hash",
    inserted_at: at,
    updated_at: at
  }
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(DatabaseTest(dialect), { excludeTestServices: true, timeout: 60_000 })("repositories", (it) => {
      it.effect("migrations are idempotent: a second run applies nothing", () =>
        Effect.gen(function*() {
          expect(yield* runMigrations).toEqual([])
        }))

      it.effect("a user row round-trips exactly: timestamps, nulls, role", () =>
        Effect.gen(function*() {
          const repo = yield* UsersRepo
          const row = userRow("roundtrip")
          const inserted = yield* repo.insert(row)
          expect(inserted).toEqual(Option.some(row))
          expect(yield* repo.findById(row.id)).toEqual(Option.some(row))
          expect(yield* repo.findByApiKey("key-roundtrip")).toEqual(Option.some(row))
          expect(yield* repo.findByUsername("nobody")).toEqual(Option.none())
        }))

      it.effect("an insert that collides on username, id or API key returns None instead of failing", () =>
        Effect.gen(function*() {
          const repo = yield* UsersRepo
          const row = userRow("collide")
          yield* repo.insert(row)
          expect(yield* repo.insert({ ...userRow("other"), username: "collide" })).toEqual(Option.none())
          expect(yield* repo.insert({ ...userRow("other2"), id: row.id })).toEqual(Option.none())
          expect(yield* repo.insert({ ...userRow("other3"), api_key: row.api_key })).toEqual(Option.none())
        }))

      it.effect("a failed transaction leaves nothing behind", () =>
        Effect.gen(function*() {
          const repo = yield* UsersRepo
          const db = yield* Database
          const row = userRow("rolledback")
          const exit = yield* db.transaction(repo.insert(row).pipe(Effect.zipRight(Effect.fail("boom" as const)))).pipe(
            Effect.exit
          )
          expect(Exit.isFailure(exit)).toBe(true)
          expect(yield* repo.findById(row.id)).toEqual(Option.none())
        }))

      it.effect("deleting a workspace cascades to its memberships; deleting a user too", () =>
        Effect.gen(function*() {
          const users = yield* UsersRepo
          const workspaces = yield* WorkspacesRepo
          const memberships = yield* MembershipsRepo
          const sql = yield* SqlClient.SqlClient
          const at = new Date()
          const user = userRow("member")
          yield* users.insert(user)
          const workspace = { id: WorkspaceId.make(crypto.randomUUID()), name: "cascade", inserted_at: at, updated_at: at }
          yield* workspaces.insert(workspace)
          yield* memberships.addMember({ id: crypto.randomUUID(), workspace_id: workspace.id, user_id: user.id, inserted_at: at, updated_at: at })
          expect((yield* users.listByWorkspace(workspace.id)).map((u) => u.id)).toEqual([user.id])
          yield* workspaces.delete(workspace.id)
          const left = yield* sql<{ n: number | string }>`select count(*) as n from workspaces_users where user_id = ${user.id}`
          expect(Number(left[0]?.n)).toBe(0)
        }))
    })
  })
}
