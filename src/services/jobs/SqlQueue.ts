/**
 * The embedded queue's producer side: a job is a row in the `jobs` table. Enqueueing inside a caller's
 * `Database.transaction` commits the job together with the change that caused it.
 */
import { Effect } from "effect"
import { Database } from "../database/Database.js"
import { now } from "../clock.js"
import { type JobQueueShape, JobSettings, retryPolicy } from "./model.js"
import { SqlJobsRepo } from "./SqlJobsRepo.js"
import { newId } from "../ids.js"

export const makeSqlQueue: Effect.Effect<JobQueueShape, never, SqlJobsRepo | Database> = Effect.gen(function*() {
  const repo = yield* SqlJobsRepo
  const db = yield* Database
  const settings = yield* JobSettings

  const enqueue: JobQueueShape["enqueue"] = Effect.fn("Jobs.enqueue")(function*(queue, name, payload, options) {
    const id = newId()
    const at = yield* now
    const { attempts, backoffMillis, delayMillis } = retryPolicy(settings, options)
    yield* db.transaction(repo.insert({
      id,
      queue,
      name,
      payload,
      status: "queued",
      max_attempts: attempts,
      backoff_ms: backoffMillis,
      available_at: at.getTime() + delayMillis,
      started_by: options?.startedBy ?? null,
      inserted_at: at,
      updated_at: at
    }))
    return id
  })

  const status: JobQueueShape["status"] = Effect.fn("Jobs.status")((id: string) => repo.status(id))

  const lookup: JobQueueShape["lookup"] = Effect.fn("Jobs.lookup")((id: string) => repo.lookup(id))

  return { enqueue, status, lookup }
})
