import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { UserId, WorkspaceId } from "../../domain/Ids.js"
import { DbInt, DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"

export const WorkspaceRow = Schema.Struct({
  id: WorkspaceId,
  name: Schema.String,
  inserted_at: DbTimestamp,
  updated_at: DbTimestamp
})
export type WorkspaceRow = typeof WorkspaceRow.Type

export class WorkspacesRepo extends Effect.Service<WorkspacesRepo>()("Gloss/WorkspacesRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    const findById = SqlSchema.findOne({
      Request: WorkspaceId,
      Result: WorkspaceRow,
      execute: (id) => sql`select * from workspaces where id = ${id}`
    })
    const findByName = SqlSchema.findOne({
      Request: Schema.String,
      Result: WorkspaceRow,
      execute: (name) => sql`select * from workspaces where name = ${name}`
    })
    const list = SqlSchema.findAll({
      Request: Schema.Void,
      Result: WorkspaceRow,
      execute: () => sql`select * from workspaces order by inserted_at, id`
    })
    const listByMember = SqlSchema.findAll({
      Request: UserId,
      Result: WorkspaceRow,
      execute: (userId) =>
        sql`select w.* from workspaces w join workspaces_users wu on wu.workspace_id = w.id
            where wu.user_id = ${userId} order by w.inserted_at, w.id`
    })
    /** `None` when the id or the name is taken. */
    const insert = SqlSchema.findOne({
      Request: WorkspaceRow,
      Result: WorkspaceRow,
      execute: (row) => sql`insert into workspaces ${sql.insert(row)} on conflict do nothing returning *`
    })
    const remove = SqlSchema.void({
      Request: WorkspaceId,
      execute: (id) => sql`delete from workspaces where id = ${id}`
    })
    /** Whether any dataset lives in the workspace (it cannot be deleted then). */
    const countDatasets = SqlSchema.single({
      Request: WorkspaceId,
      Result: Schema.Struct({ n: DbInt }),
      execute: (id) => sql`select count(*) as n from datasets where workspace_id = ${id}`
    })

    return {
      findById: (id: WorkspaceId) => findById(id).pipe(Effect.orDie),
      findByName: (name: string) => findByName(name).pipe(Effect.orDie),
      list: list().pipe(Effect.orDie),
      listByMember: (userId: UserId) => listByMember(userId).pipe(Effect.orDie),
      insert: (row: WorkspaceRow) => insert(row).pipe(Effect.orDie),
      delete: (id: WorkspaceId) => remove(id).pipe(Effect.orDie),
      countDatasets: (id: WorkspaceId) => countDatasets(id).pipe(Effect.map(({ n }) => n), Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
