/**
 * Calls into a worker thread that runs an eval'd CommonJS string (so that it needs no file of its own beside the
 * bundle): each call posts `{ id, ...message }` and waits for the `{ id, result }` or `{ id, error }` with its id.
 * The built-in engine's SQLite reader and its ANN vector index both run this way.
 */
import { Worker } from "node:worker_threads"
import { Data, Effect, type Scope } from "effect"

/** The worker failed the call, or died (or was stopped) while running it. */
export class WorkerCallError extends Data.TaggedError("WorkerCallError")<{ readonly message: string }> {}

/** `running`: the worker has begun the call (a notice, before the answer), for workers that send it. */
type Reply = { readonly id: number; readonly result?: unknown; readonly error?: string; readonly running?: true }

export interface WorkerCalls {
  readonly call: (message: object, transfer?: ReadonlyArray<ArrayBuffer>) => Effect.Effect<unknown, WorkerCallError>
  /** How many workers have been started so far: a call's state in a worker is lost when this changes. */
  readonly generation: () => number
  /** Workers stopped because a call was interrupted that have not ended yet (see `stopOnInterrupt`). */
  readonly draining: () => number
  /** Calls the worker said it has begun (`{ id, running: true }`) and not yet answered. */
  readonly running: () => number
}

export interface WorkerCallsOptions {
  readonly name: string
  readonly source: string
  readonly workerData: unknown
  /**
   * An interrupted call stops its worker (the next call starts a new one) rather than letting it run to its end:
   * for workers that hold no state worth keeping and run one call at a time, whose call may run for long (a
   * search). A worker inside a native call (a SQLite statement) ends only when that call returns to JavaScript: a
   * new worker starts while at most `maxDraining` stopped ones are still ending, else the call waits for one to end.
   */
  readonly stopOnInterrupt?: { readonly maxDraining: number } | undefined
}

/** One started worker and the calls waiting for its answers. */
interface Running {
  readonly worker: Worker
  readonly pending: Map<number, (reply: Reply) => void>
  readonly begun: Set<number>
}

/**
 * A worker running `source`, started on first call and stopped with the scope. A worker that dies fails the calls
 * it was running; the next call starts a new one (with a new generation).
 */
export const makeWorkerCalls = (options: WorkerCallsOptions): Effect.Effect<WorkerCalls, never, Scope.Scope> =>
  Effect.gen(function*() {
    let current: Running | undefined
    let nextId = 0
    let started = 0
    /** The exits of stopped workers that are still running their last call. */
    const draining = new Set<Promise<void>>()

    const failAll = (running: Running, message: string) => {
      for (const [id, resume] of running.pending) resume({ id, error: message })
      running.pending.clear()
      running.begun.clear()
    }
    const start = (): Running => {
      const running: Running = {
        worker: new Worker(options.source, { eval: true, workerData: options.workerData }),
        pending: new Map(),
        begun: new Set()
      }
      started++
      // The worker must not keep a finished process alive; it is stopped with the scope in any case.
      running.worker.unref()
      running.worker.on("message", (reply: Reply) => {
        if (reply.running === true) {
          if (running.pending.has(reply.id)) running.begun.add(reply.id)
          return
        }
        running.begun.delete(reply.id)
        const resume = running.pending.get(reply.id)
        running.pending.delete(reply.id)
        resume?.(reply)
      })
      running.worker.on("error", (error) => failAll(running, `${options.name} failed: ${error.message}`))
      running.worker.on("exit", () => {
        if (current === running) current = undefined
        failAll(running, `${options.name} exited`)
      })
      return running
    }
    /** Stops a worker whose call was abandoned; it ends when its native call returns, if it is in one. */
    const stop = (running: Running) => {
      if (current === running) current = undefined
      failAll(running, `${options.name} was stopped`)
      const exited: Promise<void> = running.worker.terminate().then(() => undefined, () => undefined)
        .finally(() => draining.delete(exited))
      draining.add(exited)
    }

    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        const running = current
        current = undefined
        // Draining workers are not waited for: they are unref'd, and end on their own when their statement does.
        if (running !== undefined) await running.worker.terminate()
      })
    )

    const post = (message: object, transfer: ReadonlyArray<ArrayBuffer>) =>
      Effect.async<unknown, WorkerCallError>((resume) => {
        const id = nextId++
        const running = (current ??= start())
        running.pending.set(id, (reply) =>
          resume(
            reply.error === undefined ? Effect.succeed(reply.result) : Effect.fail(new WorkerCallError({ message: reply.error }))
          ))
        running.worker.postMessage({ ...message, id }, [...transfer])
        return Effect.sync(() => {
          // Answered already: nothing runs any more.
          running.begun.delete(id)
          if (!running.pending.delete(id)) return
          // Otherwise the call still runs to its end in the worker, and only its answer is dropped; unless the
          // worker is to stop, for a call that may run for long (see `stopOnInterrupt`).
          if (options.stopOnInterrupt !== undefined) stop(running)
        })
      })

    /** Until at most `maxDraining` stopped workers are still running, so that abandoned calls cannot pile up. */
    const room = (maxDraining: number): Effect.Effect<void> =>
      Effect.suspend(() =>
        draining.size <= maxDraining ? Effect.void : Effect.zipRight(Effect.promise(() => Promise.race(draining)), room(maxDraining))
      )

    const call = (message: object, transfer: ReadonlyArray<ArrayBuffer> = []) =>
      Effect.suspend(() =>
        options.stopOnInterrupt === undefined || current !== undefined
          ? post(message, transfer)
          : Effect.zipRight(room(options.stopOnInterrupt.maxDraining), post(message, transfer))
      )

    return {
      call,
      generation: () => started,
      draining: () => draining.size,
      running: () => current?.begun.size ?? 0
    } satisfies WorkerCalls
  })
