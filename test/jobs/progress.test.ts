/**
 * Job progress and the job's starter, the same on every queue: the embedded one (SQLite, PostgreSQL) and
 * Redis (standalone, cluster when available). A running handler reports through `CurrentJob`; `lookup` returns it.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Deferred, Effect, Option, Schema } from "effect"
import type { JobProgress } from "../../src/domain/Job.js"
import { CurrentJob, jobHandler } from "../../src/services/jobs/JobHandlers.js"
import type { JobInfo } from "../../src/services/jobs/model.js"
import { backends, eventually, startProcess, SuiteLive } from "./support/backends.js"

const halfway: JobProgress = { done: 5, total: 10, failed: 1, errors: [{ id: "r1", detail: "not found" }] }
const done: JobProgress = { done: 10, total: 10, failed: 1, errors: [{ id: "r1", detail: "not found" }] }
const finished = (found: Option.Option<JobInfo>) => Option.exists(found, (info) => info.status === "finished")

for (const backend of backends) {
  describe(backend, () => {
    layer(SuiteLive(backend), { excludeTestServices: true, timeout: 120_000 })("job progress", (it) => {
      it.scoped("a running handler's reports are returned with the job, the last one once it has finished", () =>
        Effect.gen(function*() {
          const reported = yield* Deferred.make<string>()
          const release = yield* Deferred.make<void>()
          const handlers = Effect.all([
            jobHandler("reports", Schema.Unknown, () =>
              Effect.gen(function*() {
                const job = yield* CurrentJob
                yield* job.report(halfway)
                yield* Deferred.succeed(reported, job.id)
                yield* Deferred.await(release)
                yield* job.report(done)
              }))
          ])
          const { queue } = yield* startProcess(handlers, 1)
          const id = yield* queue.enqueue("default", "reports", {}, { startedBy: "user-1" })
          expect(yield* Deferred.await(reported)).toBe(id)
          expect(yield* queue.lookup(id)).toEqual(
            Option.some({ status: "started", progress: Option.some(halfway), startedBy: Option.some("user-1") })
          )
          yield* Deferred.succeed(release, undefined)
          const last = yield* eventually(queue.lookup(id), finished, "finished")
          expect(last).toEqual(Option.some({ status: "finished", progress: Option.some(done), startedBy: Option.some("user-1") }))
        }))

      it.scoped("a job that reports nothing, started by no user, has neither; an unknown id is none", () =>
        Effect.gen(function*() {
          const handlers = Effect.all([jobHandler("silent", Schema.Unknown, () => Effect.void)])
          const { queue } = yield* startProcess(handlers, 1)
          const id = yield* queue.enqueue("default", "silent", {})
          const last = yield* eventually(queue.lookup(id), finished, "finished")
          expect(last).toEqual(Option.some({ status: "finished", progress: Option.none(), startedBy: Option.none() }))
          expect(yield* queue.lookup(crypto.randomUUID())).toEqual(Option.none())
        }))
    })
  })
}
