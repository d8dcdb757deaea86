/**
 * One attempt at a job, the same for both queues: find the handler, run it, and say what should happen next.
 * Failures never escape: they are logged with their full cause and returned as an outcome the queue records.
 */
import { Cause, Effect, Exit, Option } from "effect"
import type { JobProgress } from "../../domain/Job.js"
import { CurrentJob, type JobHandler, UnrecoverableJobError } from "./JobHandlers.js"
import { MAX_ERROR_LENGTH } from "./model.js"

export interface Attempt {
  readonly id: string
  readonly name: string
  readonly payload: unknown
  /** 1 for the first run. */
  readonly attempt: number
  readonly maxAttempts: number
  /** Handed out again because the worker running it stopped (its lease or lock expired). */
  readonly redelivered?: boolean | undefined
}

/** The line a worker logs as it starts an attempt: a re-run leaves a trace of its own. */
export const startLine = (job: Attempt): string =>
  `Running job ${job.name} ${job.id} (attempt ${job.attempt} of ${job.maxAttempts}` +
  `${job.redelivered === true ? ", redelivered: the worker that had it stopped" : ""})`

export type Outcome =
  | { readonly _tag: "Succeeded" }
  | { readonly _tag: "Failed"; readonly error: string; readonly retry: boolean }

const succeeded: Outcome = { _tag: "Succeeded" }

const isUnrecoverable = (cause: Cause.Cause<unknown>) =>
  Option.exists(Cause.failureOption(cause), (error) => error instanceof UnrecoverableJobError)

/** Where the queue stores a job's progress reports (failures are logged by the caller of `report`, not here). */
export type ReportProgress = (progress: JobProgress) => Effect.Effect<void>

const noReports: ReportProgress = () => Effect.void

export const runJob = (
  handlers: ReadonlyMap<string, JobHandler>,
  job: Attempt,
  report: ReportProgress = noReports
): Effect.Effect<Outcome> =>
  Effect.gen(function*() {
    yield* Effect.logInfo(startLine(job))
    const handler = handlers.get(job.name)
    // Retryable: during a rolling deploy a job may reach a process that does not know its name yet.
    const exit = handler === undefined
      ? Exit.fail(`no handler is registered for job \`${job.name}\``)
      : yield* Effect.exit(handler.run(job.payload).pipe(Effect.provideService(CurrentJob, { id: job.id, report })))
    if (Exit.isSuccess(exit)) return succeeded
    const retry = !isUnrecoverable(exit.cause) && job.attempt < job.maxAttempts
    const message = `Job ${job.name} ${job.id} failed (attempt ${job.attempt} of ${job.maxAttempts})` +
      (retry ? "; it will be retried" : "; giving up")
    yield* retry ? Effect.logWarning(message, exit.cause) : Effect.logError(message, exit.cause)
    const failed: Outcome = { _tag: "Failed", retry, error: Cause.pretty(exit.cause).slice(0, MAX_ERROR_LENGTH) }
    return failed
  }).pipe(
    Effect.annotateLogs({ job: job.id, jobName: job.name }),
    Effect.withSpan("Jobs.run", { attributes: { "job.id": job.id, "job.name": job.name, "job.attempt": job.attempt } })
  )
