/**
 * HTTP tests of job-backed endpoints: a server on each database with the embedded queue, and on SQLite with Redis
 * when Redis runs here, its queue tuned by the test's own `JobSettings`.
 */
import { Effect, Layer } from "effect"
import type { Job } from "../../../src/domain/Job.js"
import { JobSettings, type JobSettingsShape } from "../../../src/services/jobs/model.js"
import { type Dialect, dialects } from "../../support/databases.js"
import { clientFor, TestServerLive } from "../../support/server.js"
import { removeRedisKeys } from "./backends.js"
import { REDIS_URL, standaloneAvailable } from "./redis.js"

export const serverSetups: ReadonlyArray<readonly [string, Dialect, Record<string, string>]> = [
  ...dialects.map((dialect) => [dialect, dialect, {}] as const),
  ...(standaloneAvailable ? [["sqlite + redis", "sqlite", { GLOSS_REDIS_URL: REDIS_URL }] as const] : [])
]

/** A test server whose queue uses `settings`; on Redis, the suite's keys (its own prefix) are removed at the end. */
export const serverWithJobSettings = (dialect: Dialect, env: Record<string, string>, settings: JobSettingsShape) =>
  TestServerLive(dialect, env).pipe(
    Layer.provideMerge(Layer.succeed(JobSettings, settings)),
    Layer.merge(Layer.scopedDiscard(Effect.addFinalizer(() =>
      "GLOSS_REDIS_URL" in env ? removeRedisKeys(env, settings) : Effect.void
    )))
  )

/** Polls a job as `apiKey` until it is finished or failed (at most 60 s), and answers what `GET /jobs/{id}` said last. */
export const settledJob = (apiKey: string, id: string) =>
  Effect.gen(function*() {
    const client = yield* clientFor(apiKey)
    const deadline = Date.now() + 60_000
    let job: Job = yield* client.jobs.get({ path: { id } })
    while (job.status !== "finished" && job.status !== "failed" && Date.now() < deadline) {
      yield* Effect.sleep("50 millis")
      job = yield* client.jobs.get({ path: { id } })
    }
    return job
  })
