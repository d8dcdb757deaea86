import { Schema } from "effect"

/**
 * A background job's state, with rq's names (Argilla's queue) so Argilla clients and the UI poll unchanged. Gloss
 * produces `queued`, `started`, `deferred`, `scheduled` (waiting out a retry back-off), `finished` and `failed`.
 */
export const JobStatus = Schema.Literal(
  "queued",
  "started",
  "deferred",
  "finished",
  "stopped",
  "scheduled",
  "canceled",
  "failed"
)
export type JobStatus = typeof JobStatus.Type

/** Job ids are opaque strings (Gloss makes UUIDs; Argilla's are rq ids), so any string is looked up. */
export const JobId = Schema.String.pipe(Schema.minLength(1))

/**
 * How far a job has got, for jobs that report it (applying answers to every matching record, imports, exports): a
 * Gloss addition to the wire that Argilla's clients ignore. `total` is null until the job knows it; `failed`
 * counts items that could not be done (each one's reason is in the server log, the first few in `errors`).
 */
export const JobProgress = Schema.Struct({
  done: Schema.Int.pipe(Schema.nonNegative()),
  total: Schema.NullOr(Schema.Int.pipe(Schema.nonNegative())),
  failed: Schema.Int.pipe(Schema.nonNegative()),
  errors: Schema.Array(Schema.Struct({ id: Schema.String, detail: Schema.String })).pipe(Schema.maxItems(20))
}).annotations({ identifier: "JobProgress" })
export type JobProgress = typeof JobProgress.Type

export const Job = Schema.Struct({ id: JobId, status: JobStatus, progress: Schema.optional(JobProgress) })
export type Job = typeof Job.Type
