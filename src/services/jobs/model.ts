/**
 * The job queue's vocabulary, shared by both implementations (the SQL database, Redis via BullMQ): what a caller
 * enqueues, what the queue answers, and the tuning knobs with their defaults.
 */
import { Context, Duration, type Effect, type Option } from "effect"
import type { JobProgress, JobStatus } from "../../domain/Job.js"

/** `high` is always served before `default` (webhook deliveries overtake imports and recomputations). */
export type QueueName = "high" | "default"

/** What a payload may hold: it is stored as JSON and handed to the handler decoded from JSON. */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

export interface EnqueueOptions {
  /** Runs at most this many times in all (first run + retries). Default `JobSettings.attempts`. */
  readonly attempts?: number | undefined
  /** Base delay of the exponential back-off: retry n waits `backoff × 2^(n-1)`. Default `JobSettings.backoff`. */
  readonly backoff?: Duration.DurationInput | undefined
  /** Runs no earlier than this long after it is enqueued (a retry handed over from another job). Default: at once. */
  readonly delay?: Duration.DurationInput | undefined
  /** The user who asked for the job: besides owners and admins, they may read its status (`GET /jobs/{id}`). */
  readonly startedBy?: string | undefined
}

/** What the queue knows of a job: its status, how far it got (when its handler reports that), who started it. */
export interface JobInfo {
  readonly status: JobStatus
  readonly progress: Option.Option<JobProgress>
  readonly startedBy: Option.Option<string>
}

export interface JobQueueShape {
  /** Stores the job (durably) and returns its id. */
  readonly enqueue: (
    queue: QueueName,
    name: string,
    payload: Json,
    options?: EnqueueOptions
  ) => Effect.Effect<string>
  /** `None` for an unknown id, and for finished/failed jobs once their retention has passed. */
  readonly status: (id: string) => Effect.Effect<Option.Option<JobStatus>>
  /** The same, with the job's progress and starter. */
  readonly lookup: (id: string) => Effect.Effect<Option.Option<JobInfo>>
}

export interface JobSettingsShape {
  /** Redis key prefix, always used as a `{hash tag}` so a queue's keys share one cluster slot. */
  readonly prefix: string
  /** How often an idle embedded worker looks for work. */
  readonly pollInterval: Duration.Duration
  /** How long a claim lasts without a heartbeat before another worker may take the job over. */
  readonly lease: Duration.Duration
  /** On shutdown, how long running jobs may finish before they are interrupted. */
  readonly shutdownGrace: Duration.Duration
  readonly keepFinished: Duration.Duration
  readonly keepFailed: Duration.Duration
  readonly attempts: number
  readonly backoff: Duration.Duration
}

/**
 * Tuning with production defaults; tests provide their own (short leases, a unique Redis prefix). Argilla's jobs
 * retry up to 3 times, hence 4 attempts; rq keeps failed jobs long and finished ones briefly.
 */
export class JobSettings extends Context.Reference<JobSettings>()("Gloss/JobSettings", {
  defaultValue: (): JobSettingsShape => ({
    prefix: "gloss",
    pollInterval: Duration.millis(500),
    lease: Duration.seconds(30),
    shutdownGrace: Duration.seconds(10),
    keepFinished: Duration.days(1),
    keepFailed: Duration.days(7),
    attempts: 4,
    backoff: Duration.seconds(1)
  })
}) {}

/** The wait before retry number `attempt` (1 = first retry), as BullMQ's "exponential" back-off computes it. */
export const retryDelayMillis = (backoffMillis: number, attempt: number): number =>
  Math.round(backoffMillis * 2 ** Math.max(0, attempt - 1))

/** Attempts and back-off for one job, with the settings' defaults filled in. */
export const retryPolicy = (settings: JobSettingsShape, options: EnqueueOptions | undefined) => ({
  attempts: Math.max(1, Math.floor(options?.attempts ?? settings.attempts)),
  backoffMillis: Duration.toMillis(options?.backoff === undefined ? settings.backoff : Duration.decode(options.backoff)),
  delayMillis: options?.delay === undefined ? 0 : Math.max(0, Duration.toMillis(Duration.decode(options.delay)))
})

/** Longest error text kept with a failed job (the full cause is in the log). */
export const MAX_ERROR_LENGTH = 4000
