import { Schema } from "effect"

/**
 * A background job's state, with rq's names (reference §1.16) so Argilla clients and the UI poll unchanged. Gloss
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

export const Job = Schema.Struct({ id: JobId, status: JobStatus })
export type Job = typeof Job.Type
