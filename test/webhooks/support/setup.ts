/**
 * Webhook suites on every job queue: the embedded queue on SQLite and PostgreSQL, Redis standalone and a
 * three-node Redis Cluster (started for the suite). A suite owns a fresh database (and Redis prefix or cluster), a
 * receiver, and one server; tests that need more processes (restarts, extra workers) start them on the same
 * storage with `startServer` / `startWorker`.
 */
import { SqlClient } from "@effect/sql"
import { Queue } from "bullmq"
import { Cluster, Redis } from "ioredis"
import { Context, Duration, Effect, Layer, type Scope } from "effect"
import { WorkerProcessLive } from "../../../src/cli/WorkerCommand.js"
import { GlossConfig } from "../../../src/Config.js"
import { LoggingLive } from "../../../src/Logging.js"
import { JobSettings, type JobSettingsShape } from "../../../src/services/jobs/model.js"
import { keyPrefix, QUEUE_NAME } from "../../../src/services/jobs/RedisQueue.js"
import { WebhookSettings, type WebhookSettingsShape } from "../../../src/services/webhooks/settings.js"
import { type Backend, backends, removeRedisKeys, testSettings } from "../../jobs/support/backends.js"
import { REDIS_URL, redisCluster } from "../../jobs/support/redis.js"
import { freshDatabase } from "../../support/databases.js"
import { AUTH_SECRET, OWNER, TEST_LOG_LEVEL, TestServer, TestServerOn } from "../../support/server.js"
import { Receiver, receiver } from "./receiver.js"

export { type Backend, backends }

export interface SetupShape {
  readonly backend: Backend
  /** The environment of every process of the suite (database, queue, owner). */
  readonly env: Readonly<Record<string, string>>
  readonly jobs: JobSettingsShape
  readonly webhooks: WebhookSettingsShape
}

export class Setup extends Context.Tag("test/WebhooksSetup")<Setup, SetupShape>() {}
export class TheReceiver extends Context.Tag("test/Receiver")<TheReceiver, Receiver>() {}

/** Quick everything, so no test waits on production pacing; the timeout still leaves a loaded machine room. */
export const fastWebhooks = (overrides: Partial<WebhookSettingsShape> = {}): WebhookSettingsShape => ({
  ...WebhookSettings.defaultValue(),
  timeout: Duration.seconds(5),
  attempts: 10,
  backoff: Duration.millis(100),
  dispatchInterval: Duration.millis(20),
  subscriptionsTtl: Duration.millis(50),
  ...overrides
})

const SetupLayer = (backend: Backend, overrides: Partial<WebhookSettingsShape>) =>
  Layer.scoped(Setup, Effect.gen(function*() {
    const database = yield* freshDatabase(backend === "postgres" ? "postgres" : "sqlite")
    const jobs = testSettings()
    const base = {
      USERNAME: OWNER.username,
      PASSWORD: OWNER.password,
      API_KEY: OWNER.apiKey,
      GLOSS_AUTH_SECRET_KEY: AUTH_SECRET,
      GLOSS_AUTH_PASSWORD_HASH_ROUNDS: "4",
      GLOSS_LOG_LEVEL: TEST_LOG_LEVEL,
      // The receiver listens on loopback, which webhooks may not post to unless it is listed.
      GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1",
      ...database.env
    }
    const webhooks = fastWebhooks(overrides)
    if (backend === "sqlite" || backend === "postgres") return { backend, env: base, jobs, webhooks }
    const url = backend === "redis" ? REDIS_URL : (yield* redisCluster).url
    const env = { ...base, GLOSS_REDIS_URL: url, GLOSS_REDIS_USE_CLUSTER: String(backend === "redis-cluster") }
    yield* Effect.addFinalizer(() => removeRedisKeys(env, jobs))
    return { backend, env, jobs, webhooks }
  }))

/** One `gloss server` of the suite: its own connections, queue, dispatcher and (unless 0) workers. */
export const serverProcess = (setup: SetupShape, env: Record<string, string> = {}, webhooks: Partial<WebhookSettingsShape> = {}) =>
  TestServerOn(setup.backend === "postgres" ? "postgres" : "sqlite", { ...setup.env, ...env }).pipe(
    Layer.provide(Layer.succeed(JobSettings, setup.jobs)),
    Layer.provide(Layer.succeed(WebhookSettings, { ...setup.webhooks, ...webhooks }))
  )

/** One `gloss worker` process of the suite (workers and a dispatcher, no HTTP). */
export const workerProcess = (setup: SetupShape, concurrency: number) =>
  WorkerProcessLive(concurrency).pipe(
    Layer.provide(GlossConfig.fromRecord(setup.env)),
    Layer.provide(Layer.succeed(JobSettings, setup.jobs)),
    Layer.provide(Layer.succeed(WebhookSettings, setup.webhooks)),
    Layer.provide(LoggingLive("none", "text")),
    Layer.orDie
  )

/** Setup and receiver, no process: the test starts its own servers and workers. */
export const BareSuiteLive = (backend: Backend, overrides: Partial<WebhookSettingsShape> = {}) =>
  Layer.scoped(TheReceiver, receiver).pipe(Layer.provideMerge(SetupLayer(backend, overrides)))

/** The suite: setup, receiver and one server (with `env` added, e.g. `GLOSS_JOB_WORKERS`). */
export const SuiteLive = (backend: Backend, env: Record<string, string> = {}, overrides: Partial<WebhookSettingsShape> = {}) =>
  Layer.unwrapEffect(Effect.map(Setup, (setup) => serverProcess(setup, env))).pipe(
    Layer.merge(Layer.scoped(TheReceiver, receiver)),
    Layer.provideMerge(SetupLayer(backend, overrides))
  )

/** Builds a process layer into `scope`, returning its context (to run clients against a restarted server). */
export const start = <A, E>(layer: Layer.Layer<A, E>, scope: Scope.Scope) => Layer.buildWithScope(layer, scope)

/** The ids of the jobs named `name`, read from the queue's storage (the API has no job list). */
export const jobIds = (name: string) =>
  Effect.gen(function*() {
    const setup = yield* Setup
    if (setup.backend === "sqlite" || setup.backend === "postgres") {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* Effect.orDie(sql<{ readonly id: string }>`select id from jobs where name = ${name}`)
      return rows.map((row) => row.id)
    }
    return yield* Effect.promise(async () => {
      const url = new URL(setup.env.GLOSS_REDIS_URL ?? REDIS_URL)
      const connection = setup.backend === "redis-cluster"
        ? new Cluster([{ host: url.hostname, port: Number(url.port) }])
        : new Redis(url.href, { maxRetriesPerRequest: null })
      const queue = new Queue(QUEUE_NAME, { connection, prefix: keyPrefix(setup.jobs) })
      try {
        const jobs = await queue.getJobs(["active", "waiting", "prioritized", "delayed", "completed", "failed"])
        return jobs.flatMap((job) => (job.name === name && job.id !== undefined ? [job.id] : []))
      } finally {
        await queue.close()
        await connection.quit()
      }
    })
  })

/** Runs `check` until `done` holds (every 20 ms, at most 60 s). Waiting is not asserting: no test checks speed. */
export const eventually = <A, E, R>(check: Effect.Effect<A, E, R>, done: (a: A) => boolean, what: string) => {
  const loop: Effect.Effect<A, E, R> = Effect.flatMap(check, (a) =>
    done(a) ? Effect.succeed(a) : Effect.zipRight(Effect.sleep("20 millis"), Effect.suspend(() => loop)))
  return loop.pipe(Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new Error(`timed out waiting: ${what}`) }))
}

export { TestServer }
