import { SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { DatasetStatus } from "../../domain/Dataset.js"
import { DatasetId, UserId, WorkspaceId } from "../../domain/Ids.js"
import { Database } from "../database/Database.js"
import { insertionOrder } from "../database/ddl.js"
import { rememberedRows } from "../../codecs/plainRows.js"
import { DatasetRow } from "./rows.js"

const Filter = Schema.Struct({
  /** Only datasets in workspaces this user belongs to (None: every dataset, for owners). */
  memberId: Schema.NullOr(UserId),
  workspaceId: Schema.NullOr(WorkspaceId),
  name: Schema.NullOr(Schema.String),
  status: Schema.NullOr(DatasetStatus)
})

export class DatasetsRepo extends Effect.Service<DatasetsRepo>()("Gloss/DatasetsRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database
    const order = sql.unsafe(insertionOrder(sql))

    // Every request about a dataset reads it (its access check): a row read again unchanged is not decoded again
    // (decoding through the schema is main-thread time on every search).
    const decodeDataset = rememberedRows(DatasetRow)
    const findById = (id: DatasetId) =>
      Effect.map(
        Effect.flatMap(sql`select * from datasets where id = ${id}`, (rows) => decodeDataset(id, rows)),
        (rows) => Option.fromNullable(rows[0])
      )
    const list = SqlSchema.findAll({
      Request: Filter,
      Result: DatasetRow,
      execute: (f) =>
        sql`select * from datasets where ${
          sql.and([
            ...(f.memberId === null ? [] : [
              sql`workspace_id in (select workspace_id from workspaces_users where user_id = ${f.memberId})`
            ]),
            ...(f.workspaceId === null ? [] : [sql`workspace_id = ${f.workspaceId}`]),
            ...(f.name === null ? [] : [sql`name = ${f.name}`]),
            ...(f.status === null ? [] : [sql`status = ${f.status}`])
          ])
        } order by ${order}`
    })
    /** `None` when the workspace already has a dataset with that name (or the id is taken). */
    const insert = SqlSchema.findOne({
      Request: DatasetRow,
      Result: DatasetRow,
      execute: (row) => sql`insert into datasets ${sql.insert(row)} on conflict do nothing returning *`
    })
    const replace = SqlSchema.findOne({
      Request: DatasetRow,
      Result: DatasetRow,
      execute: (row) => sql`update datasets set ${sql.update(row, ["id"])} where id = ${row.id} returning *`
    })
    const remove = SqlSchema.void({ Request: DatasetId, execute: (id) => sql`delete from datasets where id = ${id}` })

    /** Someone answered: the dataset's `last_activity_at` moves, its `updated_at` does not. */
    const touchActivity = SqlSchema.void({
      Request: Schema.Struct({ id: DatasetId, at: Schema.String }),
      execute: ({ at, id }) => sql`update datasets set last_activity_at = ${at} where id = ${id}`
    })

    return {
      /** The statement `findById` reads, for reading it beside others (`Database.readTogether`); the id must be a UUID. */
      findSql: (id: DatasetId) => `select * from datasets where id = '${id}'`,
      /** The rows that statement read, decoded as `findById` decodes them. */
      decodeFound: (id: DatasetId, rows: ReadonlyArray<unknown>) =>
        Effect.map(decodeDataset(id, rows), (found) => Option.fromNullable(found[0])).pipe(Effect.orDie),
      touchActivity: (id: DatasetId, at: Date) => touchActivity({ id, at: at.toISOString() }).pipe(Effect.orDie),
      findById: (id: DatasetId) => findById(id).pipe(Effect.orDie),
      list: (filter: typeof Filter.Type) => list(filter).pipe(Effect.orDie),
      insert: (row: DatasetRow) => insert(row).pipe(Effect.orDie),
      replace: (row: DatasetRow) => replace(row).pipe(Effect.orDie),
      delete: (id: DatasetId) => remove(id).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
