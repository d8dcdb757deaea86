/**
 * What a worker runs for each job name: an immutable map built from layers at start-up, so every handler is in
 * place before the first job is claimed, and a handler's own requirements (services, clients) show up in the
 * type of the layer that registers it. See README.md in this folder for how a feature adds one.
 */
import { Context, Data, Effect, Layer, Schema } from "effect"
import type { JobProgress } from "../../domain/Job.js"

/** Fail a handler with this to skip the remaining retries: the job ends `failed` at once. */
export class UnrecoverableJobError extends Data.TaggedError("UnrecoverableJobError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export interface CurrentJobShape {
  readonly id: string
  /**
   * Stores how far the job has got, which `GET /jobs/{id}` then shows. Best effort: a report that cannot be stored
   * is logged, never a failure of the job.
   */
  readonly report: (progress: JobProgress) => Effect.Effect<void>
}

/**
 * The job a handler is running, provided by the workers of either queue for each attempt. Outside a worker (a
 * handler called directly, in tests) it is a job without an id whose reports go nowhere.
 */
export class CurrentJob extends Context.Reference<CurrentJob>()("Gloss/CurrentJob", {
  defaultValue: (): CurrentJobShape => ({ id: "", report: () => Effect.void })
}) {}

/** A registered handler: the payload arrives as decoded JSON; its requirements were provided at registration. */
export interface JobHandler {
  readonly name: string
  readonly run: (payload: unknown) => Effect.Effect<void, unknown>
}

/**
 * Declares the handler of jobs named `name`. The payload is decoded with `payload` first; a payload that does not
 * decode can never succeed, so it fails the job without retries. Success values are ignored (the contract exposes
 * only a job's status).
 */
export const jobHandler = <A, I, E, R>(
  name: string,
  payload: Schema.Schema<A, I>,
  run: (payload: A) => Effect.Effect<unknown, E, R>
): Effect.Effect<JobHandler, never, R> =>
  Effect.map(Effect.context<R>(), (context) => ({
    name,
    run: (raw: unknown) =>
      Schema.decodeUnknown(payload)(raw).pipe(
        Effect.mapError((error) =>
          new UnrecoverableJobError({ message: `job \`${name}\` got an invalid payload: ${error.message}`, cause: error })
        ),
        Effect.flatMap(run),
        Effect.asVoid,
        Effect.provide(context)
      )
  }))

export class JobHandlers extends Context.Tag("Gloss/JobHandlers")<JobHandlers, ReadonlyMap<string, JobHandler>>() {
  /**
   * The registry from a list of handlers: `JobHandlers.layer(Effect.all([deliverWebhook, recomputeStatus]))`
   * (`Effect.all` keeps the union of their requirements). A name registered twice is a programming error.
   */
  static readonly layer = <R>(
    handlers: Effect.Effect<ReadonlyArray<JobHandler>, never, R>
  ): Layer.Layer<JobHandlers, never, R> =>
    Layer.effect(
      JobHandlers,
      Effect.flatMap(handlers, (list) => {
        const byName = new Map(list.map((handler) => [handler.name, handler]))
        return byName.size === list.length
          ? Effect.succeed(byName)
          : Effect.dieMessage(`Job handler names must be unique: ${list.map((h) => h.name).join(", ")}`)
      })
    )
}
