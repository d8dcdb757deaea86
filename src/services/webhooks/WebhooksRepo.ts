import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { WebhookId } from "../../domain/Ids.js"
import { WebhookEventType } from "../../domain/Webhook.js"
import { DbBoolean, DbInt, DbJson, DbTimestamp } from "../database/columns.js"
import { Database } from "../database/Database.js"
import { insertionOrder } from "../database/ddl.js"

export const WebhookRow = Schema.Struct({
  id: WebhookId,
  url: Schema.String,
  secret: Schema.String,
  events: DbJson(Schema.Array(WebhookEventType)),
  enabled: DbBoolean,
  description: Schema.NullOr(Schema.String),
  inserted_at: DbTimestamp,
  updated_at: DbTimestamp
})
export type WebhookRow = typeof WebhookRow.Type

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
    const replace = SqlSchema.void({
      Request: WebhookRow,
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
      lockForCreate: Effect.orDie(lockForCreate)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
