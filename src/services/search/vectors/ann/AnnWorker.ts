/**
 * The main thread's side of the ANN index worker (annIndex.worker.ts): one call per operation of `AnnCalls`, each a
 * span (`AnnWorker.<op>`), so that a trace shows a search that waited for the worker behind a batch of adds. A set
 * is named by the caller (annSets.ts).
 */
import { Effect, Schema, type Scope } from "effect"
import { makeWorkerCalls, type WorkerCallError } from "../../workers/WorkerCalls.js"
import { workerModule } from "../../workers/workerModule.js"
import { type AnnCalls, type AnnOp, type AnnRequest, type AnnWorkerData, SegmentFile, SetState } from "./annProtocol.js"
import { CONNECTIVITY, EXPANSION_ADD, EXPANSION_SEARCH, SEALED_EXPANSION } from "./segments.js"

export interface AnnWorker {
  /** A new, empty set. */
  readonly create: (set: string, dimensions: number) => Effect.Effect<SetState, WorkerCallError>
  /** A set from saved files, each checked against its checksum first; fails when one is missing or differs. */
  readonly open: (
    set: string,
    dimensions: number,
    files: { readonly sealed: ReadonlyArray<SegmentFile>; readonly delta: SegmentFile | null }
  ) => Effect.Effect<SetState, WorkerCallError>
  /** Adds (or replaces) vectors: `vectors` holds `keys.length` unit vectors, one after the other; it is transferred. */
  readonly add: (set: string, keys: Float64Array, vectors: Float32Array, threads: number) => Effect.Effect<SetState, WorkerCallError>
  /**
   * Stages vectors (`keys.length` unit vectors, transferred) for a first build: searched exactly at once, added to
   * the graph by `addStaged`. They are written to `path` (a file the set removes once they are all added, or when it
   * is closed), or kept in memory when it is null. A key added by `add` meanwhile is not added again from here.
   */
  readonly stage: (set: string, keys: Float64Array, vectors: Float32Array, path: string | null) => Effect.Effect<SetState, WorkerCallError>
  /** Adds up to `count` of the staged vectors, in the order they were staged. */
  readonly addStaged: (set: string, count: number, threads: number) => Effect.Effect<SetState, WorkerCallError>
  /** Saves the delta to `path` and serves it memory-mapped from there on, with a new empty delta. */
  readonly seal: (set: string, path: string) => Effect.Effect<SetState & { readonly file: SegmentFile }, WorkerCallError>
  /** Saves the delta to `path` (nothing when it is empty). */
  readonly saveDelta: (set: string, path: string) => Effect.Effect<SegmentFile | null, WorkerCallError>
  /** The keys of the `k` nearest vectors (by cosine), nearest first: `k` of them whenever the set holds `k`. */
  readonly search: (set: string, vector: Float32Array, k: number) => Effect.Effect<Float64Array, WorkerCallError>
  readonly close: (set: string) => Effect.Effect<void, WorkerCallError>
  /** Changes when the worker was restarted (it died): the sets it held are gone. */
  readonly generation: () => number
}

const decodeState = Schema.decodeUnknown(SetState)
const decodeSealed = Schema.decodeUnknown(Schema.Struct({ ...SetState.fields, file: SegmentFile }))
const decodeSaved = Schema.decodeUnknown(Schema.NullOr(SegmentFile))
const decodeFound = Schema.decodeUnknown(Schema.Struct({ keys: Schema.instanceOf(Float64Array) }))

/**
 * Both ends compile against `AnnCalls`; the replies are still decoded, because they crossed a thread by structured
 * clone. One of the wrong shape is a bug in the worker, not a failure to handle.
 */
const checked = <A>(decode: (reply: unknown) => Effect.Effect<A, unknown>) => (reply: unknown) => Effect.orDie(decode(reply))

export const makeAnnWorker: Effect.Effect<AnnWorker, never, Scope.Scope> = Effect.gen(function*() {
  const worker = yield* makeWorkerCalls<AnnRequest, unknown>({
    name: "vector index worker",
    module: workerModule("ann-index", new URL("./annIndex.worker.ts", import.meta.url)),
    workerData: {
      connectivity: CONNECTIVITY,
      expansionAdd: EXPANSION_ADD,
      expansionSearch: EXPANSION_SEARCH,
      sealedExpansion: SEALED_EXPANSION
    } satisfies AnnWorkerData
  })
  const call = <Op extends AnnOp>(op: Op, args: AnnCalls[Op]["args"], transfer: ReadonlyArray<ArrayBuffer> = []) =>
    worker.call({ op, args } as AnnRequest, transfer).pipe(Effect.withSpan(`AnnWorker.${op}`, { attributes: { set: args.set } }))
  const buffers = (...arrays: ReadonlyArray<Float64Array | Float32Array>) => arrays.map((array) => array.buffer as ArrayBuffer)
  return {
    create: (set, dimensions) => Effect.flatMap(call("create", { set, dimensions }), checked(decodeState)),
    open: (set, dimensions, files) => Effect.flatMap(call("open", { set, dimensions, ...files }), checked(decodeState)),
    add: (set, keys, vectors, threads) =>
      Effect.flatMap(call("add", { set, keys, vectors, threads }, buffers(keys, vectors)), checked(decodeState)),
    stage: (set, keys, vectors, path) =>
      Effect.flatMap(call("stage", { set, keys, vectors, path }, buffers(keys, vectors)), checked(decodeState)),
    addStaged: (set, count, threads) => Effect.flatMap(call("addStaged", { set, count, threads }), checked(decodeState)),
    seal: (set, path) => Effect.flatMap(call("seal", { set, path }), checked(decodeSealed)),
    saveDelta: (set, path) => Effect.flatMap(call("saveDelta", { set, path }), checked(decodeSaved)),
    search: (set, vector, k) =>
      Effect.map(Effect.flatMap(call("search", { set, vector, k }), checked(decodeFound)), (found) => found.keys),
    close: (set) => Effect.asVoid(call("close", { set })),
    generation: worker.generation
  }
})
