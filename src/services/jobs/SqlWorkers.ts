/**
 * Workers of the embedded queue: `concurrency` fibers, each claiming one job at a time. A fiber that finds nothing
 * waits `pollInterval` (jittered, so processes started together do not poll in lock-step); one that finds work
 * claims again at once. A heartbeat renews the lease while a job runs, so only a crashed worker's job is taken over.
 */
import { Clock, Duration, Effect, Layer, Option, Ref, Schedule } from "effect"
import { Database } from "../database/Database.js"
import { now } from "../clock.js"
import { JobHandlers } from "./JobHandlers.js"
import { JobSettings, retryDelayMillis } from "./model.js"
import { runJob } from "./runJob.js"
import { type ClaimedJob, SqlJobsRepo } from "./SqlJobsRepo.js"

/** Keeps a loop alive through infrastructure failures (database restarting, file locked), which it logs. */
const logAndContinue = (what: string) => <A, R>(self: Effect.Effect<A, never, R>) =>
  Effect.catchAllCause(self, (cause) => Effect.logError(`Job workers: ${what} failed; will try again`, cause))

export const SqlWorkersLive = (concurrency: number): Layer.Layer<never, never, SqlJobsRepo | Database | JobHandlers> =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const repo = yield* SqlJobsRepo
    const db = yield* Database
    const handlers = yield* JobHandlers
    const settings = yield* JobSettings
    const leaseMillis = Duration.toMillis(settings.lease)

    /** Renews the lease every third of it, for as long as the job runs (it is interrupted when the job ends). */
    const keepLease = (job: ClaimedJob): Effect.Effect<never> =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.transaction(repo.extend({ id: job.id, token: job.claim_token, until: millis + leaseMillis }))).pipe(
          logAndContinue(`renewing the lease of job ${job.id}`),
          Effect.delay(Duration.millis(leaseMillis / 3)),
          Effect.forever
        )

    const work = Effect.fn("Jobs.work")(function*(job: ClaimedJob) {
      const held = { id: job.id, token: job.claim_token }
      if (job.attempts_made > job.max_attempts) {
        // Its last attempt's worker died mid-run (the lease expired): a job that kills workers is not run again.
        const error = "the worker running the last attempt stopped before it finished"
        yield* Effect.logError(`Job ${job.name} ${job.id} failed: ${error}`)
        return yield* db.transaction(repo.fail({ ...held, error, at: yield* now }))
      }
      const outcome = yield* runJob(handlers, {
        id: job.id,
        name: job.name,
        payload: job.payload,
        attempt: job.attempts_made,
        maxAttempts: job.max_attempts
      }, (progress) =>
        db.transaction(repo.progress({ ...held, progress })).pipe(logAndContinue(`storing the progress of job ${job.id}`))).pipe(
        Effect.raceFirst(keepLease(job)),
        Effect.onInterrupt(() =>
          Effect.flatMap(now, (at) => db.transaction(repo.release({ ...held, at }))).pipe(logAndContinue("handing back a job"))
        )
      )
      // Once the attempt is over, its result is recorded even if shutdown begins meanwhile.
      yield* Effect.uninterruptible(Effect.gen(function*() {
        const at = yield* now
        if (outcome._tag === "Succeeded") return yield* db.transaction(repo.finish({ ...held, at }))
        if (!outcome.retry) return yield* db.transaction(repo.fail({ ...held, error: outcome.error, at }))
        const availableAt = at.getTime() + retryDelayMillis(job.backoff_ms, job.attempts_made)
        yield* db.transaction(repo.retry({ ...held, error: outcome.error, availableAt, at }))
      }))
    })

    // Shutdown: stop claiming, let running jobs finish for `shutdownGrace`, then interrupt (and hand back) the rest.
    const stopping = yield* Ref.make(false)
    const running = yield* Ref.make(0)

    /** Claims and runs one job; `false` when there was none to claim (or the process is stopping). */
    const step = Effect.gen(function*() {
      if (yield* Ref.get(stopping)) return false
      const millis = yield* Clock.currentTimeMillis
      const claimed = yield* db.transaction(repo.claim({
        now: millis,
        until: millis + leaseMillis,
        token: crypto.randomUUID(),
        at: new Date(millis)
      }))
      if (claimed._tag === "None") return false
      yield* Effect.acquireUseRelease(Ref.update(running, (n) => n + 1), () => work(claimed.value), () =>
        Ref.update(running, (n) => n - 1))
      return true
    })

    const drain = step.pipe(Effect.repeat({ while: (worked) => worked }), logAndContinue("claiming a job"))
    const poll = Schedule.spaced(settings.pollInterval).pipe(Schedule.jittered)
    for (let i = 0; i < concurrency; i++) yield* Effect.forkScoped(Effect.repeat(drain, poll))
    // Added after the fibers, so it runs before they are interrupted (finalizers run in reverse order).
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        yield* Ref.set(stopping, true)
        // (Finalizers run uninterruptibly; the wait must be interruptible for the timeout to end it.)
        const drained = yield* Effect.repeat(Ref.get(running), {
          until: (n) => n === 0,
          schedule: Schedule.spaced("20 millis")
        }).pipe(Effect.interruptible, Effect.timeoutOption(settings.shutdownGrace))
        if (Option.isNone(drained)) {
          yield* Effect.logWarning("Job workers: interrupting jobs still running after the grace period; they go back to the queue")
        }
      })
    )

    // Finished and failed jobs are kept for a while so their status can be read, then removed.
    const purge = Effect.gen(function*() {
      const at = (yield* now).getTime()
      yield* db.transaction(repo.purge({
        finishedBefore: new Date(at - Duration.toMillis(settings.keepFinished)),
        failedBefore: new Date(at - Duration.toMillis(settings.keepFailed))
      }))
    }).pipe(logAndContinue("removing old jobs"))
    yield* Effect.forkScoped(Effect.repeat(purge, Schedule.spaced("10 minutes")))
    yield* Effect.logInfo(`Job workers started: ${concurrency} on the embedded queue`)
  }).pipe(Effect.annotateLogs({ component: "jobs" })))
