/**
 * The ANN vector indexes live in a worker thread: adding a million vectors to an HNSW graph takes minutes of CPU,
 * which must not hold the server's event loop. The worker holds usearch indexes (HNSW, cosine, vectors quantised to
 * int8: ~530 bytes a 384-dimensional vector instead of 1 536 as float32), in native memory, never as JS numbers.
 *
 * usearch (unum-cloud, Apache-2.0, maintained) because it quantises to int8, can serve a saved index memory-mapped
 * (`view`), ships a prebuilt linux-x64 binary in its npm package (nothing to compile or download at install) and is
 * context-aware, so it loads in a worker thread.
 *
 * An index set is a list of segments: sealed ones, saved and memory-mapped read-only (their pages are the OS's file
 * cache, which the kernel can drop, not the process's anonymous memory), and one writable in-memory delta that new
 * vectors go to. When the delta is full it is sealed. A search asks every segment and merges: a sealed segment
 * cannot forget a key, so a key re-added later (its vector changed) or deleted can still come back from one — the
 * caller rescores candidates from the database, which drops both. A set is named by the caller.
 */
import { createRequire } from "node:module"
import { Effect, Schema, type Scope } from "effect"
import { makeWorkerCalls, type WorkerCallError } from "./workerCalls.js"

/** A usearch index as searchSegments uses it. */
export interface SegmentIndex {
  readonly search: (vector: Float32Array, k: number, threads: number) => { readonly keys: BigUint64Array; readonly distances: Float32Array }
  readonly size: () => number | bigint
}

/**
 * The keys of the `k` nearest vectors over a set's segments, nearest first: `k` of them whenever the segments hold
 * `k`. It references nothing outside itself, so that the worker below runs this very code from its source (as the
 * SQLite search worker runs vectorKernels), and `npm run bench -- quantisation` measures the same search.
 * A key in two segments (re-added after its segment was sealed, see above) keeps its nearer distance.
 *
 * Every segment is asked for all `k` (or all it holds), so the nearest still come out when they all sit in one
 * segment (a dataset imported in topic order), and a filtered search, which reads deep into the order, finds its
 * records wherever they are. (Half of `k` from each segment loses recall on filtered searches once segments are
 * few and large: `npm run bench -- scale` measures the filtered search's recall.)
 */
export const searchSegments = (
  segments: ReadonlyArray<SegmentIndex>,
  vector: Float32Array,
  k: number,
  /** Keys found outside the segments, with their cosine distance: a first build's staged vectors (see `stage`). */
  found: Iterable<readonly [number, number]> = []
): Array<number> => {
  const best = new Map<number, number>(found)
  for (const index of segments) {
    const size = Number(index.size())
    if (size === 0) continue
    const nearest = index.search(vector, Math.min(k, size), 1)
    for (let i = 0; i < nearest.keys.length; i++) {
      const key = Number(nearest.keys[i])
      const distance = nearest.distances[i]!
      if (!((best.get(key) ?? Infinity) <= distance)) best.set(key, distance)
    }
  }
  return [...best].sort((a, b) => a[1] - b[1]).slice(0, k).map(([key]) => key)
}

