/**
 * The `queue_settings` and `queue_quotas` tables (migration 0018_assignment): how a dataset's queues are made, and
 * the users with a quota of their own. A dataset without a row has the defaults (`DEFAULT_QUEUE_SETTINGS`).
 */
import { SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AssignedMode, QueueOrder } from "../../domain/Assignment.js"
import { DatasetId, UserId } from "../../domain/Ids.js"
import { DbBoolean, DbInt, DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"

export const SettingsRow = Schema.Struct({
  dataset_id: DatasetId,
  assigned: AssignedMode,
  queue_order: QueueOrder,
  lease_minutes: DbInt,
  blind: DbBoolean,
  quota: Schema.NullOr(DbInt),
  updated_at: DbTimestamp
})
export type SettingsRow = typeof SettingsRow.Type

/** What a dataset nobody has configured gets: Argilla's behaviour, plus 30-minute leases on what the queue hands out. */
export const DEFAULT_QUEUE_SETTINGS = {
  assigned: "first",
  queue_order: "inserted",
  lease_minutes: 30,
  blind: false,
  quota: null
} as const satisfies Omit<SettingsRow, "dataset_id" | "updated_at">

export type QueueSettingsValues = Omit<SettingsRow, "dataset_id" | "updated_at">

const QuotaRow = Schema.Struct({ dataset_id: DatasetId, user_id: UserId, quota: DbInt })
type QuotaRow = typeof QuotaRow.Type

export class QueueSettingsRepo extends Effect.Service<QueueSettingsRepo>()("Gloss/QueueSettingsRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    const find = SqlSchema.findOne({
      Request: DatasetId,
      Result: SettingsRow,
      execute: (id) => sql`select * from queue_settings where dataset_id = ${id}`
    })
    const upsert = SqlSchema.void({
      Request: SettingsRow,
      execute: (row) =>
        sql`insert into queue_settings ${sql.insert(row)} on conflict (dataset_id) do update set
          assigned = excluded.assigned, queue_order = excluded.queue_order, lease_minutes = excluded.lease_minutes,
          blind = excluded.blind, quota = excluded.quota, updated_at = excluded.updated_at`
    })
    const quotas = SqlSchema.findAll({
      Request: DatasetId,
      Result: QuotaRow,
      execute: (id) => sql`select dataset_id, user_id, quota from queue_quotas where dataset_id = ${id}`
    })
    const setQuota = SqlSchema.void({
      Request: QuotaRow,
      execute: (row) =>
        sql`insert into queue_quotas ${sql.insert(row)} on conflict (dataset_id, user_id) do update set quota = excluded.quota`
    })
    const clearQuota = SqlSchema.void({
      Request: Schema.Struct({ dataset_id: DatasetId, user_id: UserId }),
      execute: ({ dataset_id, user_id }) => sql`delete from queue_quotas where dataset_id = ${dataset_id} and user_id = ${user_id}`
    })

    /** The dataset's settings, the defaults where it has none. */
    const of = (id: DatasetId): Effect.Effect<QueueSettingsValues> =>
      Effect.map(find(id).pipe(Effect.orDie), Option.getOrElse((): QueueSettingsValues => DEFAULT_QUEUE_SETTINGS))

    return {
      of,
      /** Whether the dataset has a settings row (blind mode is read on every record read: one indexed lookup). */
      find: (id: DatasetId) => find(id).pipe(Effect.orDie),
      upsert: (row: SettingsRow) => upsert(row).pipe(Effect.orDie),
      /** Each user's own quota in the dataset. */
      quotas: (id: DatasetId) =>
        Effect.map(quotas(id), (rows) => new Map(rows.map((row) => [row.user_id as string, row.quota]))).pipe(Effect.orDie),
      setQuota: (row: QuotaRow) => setQuota(row).pipe(Effect.orDie),
      clearQuota: (datasetId: DatasetId, userId: UserId) =>
        clearQuota({ dataset_id: datasetId, user_id: userId }).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
