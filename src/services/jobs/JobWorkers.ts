/**
 * Where jobs run: in the server process (GLOSS_JOB_WORKERS of them, 0 for none) and in `gloss worker` processes.
 * Any number of both may run against one queue; each job is still run by one worker at a time. Which handlers
 * they run is the app's choice (`src/Workers.ts`): the queue knows no feature.
 */
import { Effect, Layer, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import { Database } from "../database/Database.js"
import type { JobHandlers } from "./JobHandlers.js"
import type { RedisUnavailable } from "./RedisConnection.js"
import { RedisWorkersLive } from "./RedisWorkers.js"
import { SqlJobsRepo } from "./SqlJobsRepo.js"
import { SqlWorkersLive } from "./SqlWorkers.js"

/** `concurrency` workers on the configured queue, running the handlers in context. */
export const JobWorkersLive = (
  concurrency: number
): Layer.Layer<never, RedisUnavailable, GlossConfig | Database | JobHandlers | SqlJobsRepo> =>
  concurrency <= 0 ? Layer.empty : Layer.unwrapEffect(Effect.map(GlossConfig, ({ redis }) =>
    Option.match(redis.url, {
      onNone: () => SqlWorkersLive(concurrency),
      onSome: (url) => RedisWorkersLive(url, redis.useCluster, redis.prefix, concurrency)
    })))