const WORKER_SOURCE = `
const searchSegments = ${searchSegments.toString()}
const { parentPort, workerData } = require("node:worker_threads")
const fs = require("node:fs")
const crypto = require("node:crypto")
const { Index, exactSearch } = require(workerData.usearch)
const sets = new Map()
const make = (dimensions, expansionSearch = workerData.expansionSearch) => new Index({
  dimensions, metric: "cos", quantization: "i8", multi: false,
  connectivity: workerData.connectivity, expansion_add: workerData.expansionAdd, expansion_search: expansionSearch
})
// A sealed segment is searched with a narrower beam: see SEALED_EXPANSION below.
const viewOf = (dimensions, path) => {
  const index = make(dimensions, workerData.sealedExpansion)
  index.view(path)
  return index
}
const setOf = (name) => {
  const set = sets.get(name)
  if (set === undefined) throw new Error("no index set " + name)
  return set
}
const staged = (set) => (set.staged === undefined ? 0 : set.staged.remaining)
const entries = (set) => set.sealed.reduce((n, s) => n + s.size(), 0) + set.delta.size() + staged(set)
const state = (set) => ({ entries: entries(set), delta: set.delta.size(), staged: staged(set) })
// A first build's vectors wait here between being read from the database and being added to the graph (see
// AnnIndex): in chunks as they came, in a file of float32s (or in memory, with no file), each chunk added from its
// "from" on. Until they are added a search scans them exactly (a fraction of a second for a million).
const stagingOf = (set, path) => {
  if (set.staged === undefined) {
    set.staged = { chunks: [], remaining: 0, path, fd: path === null ? null : fs.openSync(path, "w+"), end: 0, replaced: new Set() }
  }
  return set.staged
}
const unstage = (set) => {
  const staging = set.staged
  if (staging === undefined) return
  set.staged = undefined
  if (staging.fd !== null) {
    fs.closeSync(staging.fd)
    fs.rmSync(staging.path, { force: true })
  }
}
const stagedVectors = (set, chunk, from, to) => {
  const d = set.dimensions
  // A copy, not a view: usearch's exactSearch reads a typed array from the start of its buffer, whatever its offset.
  if (chunk.vectors !== undefined) return chunk.vectors.slice(from * d, to * d)
  const vectors = new Float32Array((to - from) * d)
  fs.readSync(set.staged.fd, new Uint8Array(vectors.buffer), 0, vectors.byteLength, chunk.offset + from * d * 4)
  return vectors
}
// The staged vectors nearest the query, with their cosine distance (as the segments measure it). A staged key a
// catch-up has since added anew is left out: its staged vector is the older one.
const searchStaged = (set, vector, k) => {
  const found = []
  if (set.staged === undefined) return found
  for (const chunk of set.staged.chunks) {
    const n = chunk.keys.length - chunk.from
    if (n === 0) continue
    const matches = exactSearch(stagedVectors(set, chunk, chunk.from, chunk.keys.length), vector, set.dimensions, Math.min(k, n), "cos", 1)
    for (let i = 0; i < matches.keys.length; i++) {
      const key = chunk.keys[chunk.from + Number(matches.keys[i])]
      if (!set.staged.replaced.has(key)) found.push([key, matches.distances[i]])
    }
  }
  return found
}
const addTo = (target, keys, vectors, threads) => {
  const keyList = new BigUint64Array(keys.length)
  for (let i = 0; i < keys.length; i++) keyList[i] = BigInt(keys[i])
  const present = target.delta.contains(keyList)
  const again = keyList.filter((_, i) => present[i])
  if (again.length > 0) target.delta.remove(again)
  target.delta.add(keyList, vectors, threads)
}
// A checksum guards loading: usearch aborts the whole process on some malformed files instead of throwing.
const digest = (file) => {
  const hash = crypto.createHash("sha256")
  const fd = fs.openSync(file, "r")
  try {
    const chunk = Buffer.allocUnsafe(4 << 20)
    for (let n; (n = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n))
  } finally { fs.closeSync(fd) }
  return hash.digest("hex")
}
const checked = (file) => {
  if (digest(file.path) !== file.sha256) throw new Error("checksum mismatch: " + file.path)
  return file
}
const saved = (index, path) => {
  index.save(path + ".tmp")
  fs.renameSync(path + ".tmp", path)
  return { path, sha256: digest(path) }
}
const ops = {
  create({ set, dimensions }) {
    sets.set(set, { dimensions, sealed: [], delta: make(dimensions) })
    return state(sets.get(set))
  },
  open({ set, dimensions, sealed, delta }) {
    const opened = { dimensions, sealed: [], delta: make(dimensions) }
    for (const file of sealed) {
      const index = viewOf(dimensions, checked(file).path)
      if (Number(index.dimensions()) !== dimensions) throw new Error("dimensions differ: " + file.path)
      opened.sealed.push(index)
    }
    if (delta !== null) {
      opened.delta.load(checked(delta).path)
      if (Number(opened.delta.dimensions()) !== dimensions) throw new Error("dimensions differ: " + delta.path)
    }
    sets.set(set, opened)
    return state(opened)
  },
  add({ set, keys, vectors, threads }) {
    const target = setOf(set)
    if (target.staged !== undefined) for (const key of keys) target.staged.replaced.add(key)
    addTo(target, keys, vectors, threads)
    return state(target)
  },
  stage({ set, keys, vectors, path }) {
    const target = setOf(set)
    const staging = stagingOf(target, path)
    const chunk = { keys, from: 0 }
    if (staging.fd === null) chunk.vectors = vectors
    else {
      fs.writeSync(staging.fd, new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength), 0, vectors.byteLength, staging.end)
      chunk.offset = staging.end
      staging.end += vectors.byteLength
    }
    staging.chunks.push(chunk)
    staging.remaining += keys.length
    return state(target)
  },
  addStaged({ set, count, threads }) {
    const target = setOf(set)
    const staging = target.staged
    for (let left = count; staging !== undefined && left > 0 && staging.chunks.length > 0;) {
      const chunk = staging.chunks[0]
      const to = Math.min(chunk.keys.length, chunk.from + left)
      const keys = chunk.keys.subarray(chunk.from, to)
      const vectors = stagedVectors(target, chunk, chunk.from, to)
      const kept = []
      for (let i = 0; i < keys.length; i++) if (!staging.replaced.has(keys[i])) kept.push(i)
      if (kept.length === keys.length) addTo(target, keys, vectors, threads)
      else if (kept.length > 0) {
        const d = target.dimensions
        const keptVectors = new Float32Array(kept.length * d)
        kept.forEach((i, j) => keptVectors.set(vectors.subarray(i * d, (i + 1) * d), j * d))
        addTo(target, Float64Array.from(kept, (i) => keys[i]), keptVectors, threads)
      }
      staging.remaining -= to - chunk.from
      left -= to - chunk.from
      chunk.from = to
      if (chunk.from === chunk.keys.length) staging.chunks.shift()
    }
    if (staging !== undefined && staging.chunks.length === 0) unstage(target)
    return state(target)
  },
  seal({ set, path }) {
    const target = setOf(set)
    const file = saved(target.delta, path)
    // The delta turns into a view of its file first: usearch frees the in-memory copy at once. Left to V8's garbage
    // collector, which does not see native memory, its ~60 MB stayed (the server's anonymous memory grew by a delta's
    // size per sealed segment). What serves the segment is a view of its own, with the sealed segments' beam.
    target.delta.view(path)
    target.sealed.push(viewOf(target.dimensions, path))
    target.delta = make(target.dimensions)
    return { file, ...state(target) }
  },
  saveDelta({ set, path }) {
    const target = setOf(set)
    return target.delta.size() === 0 ? null : saved(target.delta, path)
  },
  search({ set, vector, k }) {
    const target = setOf(set)
    const fromStaged = searchStaged(target, vector, k)
    return { keys: Float64Array.from(searchSegments([...target.sealed, target.delta], vector, k, fromStaged)) }
  },
  state({ set }) { return state(setOf(set)) },
  close({ set }) {
    const target = sets.get(set)
    if (target !== undefined) unstage(target)
    sets.delete(set)
    return null
  }
}
parentPort.on("message", ({ id, op, args }) => {
  try {
    parentPort.postMessage({ id, result: ops[op](args) })
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) })
  }
})
`

