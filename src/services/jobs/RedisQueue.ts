/**
 * The Redis queue's producer side, on BullMQ. Both logical queues live in one BullMQ queue with priorities
 * (`high` = 1, `default` = 2): a worker then always takes `high` work first, which two separate BullMQ queues
 * could not guarantee. Job ids are ours (UUIDs), so a status lookup needs no queue name.
 */
import { Queue } from "bullmq"
import type { JobState } from "bullmq"
import { Duration, Effect, Option, type Redacted, Runtime, Schema } from "effect"
import { JobProgress, type JobStatus } from "../../domain/Job.js"
import { type JobQueueShape, JobSettings, type JobSettingsShape, type QueueName, retryPolicy } from "./model.js"
import { connectRedis } from "./RedisConnection.js"
import { newId } from "../ids.js"

export const QUEUE_NAME = "jobs"

/**
 * Every key's prefix: GLOSS_REDIS_PREFIX (`prefix`) when set, else the job settings' (`gloss`). Deployments with
 * different prefixes share one Redis without sharing a queue. In a cluster, the Lua scripts of a queue touch several
 * keys that must share a slot: the hash tag (`{…}`) does that.
 */
export const keyPrefix = (settings: JobSettingsShape, prefix: Option.Option<string> = Option.none()) =>
  `{${Option.getOrElse(prefix, () => settings.prefix)}}`

/**
 * Who started a job: a field of our own in the job's hash, which BullMQ leaves alone and deletes with the job (its
 * options are BullMQ's, and its data is the handler's payload).
 */
const STARTED_BY = "gloss_started_by"

/** BullMQ's progress is any number or object: only ours is shown (a job that reported nothing has 0). */
const progressOf = Schema.decodeUnknownOption(JobProgress)

export const PRIORITY: Record<QueueName, number> = { high: 1, default: 2 }

/** BullMQ's states in the contract's (rq's) words; a retry waiting out its back-off is `scheduled`, as in rq. */
export const statusOfState = (state: JobState | "unknown"): Option.Option<JobStatus> => {
  switch (state) {
    case "waiting":
    case "prioritized":
      return Option.some("queued")
    case "waiting-children":
      return Option.some("deferred")
    case "delayed":
      return Option.some("scheduled")
    case "active":
      return Option.some("started")
    case "completed":
      return Option.some("finished")
    case "failed":
      return Option.some("failed")
    case "unknown":
      return Option.none()
  }
}

/** Finished and failed jobs are dropped after these ages (BullMQ checks when later jobs finish). */
export const retention = (settings: JobSettingsShape) => ({
  removeOnComplete: { age: Math.ceil(Duration.toSeconds(settings.keepFinished)) },
  removeOnFail: { age: Math.ceil(Duration.toSeconds(settings.keepFailed)) }
})

export const makeRedisQueue = (url: Redacted.Redacted<string>, cluster: boolean, prefix: Option.Option<string>) =>
  Effect.gen(function*() {
    const settings = yield* JobSettings
    const connection = yield* connectRedis(url, cluster, "commands")
    const runtime = yield* Effect.runtime<never>()
    const queue = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const queue = new Queue(QUEUE_NAME, { connection, prefix: keyPrefix(settings, prefix) })
        queue.on("error", (error) => Runtime.runFork(runtime)(Effect.logWarning(`Job queue error: ${error.message}`)))
        return queue
      }),
      (queue) =>
        Effect.tryPromise(() => queue.close()).pipe(
          Effect.catchAll((error) => Effect.logDebug("The job queue did not close cleanly", error))
        )
    )
    yield* Effect.promise(() => queue.waitUntilReady())

    // Redis failures are defects, not API errors (docs/explanation/architecture.md#errors-as-data): the request that
    // enqueued answers 500.
    const enqueue: JobQueueShape["enqueue"] = Effect.fn("Jobs.enqueue")(function*(queueName, name, payload, options) {
      const { attempts, backoffMillis, delayMillis } = retryPolicy(settings, options)
      const id = newId()
      yield* Effect.tryPromise(() =>
        queue.add(name, payload, {
          jobId: id,
          priority: PRIORITY[queueName],
          attempts,
          backoff: { type: "exponential", delay: backoffMillis },
          ...(delayMillis > 0 ? { delay: delayMillis } : {}),
          ...retention(settings)
        })
      ).pipe(Effect.orDie)
      const startedBy = options?.startedBy
      if (startedBy !== undefined) {
        yield* Effect.tryPromise(async () => (await queue.client).hset(queue.toKey(id), { [STARTED_BY]: startedBy })).pipe(
          Effect.orDie
        )
      }
      return id
    })

    const status: JobQueueShape["status"] = Effect.fn("Jobs.status")(function*(id: string) {
      const state = yield* Effect.tryPromise(() => queue.getJobState(id)).pipe(Effect.orDie)
      return statusOfState(state)
    })

    const lookup: JobQueueShape["lookup"] = Effect.fn("Jobs.lookup")(function*(id: string) {
      // The state first, then the job: a handler's last report precedes its completion, so a job read as finished
      // shows its final progress (read the other way round, it could show an older one).
      const found = yield* Effect.tryPromise(async () => {
        const state = await queue.getJobState(id)
        const job = await queue.getJob(id)
        if (job === undefined) return undefined
        const startedBy = await queue.client.then((client) => client.hget(queue.toKey(id), STARTED_BY))
        return { state, progress: job.progress, startedBy }
      }).pipe(Effect.orDie)
      if (found === undefined) return Option.none()
      return Option.map(statusOfState(found.state), (status) => ({
        status,
        progress: progressOf(found.progress),
        startedBy: Option.fromNullable(found.startedBy)
      }))
    })

    return { enqueue, status, lookup } satisfies JobQueueShape
  })
