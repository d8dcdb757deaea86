import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

/**
 * Webhooks, and the outbox: work that must happen after a transaction commits (webhook events, follow-up jobs),
 * written in that same transaction and moved to the job queue by a dispatcher. `payload` is JSON kept as text (not
 * jsonb) so a delivery carries the keys in the order they were written.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`
    create table webhooks (
      id ${t.uuid} primary key,
      ${t.sequence}
      url text not null,
      secret text not null,
      events ${t.json} not null,
      enabled ${t.boolean} not null,
      description text,
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null
    )`)
  yield* sql.unsafe(`
    create table outbox (
      id ${t.uuid} primary key,
      ${t.sequence}
      kind text not null check (kind in ('event', 'job')),
      name text not null,
      queue text check (queue in ('high', 'default')),
      payload text not null,
      occurred_at ${t.timestamp} not null,
      dispatched_at ${t.timestamp}
    )`)
  // What dispatchers poll (small: rows leave it within moments) and what the purge scans.
  yield* sql.unsafe(`create index outbox_pending on outbox (occurred_at) where dispatched_at is null`)
  yield* sql.unsafe(`create index outbox_dispatched on outbox (dispatched_at) where dispatched_at is not null`)
})
