/**
 * The embedded queue's statements. A claim is one atomic statement on both dialects: PostgreSQL locks the chosen
 * row with `for update skip locked` (concurrent claimers pass over it); SQLite runs the whole update under its
 * single writer lock. Every later write is guarded by the claim token, so a worker that lost its lease cannot
 * overwrite what the job's new owner records.
 */
import { SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { JobProgress, JobStatus } from "../../domain/Job.js"
import { DbInt, DbJson, DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"
import { insertionOrder } from "../database/ddl.js"

export const NewJobRow = Schema.Struct({
  id: Schema.String,
  queue: Schema.Literal("high", "default"),
  name: Schema.String,
  payload: DbJson(Schema.Unknown),
  status: Schema.Literal("queued"),
  max_attempts: Schema.Int,
  backoff_ms: Schema.Int,
  available_at: Schema.Int,
  started_by: Schema.NullOr(Schema.String),
  inserted_at: DbTimestamp,
  updated_at: DbTimestamp
})

export const ClaimedJob = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  payload: DbJson(Schema.Unknown),
  attempts_made: DbInt,
  max_attempts: DbInt,
  backoff_ms: DbInt,
  claim_token: Schema.String
})
export type ClaimedJob = typeof ClaimedJob.Type

const Claim = Schema.Struct({ now: Schema.Number, until: Schema.Number, token: Schema.String, at: DbTimestamp })
const Held = Schema.Struct({ id: Schema.String, token: Schema.String, at: DbTimestamp })
const Failure = Schema.Struct({ ...Held.fields, error: Schema.String })
const Retry = Schema.Struct({ ...Failure.fields, availableAt: Schema.Number })
const Progress = Schema.Struct({ id: Schema.String, token: Schema.String, progress: DbJson(JobProgress) })
const JobInfoRow = Schema.Struct({
  status: JobStatus,
  progress: Schema.NullOr(DbJson(JobProgress)),
  started_by: Schema.NullOr(Schema.String)
})
const Purge = Schema.Struct({ finishedBefore: DbTimestamp, failedBefore: DbTimestamp })

export class SqlJobsRepo extends Effect.Service<SqlJobsRepo>()("Gloss/SqlJobsRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database
    const order = sql.literal(insertionOrder(sql))
    const skipLocked = sql.literal(sql.onDialectOrElse({ pg: () => "for update skip locked", orElse: () => "" }))

    const insert = SqlSchema.void({ Request: NewJobRow, execute: (row) => sql`insert into jobs ${sql.insert(row)}` })
    const status = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ status: JobStatus }),
      execute: (id) => sql`select status from jobs where id = ${id}`
    })
    const lookup = SqlSchema.findOne({
      Request: Schema.String,
      Result: JobInfoRow,
      execute: (id) => sql`select status, progress, started_by from jobs where id = ${id}`
    })
    // Only the current claim's worker reports: a worker that lost its lease cannot overwrite the new owner's.
    const progress = SqlSchema.void({
      Request: Progress,
      execute: ({ id, progress, token }) =>
        sql`update jobs set progress = ${progress} where id = ${id} and claim_token = ${token}`
    })
    // `high` first, then insertion order. A job whose lease expired is claimable again: its worker is gone.
    const claim = SqlSchema.findOne({
      Request: Claim,
      Result: ClaimedJob,
      execute: ({ at, now, token, until }) =>
        sql`update jobs set status = 'started', attempts_made = attempts_made + 1, claim_token = ${token},
              locked_until = ${until}, updated_at = ${at}
            where id = (
              select id from jobs
              where (status in ('queued', 'scheduled') and available_at <= ${now})
                 or (status = 'started' and locked_until < ${now})
              order by case when queue = 'high' then 0 else 1 end, ${order}
              limit 1 ${skipLocked})
            returning id, name, payload, attempts_made, max_attempts, backoff_ms, claim_token`
    })
    const extend = SqlSchema.void({
      Request: Schema.Struct({ id: Schema.String, token: Schema.String, until: Schema.Number }),
      execute: ({ id, token, until }) =>
        sql`update jobs set locked_until = ${until} where id = ${id} and claim_token = ${token}`
    })
    const finish = SqlSchema.void({
      Request: Held,
      execute: ({ at, id, token }) =>
        sql`update jobs set status = 'finished', claim_token = null, locked_until = null, finished_at = ${at},
              updated_at = ${at} where id = ${id} and claim_token = ${token}`
    })
    const retry = SqlSchema.void({
      Request: Retry,
      execute: ({ at, availableAt, error, id, token }) =>
        sql`update jobs set status = 'scheduled', claim_token = null, locked_until = null, last_error = ${error},
              available_at = ${availableAt}, updated_at = ${at} where id = ${id} and claim_token = ${token}`
    })
    const fail = SqlSchema.void({
      Request: Failure,
      execute: ({ at, error, id, token }) =>
        sql`update jobs set status = 'failed', claim_token = null, locked_until = null, last_error = ${error},
              finished_at = ${at}, updated_at = ${at} where id = ${id} and claim_token = ${token}`
    })
    // Shutdown interrupted the attempt: hand the job back without counting it.
    const release = SqlSchema.void({
      Request: Held,
      execute: ({ at, id, token }) =>
        sql`update jobs set status = 'queued', attempts_made = attempts_made - 1, claim_token = null,
              locked_until = null, updated_at = ${at} where id = ${id} and claim_token = ${token}`
    })
    const purge = SqlSchema.void({
      Request: Purge,
      execute: ({ failedBefore, finishedBefore }) =>
        sql`delete from jobs where (status = 'finished' and finished_at < ${finishedBefore})
              or (status = 'failed' and finished_at < ${failedBefore})`
    })

    return {
      insert: (row: typeof NewJobRow.Type) => insert(row).pipe(Effect.orDie),
      status: (id: string) => status(id).pipe(Effect.map(Option.map((row) => row.status)), Effect.orDie),
      lookup: (id: string) =>
        lookup(id).pipe(
          Effect.map(Option.map((row) => ({
            status: row.status,
            progress: Option.fromNullable(row.progress),
            startedBy: Option.fromNullable(row.started_by)
          }))),
          Effect.orDie
        ),
      progress: (request: typeof Progress.Type) => progress(request).pipe(Effect.orDie),
      claim: (request: typeof Claim.Type) => claim(request).pipe(Effect.orDie),
      extend: (request: { readonly id: string; readonly token: string; readonly until: number }) =>
        extend(request).pipe(Effect.orDie),
      finish: (request: typeof Held.Type) => finish(request).pipe(Effect.orDie),
      retry: (request: typeof Retry.Type) => retry(request).pipe(Effect.orDie),
      fail: (request: typeof Failure.Type) => fail(request).pipe(Effect.orDie),
      release: (request: typeof Held.Type) => release(request).pipe(Effect.orDie),
      purge: (request: typeof Purge.Type) => purge(request).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
