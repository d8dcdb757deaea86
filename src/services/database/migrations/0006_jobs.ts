import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { columnTypes } from "../ddl.js"

/**
 * The embedded job queue (used when GLOSS_REDIS_URL is unset). Scheduling times are epoch milliseconds, compared as
 * integers on both dialects; `claim_token` identifies the current claim so a worker whose lease was taken over
 * cannot overwrite the new owner's result.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const t = columnTypes(sql)
  yield* sql.unsafe(`
    create table jobs (
      id text primary key,
      ${t.sequence}
      queue text not null check (queue in ('high', 'default')),
      name text not null,
      payload ${t.json} not null,
      status text not null check (status in ('queued', 'started', 'scheduled', 'finished', 'failed')),
      attempts_made integer not null default 0,
      max_attempts integer not null,
      backoff_ms ${t.bigint} not null,
      available_at ${t.bigint} not null,
      claim_token text,
      locked_until ${t.bigint},
      last_error text,
      inserted_at ${t.timestamp} not null,
      updated_at ${t.timestamp} not null,
      finished_at ${t.timestamp}
    )`)
  // What a claim scans: waiting jobs by due time, and running ones by lease expiry (crashed workers).
  yield* sql.unsafe(`create index jobs_waiting on jobs (available_at) where status in ('queued', 'scheduled')`)
  yield* sql.unsafe(`create index jobs_running on jobs (locked_until) where status = 'started'`)
  yield* sql.unsafe(`create index jobs_done on jobs (finished_at) where status in ('finished', 'failed')`)
})
