/**
 * The job queue: Redis (BullMQ) when GLOSS_REDIS_URL is set, else the embedded queue in the SQL database. Both keep
 * the same promises: a job is stored durably before `enqueue` returns, is run by one worker at a time, is retried
 * with exponential back-off, and ends `finished` or `failed`. Workers are a separate layer (`JobWorkers.ts`).
 */
import { Effect, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import { Database } from "../database/Database.js"
import type { JobQueueShape } from "./model.js"
import { makeRedisQueue } from "./RedisQueue.js"
import { makeSqlQueue } from "./SqlQueue.js"
import { SqlJobsRepo } from "./SqlJobsRepo.js"

export class JobQueue extends Effect.Service<JobQueue>()("Gloss/JobQueue", {
  scoped: Effect.gen(function*() {
    const { redis } = yield* GlossConfig
    const queue: JobQueueShape = Option.isSome(redis.url)
      ? yield* makeRedisQueue(redis.url.value, redis.useCluster, redis.prefix)
      : yield* makeSqlQueue
    return queue
  }),
  dependencies: [SqlJobsRepo.Default, Database.Default]
}) {}
