/**
 * The job queue's contract, the same on every implementation: the embedded queue (SQLite, PostgreSQL) and Redis
 * (standalone, three-node cluster).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Deferred, Effect, Exit, Option, Ref, Schema, Scope } from "effect"
import { jobHandler, UnrecoverableJobError } from "../../src/services/jobs/JobHandlers.js"
import { backends, eventually, startProcess, SuiteLive } from "./support/backends.js"

const noHandlers = Effect.succeed([])
const is = (status: string) => (found: Option.Option<string>) => Option.contains(found, status)

for (const backend of backends) {
  describe(backend, () => {
    layer(SuiteLive(backend), { excludeTestServices: true, timeout: 120_000 })("job queue", (it) => {
      it.scoped("a job is queued, started while its handler runs, then finished", () =>
        Effect.gen(function*() {
          const started = yield* Deferred.make<number>()
          const release = yield* Deferred.make<void>()
          const handlers = Effect.all([
            jobHandler("lifecycle", Schema.Struct({ n: Schema.Number }), ({ n }) =>
              Effect.zipRight(Deferred.succeed(started, n), Deferred.await(release)))
          ])
          const { queue } = yield* startProcess(handlers, 0)
          const id = yield* queue.enqueue("default", "lifecycle", { n: 7 })
          expect(yield* queue.status(id)).toEqual(Option.some("queued"))

          yield* startProcess(handlers, 1)
          expect(yield* Deferred.await(started)).toBe(7)
          expect(yield* queue.status(id)).toEqual(Option.some("started"))
          yield* Deferred.succeed(release, undefined)
          yield* eventually(queue.status(id), is("finished"), "finished")
        }))

      it.scoped("stopping a process lets its running job finish first (within the grace period)", () =>
        Effect.gen(function*() {
          const started = yield* Deferred.make<void>()
          const done = yield* Ref.make(false)
          const handlers = Effect.all([
            jobHandler("finishes-on-shutdown", Schema.Unknown, () =>
              Deferred.succeed(started, undefined).pipe(
                Effect.zipRight(Effect.sleep("300 millis")),
                Effect.zipRight(Ref.set(done, true))
              ))
          ])
          const { queue } = yield* startProcess(handlers, 0)
          const scope = yield* Scope.make()
          yield* startProcess(handlers, 1, scope)
          const id = yield* queue.enqueue("default", "finishes-on-shutdown", {})
          yield* Deferred.await(started)
          yield* Scope.close(scope, Exit.void)
          expect(yield* Ref.get(done)).toBe(true)
          expect(yield* queue.status(id)).toEqual(Option.some("finished"))
        }))

      it.scoped("an unknown id has no status", () =>
        Effect.gen(function*() {
          const { queue } = yield* startProcess(noHandlers, 0)
          expect(yield* queue.status(crypto.randomUUID())).toEqual(Option.none())
          expect(yield* queue.status("not-a-job")).toEqual(Option.none())
        }))

      it.scoped("a failed attempt waits out its back-off as `scheduled`", () =>
        Effect.gen(function*() {
          const calls = yield* Ref.make(0)
          const handlers = Effect.all([
            jobHandler("fails-once", Schema.Unknown, () => Effect.zipRight(Ref.update(calls, (n) => n + 1), Effect.fail("boom")))
          ])
          const { queue } = yield* startProcess(handlers, 1)
          const id = yield* queue.enqueue("default", "fails-once", {}, { attempts: 2, backoff: "1 hour" })
          yield* eventually(queue.status(id), is("scheduled"), "scheduled")
          expect(yield* Ref.get(calls)).toBe(1)
        }))

      it.scoped("a job that keeps failing is retried with exponential back-off, then ends failed", () =>
        Effect.gen(function*() {
          const starts = yield* Ref.make<ReadonlyArray<number>>([])
          const handlers = Effect.all([
            jobHandler("always-fails", Schema.Unknown, () =>
              Effect.zipRight(Ref.update(starts, (s) => [...s, Date.now()]), Effect.fail("boom")))
          ])
          const { queue } = yield* startProcess(handlers, 1)
          const id = yield* queue.enqueue("default", "always-fails", {}, { attempts: 3, backoff: "100 millis" })
          yield* eventually(queue.status(id), is("failed"), "failed")
          const [first = 0, second = 0, third = 0, ...more] = yield* Ref.get(starts)
          expect(more).toEqual([])
          // The back-off is a minimum wait: 100 ms before the second attempt, 200 ms before the third.
          expect(second - first).toBeGreaterThanOrEqual(100)
          expect(third - second).toBeGreaterThanOrEqual(200)
        }))

      it.scoped("a job that fails twice and then succeeds ends finished", () =>
        Effect.gen(function*() {
          const calls = yield* Ref.make(0)
          const handlers = Effect.all([
            jobHandler("flaky", Schema.Unknown, () =>
              Effect.flatMap(Ref.updateAndGet(calls, (n) => n + 1), (n) => n < 3 ? Effect.fail("not yet") : Effect.void))
          ])
          const { queue } = yield* startProcess(handlers, 1)
          const id = yield* queue.enqueue("high", "flaky", null, { attempts: 5 })
          yield* eventually(queue.status(id), is("finished"), "finished")
          expect(yield* Ref.get(calls)).toBe(3)
        }))

      it.scoped("an invalid payload fails at once, without retries; so does an unrecoverable error", () =>
        Effect.gen(function*() {
          const calls = yield* Ref.make(0)
          const count = Ref.update(calls, (n) => n + 1)
          const handlers = Effect.all([
            jobHandler("typed", Schema.Struct({ n: Schema.Number }), () => count),
            jobHandler("gives-up", Schema.Unknown, () =>
              Effect.zipRight(count, new UnrecoverableJobError({ message: "this can never work" })))
          ])
          const { queue } = yield* startProcess(handlers, 1)
          // With an hour of back-off, a retry would leave the job `scheduled`, never `failed`.
          const options = { attempts: 3, backoff: "1 hour" } as const
          const invalid = yield* queue.enqueue("default", "typed", { n: "seven" }, options)
          yield* eventually(queue.status(invalid), is("failed"), "failed")
          expect(yield* Ref.get(calls)).toBe(0)
          const givesUp = yield* queue.enqueue("default", "gives-up", {}, options)
          yield* eventually(queue.status(givesUp), is("failed"), "failed")
          expect(yield* Ref.get(calls)).toBe(1)
        }))

      it.scoped("a job nobody handles is retried like a failure, then ends failed", () =>
        Effect.gen(function*() {
          const { queue } = yield* startProcess(noHandlers, 1)
          const id = yield* queue.enqueue("default", "nobody-handles-this", {}, { attempts: 2 })
          yield* eventually(queue.status(id), is("failed"), "failed")
        }))

      it.scoped("`high` jobs are served before `default` ones", () =>
        Effect.gen(function*() {
          const order = yield* Ref.make<ReadonlyArray<string>>([])
          const handlers = Effect.all([
            jobHandler("ordered", Schema.Struct({ label: Schema.String }), ({ label }) =>
              Ref.update(order, (o) => [...o, label]))
          ])
          const { queue } = yield* startProcess(handlers, 0)
          for (const label of ["d1", "d2", "d3", "d4"]) yield* queue.enqueue("default", "ordered", { label })
          for (const label of ["h1", "h2", "h3", "h4"]) yield* queue.enqueue("high", "ordered", { label })
          yield* startProcess(handlers, 1)
          const done = yield* eventually(Ref.get(order), (o) => o.length === 8, "all 8 jobs")
          expect(done).toEqual(["h1", "h2", "h3", "h4", "d1", "d2", "d3", "d4"])
        }))

      it.scoped("two processes with two workers each run every one of many jobs exactly once", () =>
        Effect.gen(function*() {
          const runs = new Map<number, number>()
          const handlers = Effect.all([
            jobHandler("count", Schema.Struct({ n: Schema.Number }), ({ n }) =>
              Effect.sync(() => runs.set(n, (runs.get(n) ?? 0) + 1)).pipe(
                // A little work, so that claims and completions of different workers interleave.
                Effect.zipRight(Effect.sleep(`${n % 3} millis`))
              ))
          ])
          const total = 150
          const { queue } = yield* startProcess(handlers, 0)
          const ids: Array<string> = []
          const enqueue = (n: number) => queue.enqueue(n % 2 === 0 ? "high" : "default", "count", { n })
          for (let n = 0; n < total / 2; n++) ids.push(yield* enqueue(n))
          yield* startProcess(handlers, 2)
          yield* startProcess(handlers, 2)
          for (let n = total / 2; n < total; n++) ids.push(yield* enqueue(n))

          yield* eventually(Effect.sync(() => runs.size), (size) => size === total, `${total} jobs to run`)
          for (const id of ids) yield* eventually(queue.status(id), is("finished"), `job ${id} to finish`)
          expect([...runs.values()].filter((count) => count !== 1)).toEqual([])
        }))
    })
  })
}
