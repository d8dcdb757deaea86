/**
 * Workers of the Redis queue: one BullMQ `Worker` with `concurrency` slots. BullMQ hands each job to exactly one
 * worker (an atomic move to its active list plus a lock it renews); a job whose worker died is moved back by the
 * stalled-job check of any live worker. Handlers run as fibers of this layer's scope.
 */
import { type Job, UnrecoverableError, Worker } from "bullmq"
import { Duration, Effect, Fiber, FiberSet, Layer, Option, type Redacted, Runtime } from "effect"
import { JobHandlers } from "./JobHandlers.js"
import { JobSettings } from "./model.js"
import { connectRedis, type RedisUnavailable } from "./RedisConnection.js"
import { keyPrefix, QUEUE_NAME } from "./RedisQueue.js"
import { runJob } from "./runJob.js"

export const RedisWorkersLive = (
  url: Redacted.Redacted<string>,
  cluster: boolean,
  prefix: Option.Option<string>,
  concurrency: number
): Layer.Layer<never, RedisUnavailable, JobHandlers> =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const settings = yield* JobSettings
    const handlers = yield* JobHandlers
    const connection = yield* connectRedis(url, cluster, "workers")
    const runtime = yield* Effect.runtime<never>()
    const running = yield* FiberSet.make()
    const run = yield* FiberSet.runtimePromise(running)<never>()

    const processor = async (job: Job<unknown, void, string>) => {
      const maxAttempts = job.opts.attempts ?? 1
      const outcome = await run(runJob(handlers, {
        id: job.id ?? "",
        name: job.name,
        payload: job.data,
        attempt: job.attemptsMade + 1,
        maxAttempts,
        // BullMQ counts the times a job's worker stopped holding its lock without counting an attempt.
        redelivered: job.stalledCounter > 0
      }, (progress) =>
        Effect.tryPromise(() => job.updateProgress(progress)).pipe(
          Effect.catchAll((error) => Effect.logError(`Job workers: storing the progress of job ${job.id} failed`, error))
        )))
      if (outcome._tag === "Failed") throw outcome.retry ? new Error(outcome.error) : new UnrecoverableError(outcome.error)
    }

    const worker = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const worker = new Worker<unknown, void, string>(QUEUE_NAME, processor, {
          connection,
          prefix: keyPrefix(settings, prefix),
          concurrency,
          lockDuration: Duration.toMillis(settings.lease)
        })
        worker.on("error", (error) => Runtime.runFork(runtime)(Effect.logWarning(`Job worker error: ${error.message}`)))
        return worker
      }),
      // Graceful first: BullMQ waits for running jobs. Past the grace period they are interrupted; BullMQ records
      // the attempt as failed and the job is retried (by another process, or after restart).
      (worker) =>
        Effect.gen(function*() {
          const closing = yield* Effect.fork(Effect.promise(() => worker.close()))
          // (Finalizers run uninterruptibly; the wait must be interruptible for the timeout to end it.)
          const closed = yield* Fiber.join(closing).pipe(Effect.interruptible, Effect.timeoutOption(settings.shutdownGrace))
          if (Option.isNone(closed)) {
            yield* Effect.logWarning("Job workers: interrupting jobs still running after the shutdown grace period")
            yield* FiberSet.clear(running)
            yield* Fiber.join(closing)
          }
        })
    )
    yield* Effect.promise(() => worker.waitUntilReady())
    yield* Effect.logInfo(`Job workers started: ${concurrency} on Redis${cluster ? " Cluster" : ""}`)
  }).pipe(Effect.annotateLogs({ component: "jobs" })))
