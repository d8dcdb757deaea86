/**
 * Calls into a worker thread that runs an eval'd CommonJS string (so that it needs no file of its own beside the
 * bundle): each call posts `{ id, ...message }` and waits for the `{ id, result }` or `{ id, error }` with its id.
 * The built-in engine's SQLite reader and its ANN vector index both run this way.
 */
import { Worker } from "node:worker_threads"
import { Data, Effect, type Scope } from "effect"

/** The worker failed the call, or died (or was stopped) while running it. */
export class WorkerCallError extends Data.TaggedError("WorkerCallError")<{ readonly message: string }> {}

type Reply = { readonly id: number; readonly result?: unknown; readonly error?: string }

export interface WorkerCalls {
  readonly call: (message: object, transfer?: ReadonlyArray<ArrayBuffer>) => Effect.Effect<unknown, WorkerCallError>
  /** How many workers have been started so far: a call's state in a worker is lost when this changes. */
  readonly generation: () => number
}

/**
 * A worker running `source`, started on first call and stopped with the scope. A worker that dies fails the calls
 * it was running; the next call starts a new one (with a new generation).
 */
export const makeWorkerCalls = (
  options: { readonly name: string; readonly source: string; readonly workerData: unknown }
): Effect.Effect<WorkerCalls, never, Scope.Scope> =>
  Effect.gen(function*() {
    const pending = new Map<number, (reply: Reply) => void>()
    let worker: Worker | undefined
    let nextId = 0
    let started = 0

    const failAll = (message: string) => {
      for (const [id, resume] of pending) resume({ id, error: message })
      pending.clear()
    }
    const start = () => {
      const running = new Worker(options.source, { eval: true, workerData: options.workerData })
      started++
      // The worker must not keep a finished process alive; it is stopped with the scope in any case.
      running.unref()
      running.on("message", (reply: Reply) => {
        const resume = pending.get(reply.id)
        pending.delete(reply.id)
        resume?.(reply)
      })
      running.on("error", (error) => failAll(`${options.name} failed: ${error.message}`))
      running.on("exit", () => {
        if (worker === running) worker = undefined
        failAll(`${options.name} exited`)
      })
      return running
    }

    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        const running = worker
        worker = undefined
        if (running !== undefined) await running.terminate()
      })
    )

    const call = (message: object, transfer: ReadonlyArray<ArrayBuffer> = []) =>
      Effect.async<unknown, WorkerCallError>((resume) => {
        const id = nextId++
        pending.set(id, (reply) =>
          resume(
            reply.error === undefined ? Effect.succeed(reply.result) : Effect.fail(new WorkerCallError({ message: reply.error }))
          ))
        worker ??= start()
        worker.postMessage({ ...message, id }, [...transfer])
        // An interrupted call still runs to its end in the worker; only its answer is dropped.
        return Effect.sync(() => pending.delete(id))
      })

    return { call, generation: () => started } satisfies WorkerCalls
  })
