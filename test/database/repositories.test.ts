import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Exit, Layer, Option } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { DatasetId, FieldId, MetadataPropertyId, UserId, WorkspaceId } from "../../src/domain/Ids.js"
import { Database, SqlLive } from "../../src/services/database/Database.js"
import { runMigrations } from "../../src/services/database/migrations.js"
import { DatasetSchemas } from "../../src/services/datasets/DatasetSchemas.js"
import { DatasetsRepo } from "../../src/services/datasets/DatasetsRepo.js"
import { SettingsRepo } from "../../src/services/datasets/SettingsRepo.js"
import { MembershipsRepo } from "../../src/services/MembershipsRepo.js"
import { type UserRow, UsersRepo } from "../../src/services/users/UsersRepo.js"
import { WorkspacesRepo } from "../../src/services/workspaces/WorkspacesRepo.js"
import { dialects, freshDatabase } from "../support/databases.js"

const DatabaseTest = (dialect: (typeof dialects)[number]) =>
  Layer.unwrapScoped(Effect.map(freshDatabase(dialect), ({ env }) =>
    Layer.mergeAll(UsersRepo.Default, WorkspacesRepo.Default, MembershipsRepo.Default, DatasetSchemas.Default, DatasetsRepo.Default, SettingsRepo.Default).pipe(
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
    api_key_digest: `digest-${name}`,
    api_key_sealed: null,
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
          expect(yield* repo.findByApiKeyDigest("digest-roundtrip")).toEqual(Option.some(row))
          expect(yield* repo.findByUsername("nobody")).toEqual(Option.none())
        }))

      it.effect("an insert that collides on username, id or API key returns None instead of failing", () =>
        Effect.gen(function*() {
          const repo = yield* UsersRepo
          const row = userRow("collide")
          yield* repo.insert(row)
          expect(yield* repo.insert({ ...userRow("other"), username: "collide" })).toEqual(Option.none())
          expect(yield* repo.insert({ ...userRow("other2"), id: row.id })).toEqual(Option.none())
          expect(yield* repo.insert({ ...userRow("other3"), api_key_digest: row.api_key_digest })).toEqual(Option.none())
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

      it.effect("readTogether gives each statement's rows on PostgreSQL, and None on SQLite", () =>
        Effect.gen(function*() {
          const db = yield* Database
          const together = yield* db.readTogether(["select 1 as a union all select 2", "select 'x' as b where 1 = 0", "select 3 as c"])
          const one = yield* db.readTogether(["select 4 as d"])
          if (dialect === "sqlite") {
            expect(together).toEqual(Option.none())
            expect(one).toEqual(Option.none())
          } else {
            expect(together).toEqual(Option.some([[{ a: 1 }, { a: 2 }], [], [{ c: 3 }]]))
            expect(one).toEqual(Option.some([[{ d: 4 }]]))
          }
        }))

      it.effect("a dataset and its settings read together are what the separate reads give", () =>
        Effect.gen(function*() {
          const at = new Date("2024-09-02T11:41:57.561Z")
          const workspace = { id: WorkspaceId.make(crypto.randomUUID()), name: "together", inserted_at: at, updated_at: at }
          yield* (yield* WorkspacesRepo).insert(workspace)
          const dataset = {
            id: DatasetId.make(crypto.randomUUID()),
            name: "together",
            guidelines: null,
            allow_extra_metadata: true,
            status: "ready" as const,
            distribution: { strategy: "overlap" as const, min_submitted: 1 },
            metadata: { source: "test" },
            workspace_id: workspace.id,
            last_activity_at: at,
            inserted_at: at,
            updated_at: at
          }
          yield* (yield* DatasetsRepo).insert(dataset)
          const settings = yield* SettingsRepo
          const rest = { dataset_id: dataset.id, inserted_at: at, updated_at: at }
          for (const name of ["text", "notes"]) {
            yield* settings.fields.insert({ id: FieldId.make(crypto.randomUUID()), name, title: name, required: name === "text", settings: { type: "text", use_markdown: false }, ...rest })
          }
          yield* settings.metadataProperties.insert({
            id: MetadataPropertyId.make(crypto.randomUUID()),
            name: "stars",
            title: "Stars",
            settings: { type: "integer", min: 1, max: 5 },
            visible_for_annotators: true,
            ...rest
          })
          const schemas = yield* DatasetSchemas
          const read = yield* schemas.withDataset(dataset.id)
          expect(read.dataset).toEqual(Option.some(dataset))
          expect(read.schema).toEqual(yield* schemas.indexSchema(dataset.id))
          expect(read.schema.fields.map((field) => field.name)).toEqual(["text", "notes"])
          expect(read.schema.metadataProperties.map((property) => property.name)).toEqual(["stars"])
          // Read again (the remembered decoding), and for a dataset that does not exist.
          expect(yield* schemas.withDataset(dataset.id)).toEqual(read)
          const missing = yield* schemas.withDataset(DatasetId.make(crypto.randomUUID()))
          expect(missing.dataset).toEqual(Option.none())
          expect([missing.schema.fields, missing.schema.questions, missing.schema.metadataProperties, missing.schema.vectorSettings])
            .toEqual([[], [], [], []])
        }))
    })
  })
}
