/**
 * What only the embedded queue has to get right itself (BullMQ does it for Redis): leases, heartbeats, handing a
 * job back on shutdown, and removing old jobs.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Deferred, Duration, Effect, Exit, Option, Ref, Schema, Scope } from "effect"
import { DbInt } from "../../src/codecs/columns.js"
import { jobHandler } from "../../src/services/jobs/JobHandlers.js"
import { SqlJobsRepo } from "../../src/services/jobs/SqlJobsRepo.js"
import { embeddedBackends, eventually, startProcess, SuiteLive } from "./support/backends.js"

const is = (status: string) => (found: Option.Option<string>) => Option.contains(found, status)

const counting = (name: string, calls: Ref.Ref<number>, work: Effect.Effect<void> = Effect.void) =>
  Effect.all([jobHandler(name, Schema.Unknown, () => Effect.zipRight(Ref.update(calls, (n) => n + 1), work))])

const attemptsMade = (context: Context.Context<SqlClient.SqlClient>, id: string) =>
  Effect.flatMap(
    Context.get(context, SqlClient.SqlClient)<{ readonly attempts_made: unknown }>`select attempts_made from jobs where id = ${id}`,
    (rows) => Schema.decodeUnknown(DbInt)(rows[0]?.attempts_made)
  )

/** What a worker that dies right after claiming leaves behind: a `started` job with a lease that runs out. */
const crashedClaim = (context: Context.Context<SqlJobsRepo>, id: string, leaseMillis: number) =>
  Effect.gen(function*() {
    const now = Date.now()
    const claimed = yield* Context.get(context, SqlJobsRepo).claim({
      now,
      until: now + leaseMillis,
      token: "crashed-worker",
      at: new Date(now)
    })
    expect(Option.map(claimed, (job) => job.id)).toEqual(Option.some(id))
  })

for (const dialect of embeddedBackends) {
  describe(dialect, () => {
    layer(SuiteLive(dialect, { lease: Duration.millis(300) }), { excludeTestServices: true, timeout: 60_000 })(
      "embedded queue",
      (it) => {
        it.scoped("a crashed worker's job is taken over once its lease expires, as a new attempt", () =>
          Effect.gen(function*() {
            const calls = yield* Ref.make(0)
            const handlers = counting("recover", calls)
            const { context, queue } = yield* startProcess(handlers, 0)
            const id = yield* queue.enqueue("default", "recover", {})
            yield* crashedClaim(context, id, 300)
            expect(yield* queue.status(id)).toEqual(Option.some("started"))
            yield* startProcess(handlers, 1)
            yield* eventually(queue.status(id), is("finished"), "finished")
            expect(yield* Ref.get(calls)).toBe(1)
            expect(yield* attemptsMade(context, id)).toBe(2)
          }))

        it.scoped("a job whose last attempt's worker crashed ends failed without running again", () =>
          Effect.gen(function*() {
            const calls = yield* Ref.make(0)
            const handlers = counting("crashes-last", calls)
            const { context, queue } = yield* startProcess(handlers, 0)
            const id = yield* queue.enqueue("default", "crashes-last", {}, { attempts: 1 })
            yield* crashedClaim(context, id, 300)
            yield* startProcess(handlers, 1)
            yield* eventually(queue.status(id), is("failed"), "failed")
            expect(yield* Ref.get(calls)).toBe(0)
          }))

        it.scoped("stopping a process hands its running job back, without counting the attempt", () =>
          Effect.gen(function*() {
            const started = yield* Deferred.make<void>()
            const blocking = Effect.all([
              jobHandler("handed-back", Schema.Unknown, () => Effect.zipRight(Deferred.succeed(started, undefined), Effect.never))
            ])
            const { context, queue } = yield* startProcess(blocking, 0)
            const id = yield* queue.enqueue("default", "handed-back", {}, { attempts: 1 })
            const scope = yield* Scope.make()
            yield* startProcess(blocking, 1, scope)
            yield* Deferred.await(started)
            yield* Scope.close(scope, Exit.void)
            expect(yield* queue.status(id)).toEqual(Option.some("queued"))
            expect(yield* attemptsMade(context, id)).toBe(0)

            const calls = yield* Ref.make(0)
            yield* startProcess(counting("handed-back", calls), 1)
            yield* eventually(queue.status(id), is("finished"), "finished")
            expect(yield* Ref.get(calls)).toBe(1)
          }))
      }
    )

    // A lease of its own: at 300 ms a heartbeat every 100 ms must land within 200 ms, which a full test run's load (a
    // load average near ten on two cores) sometimes missed on PostgreSQL, and the job then ran twice. At 1.5 s a
    // heartbeat may take a second, and the job still outlives its lease three times over.
    layer(SuiteLive(dialect, { lease: Duration.millis(1500) }), { excludeTestServices: true, timeout: 60_000 })(
      "embedded queue heartbeats",
      (it) => {
        it.scoped("a job running longer than its lease keeps it: another process does not run it too", () =>
          Effect.gen(function*() {
            const calls = yield* Ref.make(0)
            const handlers = counting("slow", calls, Effect.sleep("4500 millis"))
            const { queue } = yield* startProcess(handlers, 1)
            yield* startProcess(handlers, 1)
            const id = yield* queue.enqueue("default", "slow", {})
            yield* eventually(queue.status(id), is("finished"), "finished")
            expect(yield* Ref.get(calls)).toBe(1)
          }))
      }
    )

    layer(SuiteLive(dialect, { keepFinished: Duration.zero }), { excludeTestServices: true, timeout: 60_000 })(
      "embedded queue retention",
      (it) => {
        it.scoped("finished jobs are removed once their retention has passed (their status becomes unknown)", () =>
          Effect.gen(function*() {
            const calls = yield* Ref.make(0)
            const handlers = counting("short-lived", calls)
            const { queue } = yield* startProcess(handlers, 0)
            const id = yield* queue.enqueue("default", "short-lived", {})
            const scope = yield* Scope.make()
            yield* startProcess(handlers, 1, scope)
            yield* eventually(queue.status(id), is("finished"), "finished")
            yield* Scope.close(scope, Exit.void)
            yield* Effect.sleep("5 millis")
            // Workers clean up when they start, then every few minutes.
            yield* startProcess(handlers, 1)
            yield* eventually(queue.status(id), Option.isNone, "removed")
          }))
      }
    )
  })
}
