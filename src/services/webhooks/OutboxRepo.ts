/**
 * The outbox: rows written in the transaction of the change they follow from, moved to the job queue by the
 * dispatcher. A claim is one statement that marks a batch dispatched; PostgreSQL's `skip locked` lets dispatchers
 * of several processes take different rows, and SQLite's single writer serialises them.
 */
import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DbInt, DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"
import { insertionOrder } from "../database/ddl.js"

const Queue = Schema.Literal("high", "default")

export const OutboxRow = Schema.Struct({
  id: Schema.String,
  /** `event`: `name` is the event type, `payload` its `data`. `job`: a job to enqueue on `queue`. */
  kind: Schema.Literal("event", "job"),
  name: Schema.String,
  queue: Schema.NullOr(Queue),
  /** JSON text. */
  payload: Schema.String,
  occurred_at: DbTimestamp,
  dispatched_at: Schema.NullOr(DbTimestamp)
})
export type OutboxRow = typeof OutboxRow.Type

export const ClaimedRow = Schema.Struct({ ...OutboxRow.fields, seq: DbInt })
export type ClaimedRow = typeof ClaimedRow.Type

/** Rows per insert statement: far below both dialects' limits on bound parameters. */
const INSERT_CHUNK = 500

export class OutboxRepo extends Effect.Service<OutboxRepo>()("Gloss/OutboxRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database
    const order = sql.literal(insertionOrder(sql))
    const skipLocked = sql.literal(sql.onDialectOrElse({ pg: () => "for update skip locked", orElse: () => "" }))

    const insert = SqlSchema.void({
      Request: Schema.Array(OutboxRow),
      execute: (rows) => sql`insert into outbox ${sql.insert(rows)}`
    })
    const pending = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ id: Schema.String }),
      execute: () => sql`select id from outbox where dispatched_at is null limit 1`
    })
    const claim = SqlSchema.findAll({
      Request: Schema.Struct({ limit: Schema.Int, at: DbTimestamp }),
      Result: ClaimedRow,
      execute: ({ at, limit }) =>
        sql`update outbox set dispatched_at = ${at}
            where id in (select id from outbox where dispatched_at is null order by ${order} limit ${limit} ${skipLocked})
            returning ${order} as seq, id, kind, name, queue, payload, occurred_at, dispatched_at`
    })
    const purge = SqlSchema.void({
      Request: DbTimestamp,
      execute: (before) => sql`delete from outbox where dispatched_at is not null and dispatched_at < ${before}`
    })
    /** One row, for tests and tools. */
    const findById = SqlSchema.findOne({
      Request: Schema.String,
      Result: OutboxRow,
      execute: (id) => sql`select id, kind, name, queue, payload, occurred_at, dispatched_at from outbox where id = ${id}`
    })

    return {
      insert: (rows: ReadonlyArray<OutboxRow>) =>
        Effect.forEach(
          Array.from({ length: Math.ceil(rows.length / INSERT_CHUNK) }, (_, i) => rows.slice(i * INSERT_CHUNK, (i + 1) * INSERT_CHUNK)),
          (chunk) => insert(chunk),
          { discard: true }
        ).pipe(Effect.orDie),
      hasPending: pending().pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      /** Marks up to `limit` undispatched rows dispatched at `at` and returns them, oldest first. */
      claim: (limit: number, at: Date) =>
        claim({ limit, at }).pipe(Effect.map((rows) => [...rows].sort((a, b) => a.seq - b.seq)), Effect.orDie),
      purge: (before: Date) => purge(before).pipe(Effect.orDie),
      findById: (id: string) => findById(id).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
