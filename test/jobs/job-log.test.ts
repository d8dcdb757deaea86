/**
 * What workers say about the jobs they run, on every queue: one line per attempt with the job's name, id and attempt
 * number, so a job that ran twice (a retry, a redelivery) leaves two lines.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Option, Ref, Schema } from "effect"
import { jobHandler } from "../../src/services/jobs/JobHandlers.js"
import { startLine } from "../../src/services/jobs/runJob.js"
import { backends, eventually, processLayer, startProcess, Suite, SuiteLive } from "./support/backends.js"

const is = (status: string) => (found: Option.Option<string>) => Option.contains(found, status)

for (const backend of backends) {
  describe(backend, () => {
    layer(SuiteLive(backend), { excludeTestServices: true, timeout: 120_000 })("job log", (it) => {
      it.scoped("each attempt of a job is logged with its name, id and attempt; a retry has a line of its own", () =>
        Effect.gen(function*() {
          const lines: Array<string> = []
          // Added, not replacing the default logger: @effect/vitest removes that one.
          const capture = Logger.add(
            Logger.make(({ message }) => lines.push((Array.isArray(message) ? message : [message]).map(String).join(" ")))
          )
          const runs = yield* Ref.make(0)
          const handlers = Effect.all([
            jobHandler("fails-once", Schema.Unknown, () =>
              Effect.flatMap(Ref.updateAndGet(runs, (n) => n + 1), (n) => n === 1 ? Effect.fail("first try fails") : Effect.void))
          ])
          const { queue } = yield* startProcess(handlers, 0)
          const suite = yield* Suite
          // Its workers' fibers are forked while it is built: they keep the logger of the fiber that built them.
          yield* Layer.build(processLayer(suite, handlers, 1, Layer.empty)).pipe(
            Effect.provide(Layer.merge(capture, Logger.minimumLogLevel(LogLevel.Info)))
          )
          const id = yield* queue.enqueue("default", "fails-once", {})
          yield* eventually(queue.status(id), is("finished"), "finished")
          const attempt = (n: number) => startLine({ id, name: "fails-once", payload: {}, attempt: n, maxAttempts: 4 })
          expect(attempt(2)).toBe(`Running job fails-once ${id} (attempt 2 of 4)`)
          expect(lines.filter((line) => line.includes(id) && line.startsWith("Running job"))).toEqual([attempt(1), attempt(2)])
        }))
    })
  })
}

describe("the start line", () => {
  it("says when a job was handed out again because its worker stopped", () => {
    expect(startLine({ id: "j1", name: "deliver", payload: null, attempt: 1, maxAttempts: 4, redelivered: true })).toBe(
      "Running job deliver j1 (attempt 1 of 4, redelivered: the worker that had it stopped)"
    )
  })
})
