/**
 * Calls into a worker thread (its module found by workerModule.ts, its side in serve.ts): each call posts
 * `{ id, request }` and waits for the reply with its id (protocol.ts). The built-in engine's SQLite reader and its
 * ANN vector index both run this way; each types its requests and results in a protocol module both ends import.
 */
import { Worker } from "node:worker_threads"
import { Data, Effect, type Scope } from "effect"
import type { Posted, Reply } from "./protocol.js"
import type { WorkerModule } from "./workerModule.js"

/** The worker failed the call, or died (or was stopped) while running it. */
export class WorkerCallError extends Data.TaggedError("WorkerCallError")<{ readonly message: string }> {}

export interface WorkerCalls<Request, Result> {
  readonly call: (request: Request, transfer?: ReadonlyArray<ArrayBuffer>) => Effect.Effect<Result, WorkerCallError>
  /** How many workers have been started so far: a call's state in a worker is lost when this changes. */
  readonly generation: () => number
  /** Workers stopped because a call was interrupted that have not ended yet (see `stopOnInterrupt`). */
  readonly draining: () => number
  /** Calls the worker said it has begun (`{ id, running: true }`) and not yet answered. */
  readonly running: () => number
}

export interface WorkerCallsOptions {
  readonly name: string
  readonly module: WorkerModule
  readonly workerData: unknown
  /**
   * An interrupted call stops its worker (the next call starts a new one) rather than letting it run to its end:
   * for workers that hold no state worth keeping and run one call at a time, whose call may run for long (a
   * search). A worker inside a native call (a SQLite statement) ends only when that call returns to JavaScript: a
   * new worker starts while at most `maxDraining` stopped ones are still ending, else the call waits for one to end.
   */
  readonly stopOnInterrupt?: { readonly maxDraining: number } | undefined
}

/** A call's answer: its result or the failure's message. */
type Answer<Result> = { readonly result: Result } | { readonly error: string }

/** One started worker and the calls waiting for its answers. */
interface Running<Result> {
  readonly worker: Worker
  readonly pending: Map<number, (answer: Answer<Result>) => void>
  readonly begun: Set<number>
}

/**
 * A worker running `source`, started on first call and stopped with the scope. A worker that dies fails the calls
 * it was running; the next call starts a new one (with a new generation).
 */
export const makeWorkerCalls = <Request, Result>(
  options: WorkerCallsOptions
): Effect.Effect<WorkerCalls<Request, Result>, never, Scope.Scope> =>
  Effect.gen(function*() {
    let current: Running<Result> | undefined
    let nextId = 0
    let started = 0
    /** The exits of stopped workers that are still running their last call. */
    const draining = new Set<Promise<void>>()

    const failAll = (running: Running<Result>, message: string) => {
      for (const resume of running.pending.values()) resume({ error: message })
      running.pending.clear()
      running.begun.clear()
    }
    const start = (): Running<Result> => {
      const running: Running<Result> = {
        worker: new Worker(options.module.url, { workerData: options.module.workerData(options.workerData) }),
        pending: new Map(),
        begun: new Set()
      }
      started++
      // The worker must not keep a finished process alive; it is stopped with the scope in any case.
      running.worker.unref()
      running.worker.on("message", (reply: Reply<Result>) => {
        if ("running" in reply) {
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
    const stop = (running: Running<Result>) => {
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

    const post = (request: Request, transfer: ReadonlyArray<ArrayBuffer>) =>
      Effect.async<Result, WorkerCallError>((resume) => {
        const id = nextId++
        const running = (current ??= start())
        running.pending.set(id, (answer) =>
          resume("error" in answer ? Effect.fail(new WorkerCallError({ message: answer.error })) : Effect.succeed(answer.result)))
        running.worker.postMessage({ id, request } satisfies Posted<Request>, [...transfer])
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

    const call = (request: Request, transfer: ReadonlyArray<ArrayBuffer> = []) =>
      Effect.suspend(() =>
        options.stopOnInterrupt === undefined || current !== undefined
          ? post(request, transfer)
          : Effect.zipRight(room(options.stopOnInterrupt.maxDraining), post(request, transfer))
      )

    return {
      call,
      generation: () => started,
      draining: () => draining.size,
      running: () => current?.begun.size ?? 0
    } satisfies WorkerCalls<Request, Result>
  })
