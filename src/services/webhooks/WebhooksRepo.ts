import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { WebhookId } from "../../domain/Ids.js"
import { WebhookEventType } from "../../domain/Webhook.js"
import { DbBoolean, DbInt, DbJson, DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"
import { forUpdate, insertionOrder } from "../database/ddl.js"

export const WebhookRow = Schema.Struct({
  id: WebhookId,
  url: Schema.String,
  secret: Schema.String,
  events: DbJson(Schema.Array(WebhookEventType)),
  enabled: DbBoolean,
  description: Schema.NullOr(Schema.String),
  inserted_at: DbTimestamp,
  updated_at: DbTimestamp,
  // Health (see `Health.ts`): failures in a row, no delivery before `retry_at`, a probe under way until
  // `probing_until`, the latest failure, why disabled.
  consecutive_failures: DbInt,
  retry_at: Schema.NullOr(DbTimestamp),
  probing_until: Schema.NullOr(DbTimestamp),
  last_failure_at: Schema.NullOr(DbTimestamp),
  last_error: Schema.NullOr(Schema.String),
  disabled_reason: Schema.NullOr(Schema.String)
})
export type WebhookRow = typeof WebhookRow.Type

/** A webhook's health as one failure left it. */
export interface HealthAfterFailure {
  readonly failures: number
  /** No delivery to the webhook before then (null once it is disabled). */
  readonly retryAt: Date | null
  readonly disabled: boolean
}

export class WebhooksRepo extends Effect.Service<WebhooksRepo>()("Gloss/WebhooksRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database
    const order = sql.literal(insertionOrder(sql))

    const list = SqlSchema.findAll({
      Request: Schema.Void,
      Result: WebhookRow,
      execute: () => sql`select * from webhooks order by ${order}`
    })
    const listEnabled = SqlSchema.findAll({
      Request: Schema.Void,
      Result: WebhookRow,
      execute: () => sql`select * from webhooks where enabled order by ${order}`
    })
    const findById = SqlSchema.findOne({
      Request: WebhookId,
      Result: WebhookRow,
      execute: (id) => sql`select * from webhooks where id = ${id}`
    })
    const count = SqlSchema.single({
      Request: Schema.Void,
      Result: Schema.Struct({ n: DbInt }),
      execute: () => sql`select count(*) as n from webhooks`
    })
    const subscribed = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ events: DbJson(Schema.Array(Schema.String)) }),
      execute: () => sql`select events from webhooks where enabled`
    })
    const insert = SqlSchema.void({ Request: WebhookRow, execute: (row) => sql`insert into webhooks ${sql.insert(row)}` })
    // The latest failure is the delivery side's to write: an edit racing a failure keeps the failure's record.
    const replace = SqlSchema.void({
      Request: WebhookRow,
      execute: (row) =>
        sql`update webhooks set ${
          sql.update(row, ["id", "secret", "inserted_at", "last_failure_at", "last_error"])
        } where id = ${row.id}`
    })
    // Half-open: of the deliveries that find the back-off over, the one that moves `retry_at` on sends (the probe).
    const claimProbe = SqlSchema.findAll({
      Request: Schema.Struct({ id: WebhookId, at: DbTimestamp, until: DbTimestamp }),
      Result: Schema.Struct({ id: WebhookId }),
      execute: ({ at, id, until }) =>
        sql`update webhooks set probing_until = ${until}
            where id = ${id} and enabled and retry_at <= ${at} and (probing_until is null or probing_until <= ${at})
            returning id`
    })
    const recovered = SqlSchema.void({
      Request: WebhookId,
      execute: (id) =>
        sql`update webhooks set consecutive_failures = 0, retry_at = null, probing_until = null
            where id = ${id} and consecutive_failures > 0`
    })
    const lockRow = SqlSchema.findOne({
      Request: WebhookId,
      Result: WebhookRow,
      execute: (id) => sql`select * from webhooks where id = ${id} ${sql.literal(forUpdate(sql))}`
    })
    const Failure = Schema.Struct({
      id: WebhookId,
      consecutive_failures: Schema.Number,
      retry_at: Schema.NullOr(DbTimestamp),
      probing_until: Schema.Null,
      last_failure_at: DbTimestamp,
      last_error: Schema.String,
      enabled: DbBoolean,
      disabled_reason: Schema.NullOr(Schema.String)
    })
    const failed = SqlSchema.void({
      Request: Failure,
      execute: (row) => sql`update webhooks set ${sql.update(row, ["id"])} where id = ${row.id}`
    })
    const remove = SqlSchema.void({ Request: WebhookId, execute: (id) => sql`delete from webhooks where id = ${id}` })
    // Creating webhooks is rare: serialising it is how concurrent creations respect the limit of 10 (SQLite has
    // a single writer anyway).
    const lockForCreate = sql.onDialectOrElse({
      pg: () => sql`lock table webhooks in share row exclusive mode`,
      orElse: () => sql`select 1`
    })

    return {
      list: list().pipe(Effect.orDie),
      listEnabled: listEnabled().pipe(Effect.orDie),
      findById: (id: WebhookId) => findById(id).pipe(Effect.orDie),
      count: count().pipe(Effect.map(({ n }) => n), Effect.orDie),
      /** Every event some enabled webhook wants. */
      subscribedEvents: subscribed().pipe(
        Effect.map((rows) => new Set(rows.flatMap((row) => row.events))),
        Effect.orDie
      ),
      insert: (row: WebhookRow) => insert(row).pipe(Effect.orDie),
      replace: (row: WebhookRow) => replace(row).pipe(Effect.orDie),
      delete: (id: WebhookId) => remove(id).pipe(Effect.orDie),
      lockForCreate: Effect.orDie(lockForCreate),
      /** Whether this caller may send the one delivery that tests a failing receiver (and holds it `until`). */
      claimProbe: (id: WebhookId, at: Date, until: Date) =>
        claimProbe({ id, at, until }).pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      /** A delivery got through: the failure count starts again. */
      recovered: (id: WebhookId) => recovered(id).pipe(Effect.orDie),
      /** The webhook, locked for the rest of the transaction on PostgreSQL (SQLite has a single writer). */
      lockRow: (id: WebhookId) => lockRow(id).pipe(Effect.orDie),
      /** Stores what a failure did to the webhook's health. */
      failed: (row: typeof Failure.Type) => failed(row).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