/** HNSW parameters: 16 links a node, 128 candidates kept while adding; searches keep `expansionSearch`. */
export const CONNECTIVITY = 16
export const EXPANSION_ADD = 128
/**
 * The delta's beam. Small, spread-out sets are the hard case: with 3 000 vectors in 1 000 clusters a query's 50
 * nearest come from many clusters at nearly equal distances, and a beam of 160 misses the scale benchmark's
 * recall@50 ≥ 0.95 target on them. A beam of 320 meets it; on large sets it costs a little time and no recall
 * (`npm run bench -- scale --records 3000` is the small run).
 */
export const EXPANSION_SEARCH = 320
/**
 * The beam a sealed segment is opened with. usearch searches with the larger of its beam and the count asked for,
 * and every segment is asked for the whole count (searchSegments), at least 100 (VectorSearch): so a sealed segment
 * searches with that count as its beam, narrower than the delta's EXPANSION_SEARCH, which is the whole index below a
 * segment's size and must find the nearest in small, spread-out sets. This floor matters for smaller counts only:
 * a narrow beam on each sealed segment is what keeps a search over many segments cheap (see SEGMENT_VECTORS).
 */
export const SEALED_EXPANSION = 64

/** A saved segment and the checksum that must match before it is loaded. */
export const SegmentFile = Schema.Struct({ path: Schema.String, sha256: Schema.String })
export type SegmentFile = typeof SegmentFile.Type

