import { SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { UserId, WorkspaceId } from "../../domain/Ids.js"
import { Role } from "../../domain/User.js"
import { DbInt, DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"

export const UserRow = Schema.Struct({
  id: UserId,
  first_name: Schema.String,
  last_name: Schema.NullOr(Schema.String),
  username: Schema.String,
  role: Role,
  /** Hex SHA-256 of the API key, what a key is looked up by; the key itself is never stored (users/ApiKeys.ts). */
  api_key_digest: Schema.String,
  /** The key sealed for showing it to its user again; `null` if it could not be kept. */
  api_key_sealed: Schema.NullOr(Schema.String),
  password_hash: Schema.String,
  inserted_at: DbTimestamp,
  updated_at: DbTimestamp
})
export type UserRow = typeof UserRow.Type

export const UserChanges = UserRow.pipe(Schema.pick("first_name", "last_name", "username", "role", "password_hash", "updated_at"))

export class UsersRepo extends Effect.Service<UsersRepo>()("Gloss/UsersRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    const findById = SqlSchema.findOne({
      Request: UserId,
      Result: UserRow,
      execute: (id) => sql`select * from users where id = ${id}`
    })
    const findByUsername = SqlSchema.findOne({
      Request: Schema.String,
      Result: UserRow,
      execute: (username) => sql`select * from users where username = ${username}`
    })
    const findByApiKeyDigest = SqlSchema.findOne({
      Request: Schema.String,
      Result: UserRow,
      execute: (digest) => sql`select * from users where api_key_digest = ${digest}`
    })
    const list = SqlSchema.findAll({
      Request: Schema.Void,
      Result: UserRow,
      execute: () => sql`select * from users order by inserted_at, id`
    })
    /** Members of a workspace, in the order they joined it. */
    const listByWorkspace = SqlSchema.findAll({
      Request: WorkspaceId,
      Result: UserRow,
      execute: (workspaceId) =>
        sql`select u.* from users u join workspaces_users wu on wu.user_id = u.id
            where wu.workspace_id = ${workspaceId} order by wu.inserted_at, wu.id`
    })
    /** `None` when the id, username or API key is already taken (the caller finds out which). */
    const insert = SqlSchema.findOne({
      Request: UserRow,
      Result: UserRow,
      execute: (row) => sql`insert into users ${sql.insert(row)} on conflict do nothing returning *`
    })
    const update = (id: UserId, changes: typeof UserChanges.Type) =>
      SqlSchema.findOne({
        Request: UserChanges,
        Result: UserRow,
        execute: (encoded) => sql`update users set ${sql.update(encoded)} where id = ${id} returning *`
      })(changes)
    const remove = SqlSchema.void({
      Request: UserId,
      execute: (id) => sql`delete from users where id = ${id}`
    })

    /**
     * The owners' ids, locked (on PostgreSQL) until the transaction ends: two owners deleting or demoting each other
     * at once are then taken one after the other, and the second sees that it would remove the last owner. SQLite
     * has a single writer anyway.
     */
    const lockOwners = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ id: UserId }),
      execute: () =>
        sql`select id from users where role = 'owner' ${sql.literal(sql.onDialectOrElse({ pg: () => "for update", orElse: () => "" }))}`
    })

    const ownerCount = SqlSchema.single({
      Request: Schema.Void,
      // A count is a bigint on PostgreSQL, which its client returns as text.
      Result: Schema.Struct({ n: DbInt }),
      execute: () => sql`select count(*) as n from users where role = 'owner'`
    })

    const existing = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: Schema.Struct({ id: UserId }),
      execute: (ids) => sql`select id from users where ${sql.in("id", ids)}`
    })

    return {
      /** Which of these user ids exist. */
      existingIds: (ids: ReadonlyArray<string>) =>
        ids.length === 0
          ? Effect.succeed(new Set<string>())
          : existing(ids).pipe(Effect.map((rows) => new Set<string>(rows.map((row) => row.id))), Effect.orDie),
      findById: (id: UserId) => findById(id).pipe(Effect.orDie),
      findByUsername: (username: string) => findByUsername(username).pipe(Effect.orDie),
      findByApiKeyDigest: (digest: string) => findByApiKeyDigest(digest).pipe(Effect.orDie),
      list: list().pipe(Effect.orDie),
      listByWorkspace: (workspaceId: WorkspaceId) => listByWorkspace(workspaceId).pipe(Effect.orDie),
      insert: (row: UserRow) => insert(row).pipe(Effect.orDie),
      update: (id: UserId, changes: typeof UserChanges.Type) => update(id, changes).pipe(Effect.orDie),
      delete: (id: UserId) => remove(id).pipe(Effect.orDie),
      lockOwners: lockOwners().pipe(Effect.map((rows) => rows.map((row) => row.id)), Effect.orDie),
      hasOwner: ownerCount().pipe(Effect.map(({ n }) => n > 0), Effect.orDie),
      usernameTaken: (username: string) => findByUsername(username).pipe(Effect.map(Option.isSome), Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
