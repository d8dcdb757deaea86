/**
 * The queue implementations every job test runs against: the embedded queue on SQLite and PostgreSQL, and Redis
 * standalone and cluster. A "process" is one independent layer build (its own connections, queue and workers),
 * as a `gloss server` or `gloss worker` would make, so tests can run several against one queue.
 */
import { Context, Duration, Effect, Layer, Scope } from "effect"
import { Queue } from "bullmq"
import { Redis } from "ioredis"
import { GlossConfig } from "../../../src/Config.js"
import { LoggingLive } from "../../../src/Logging.js"
import type { LogLevelName } from "../../../src/Config.js"
import { Database, SqlLive } from "../../../src/services/database/Database.js"
import { runMigrations } from "../../../src/services/database/migrations.js"
import { type JobHandler, JobHandlers } from "../../../src/services/jobs/JobHandlers.js"
import { JobQueue } from "../../../src/services/jobs/JobQueue.js"
import { JobWorkersLive } from "../../../src/services/jobs/JobWorkers.js"
import { JobSettings, type JobSettingsShape } from "../../../src/services/jobs/model.js"
import { keyPrefix, QUEUE_NAME } from "../../../src/services/jobs/RedisQueue.js"
import { SqlJobsRepo } from "../../../src/services/jobs/SqlJobsRepo.js"
import { dialects, freshDatabase } from "../../support/databases.js"
import { unique } from "../../support/fixtures.js"
import { clusterAvailable, REDIS_URL, redisCluster, standaloneAvailable } from "./redis.js"

export type Backend = "sqlite" | "postgres" | "redis" | "redis-cluster"

export const backends: ReadonlyArray<Backend> = [
  ...dialects,
  ...(standaloneAvailable ? (["redis"] as const) : []),
  ...(clusterAvailable ? (["redis-cluster"] as const) : [])
]

export const embeddedBackends = dialects

export interface SuiteShape {
  readonly backend: Backend
  readonly env: Readonly<Record<string, string>>
  readonly settings: JobSettingsShape
}

export class Suite extends Context.Tag("test/JobsSuite")<Suite, SuiteShape>() {}

/** Fast polling, short back-offs and a unique Redis prefix, so suites never see each other's jobs. */
export const testSettings = (overrides: Partial<JobSettingsShape> = {}): JobSettingsShape => ({
  ...JobSettings.defaultValue(),
  prefix: unique("gloss-test"),
  pollInterval: Duration.millis(20),
  shutdownGrace: Duration.seconds(2),
  backoff: Duration.millis(20),
  ...overrides
})

/** Removes a test's BullMQ keys from the shared standalone Redis (a test cluster is stopped instead). */
export const removeRedisKeys = (env: Readonly<Record<string, string>>, settings: JobSettingsShape) =>
  Effect.promise(async () => {
    const url = env.GLOSS_REDIS_URL ?? REDIS_URL
    if (env.GLOSS_REDIS_USE_CLUSTER === "true") return // the whole cluster goes away
    const connection = new Redis(url, { maxRetriesPerRequest: null })
    const queue = new Queue(QUEUE_NAME, { connection, prefix: keyPrefix(settings) })
    await queue.obliterate({ force: true })
    await queue.close()
    await connection.quit()
  })

/** A fresh queue for one suite: a new database (migrated), or a new Redis prefix / a new cluster. */
export const SuiteLive = (backend: Backend, overrides: Partial<JobSettingsShape> = {}) =>
  Layer.scoped(Suite, Effect.gen(function*() {
    const settings = testSettings(overrides)
    const database = yield* freshDatabase(backend === "postgres" ? "postgres" : "sqlite")
    if (backend === "sqlite" || backend === "postgres") {
      yield* runMigrations.pipe(Effect.provide(SqlLive), Effect.provide(GlossConfig.fromRecord(database.env)), Effect.orDie)
      return { backend, env: database.env, settings }
    }
    const url = backend === "redis" ? REDIS_URL : (yield* redisCluster).url
    const env = { ...database.env, GLOSS_REDIS_URL: url, GLOSS_REDIS_USE_CLUSTER: String(backend === "redis-cluster") }
    yield* Effect.addFinalizer(() => removeRedisKeys(env, settings))
    return { backend, env, settings }
  }))

const LOG_LEVEL: LogLevelName = process.env.GLOSS_TEST_LOG_LEVEL === "debug" ? "debug" : "none"

/**
 * One process: its own database or Redis connections, a `JobQueue`, and `concurrency` workers (0: a producer only)
 * running `handlers`. Built fresh each time, so two processes share nothing but the queue's storage.
 */
export const processLayer = (
  suite: SuiteShape,
  handlers: Effect.Effect<ReadonlyArray<JobHandler>>,
  concurrency: number,
  logging: Layer.Layer<never> = LoggingLive(LOG_LEVEL, "text")
) =>
  Layer.fresh(
    JobWorkersLive(concurrency).pipe(
      Layer.provide(JobHandlers.layer(handlers)),
      Layer.provideMerge(Layer.merge(JobQueue.Default, SqlJobsRepo.Default)),
      Layer.provideMerge(Database.Default),
      Layer.provideMerge(SqlLive),
      Layer.provide(GlossConfig.fromRecord(suite.env)),
      Layer.provide(Layer.succeed(JobSettings, suite.settings)),
      Layer.provide(logging),
      Layer.orDie
    )
  )

/** Starts a process that lives until `scope` closes (the test's scope unless one is given). */
export const startProcess = (
  handlers: Effect.Effect<ReadonlyArray<JobHandler>>,
  concurrency: number,
  scope?: Scope.Scope
) =>
  Effect.gen(function*() {
    const suite = yield* Suite
    const layer = processLayer(suite, handlers, concurrency)
    const context = scope === undefined ? yield* Layer.build(layer) : yield* Layer.buildWithScope(layer, scope)
    return { queue: Context.get(context, JobQueue), context }
  })

/** Runs `check` until `done` holds (every 20 ms, at most 60 s). Waiting is not asserting: no test checks speed. */
export const eventually = <A, E, R>(check: Effect.Effect<A, E, R>, done: (a: A) => boolean, what: string) => {
  const loop: Effect.Effect<A, E, R> = Effect.flatMap(check, (a) =>
    done(a) ? Effect.succeed(a) : Effect.zipRight(Effect.sleep("20 millis"), Effect.suspend(() => loop)))
  return loop.pipe(Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new Error(`timed out waiting: ${what}`) }))
}