/** What a set holds: `entries` in all, of them `delta` in the in-memory delta and `staged` not added yet (see `stage`). */
const SetState = Schema.Struct({ entries: Schema.Number, delta: Schema.Number, staged: Schema.Number })
export type SetState = typeof SetState.Type
const decodeState = Schema.decodeUnknown(SetState)
const decodeSealed = Schema.decodeUnknown(Schema.Struct({ ...SetState.fields, file: SegmentFile }))
const decodeSaved = Schema.decodeUnknown(Schema.NullOr(SegmentFile))
const decodeFound = Schema.decodeUnknown(Schema.Struct({ keys: Schema.instanceOf(Float64Array) }))

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

/** A reply of the wrong shape is a bug in the worker source above, not a failure to handle. */
const replied = <A, I>(decode: (reply: unknown) => Effect.Effect<A, unknown>) => (reply: I) => Effect.orDie(decode(reply))

export const makeAnnWorker: Effect.Effect<AnnWorker, never, Scope.Scope> = Effect.gen(function*() {
  const worker = yield* makeWorkerCalls({
    name: "vector index worker",
    source: WORKER_SOURCE,
    workerData: {
      usearch: createRequire(import.meta.url).resolve("usearch"),
      connectivity: CONNECTIVITY,
      expansionAdd: EXPANSION_ADD,
      expansionSearch: EXPANSION_SEARCH,
      sealedExpansion: SEALED_EXPANSION
    }
  })
  const call = (op: string, args: object, transfer: ReadonlyArray<ArrayBuffer> = []) => worker.call({ op, args }, transfer)
  return {
    create: (set, dimensions) => Effect.flatMap(call("create", { set, dimensions }), replied(decodeState)),
    open: (set, dimensions, files) =>
      Effect.flatMap(call("open", { set, dimensions, ...files }), replied(decodeState)),
    add: (set, keys, vectors, threads) =>
      Effect.flatMap(
        call("add", { set, keys, vectors, threads }, [keys.buffer as ArrayBuffer, vectors.buffer as ArrayBuffer]),
        replied(decodeState)
      ),
    stage: (set, keys, vectors, path) =>
      Effect.flatMap(
        call("stage", { set, keys, vectors, path }, [keys.buffer as ArrayBuffer, vectors.buffer as ArrayBuffer]),
        replied(decodeState)
      ),
    addStaged: (set, count, threads) => Effect.flatMap(call("addStaged", { set, count, threads }), replied(decodeState)),
    seal: (set, path) => Effect.flatMap(call("seal", { set, path }), replied(decodeSealed)),
    saveDelta: (set, path) => Effect.flatMap(call("saveDelta", { set, path }), replied(decodeSaved)),
    search: (set, vector, k) =>
      Effect.flatMap(call("search", { set, vector, k }), (r) => Effect.map(replied(decodeFound)(r), (found) => found.keys)),
    close: (set) => Effect.asVoid(call("close", { set })),
    generation: worker.generation
  }
})
