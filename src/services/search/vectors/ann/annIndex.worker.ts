/**
 * The ANN index worker thread: it holds the index sets (see segments.ts) in native memory, never as JS numbers, and
 * does the adding, which for a million vectors takes minutes of CPU that must not hold the server's event loop.
 * Started by AnnWorker.ts; each operation is one of `AnnCalls` (annProtocol.ts), answered in the order posted.
 *
 * usearch (unum-cloud, Apache-2.0, maintained) because it quantises to int8, can serve a saved index memory-mapped
 * (`view`), ships a prebuilt linux-x64 binary in its npm package (nothing to compile or download at install) and is
 * context-aware, so it loads in a worker thread.
 */
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import { exactSearch, Index, MetricKind, ScalarKind } from "usearch"
import { serveCalls, startedWith } from "../../workers/serve.js"
import type { AnnCalls, AnnRequest, AnnWorkerData, SegmentFile, SetState } from "./annProtocol.js"
import { searchSegments } from "./segments.js"

const config = startedWith<AnnWorkerData>()

/**
 * A first build's vectors wait here between being read from the database and being added to the graph (see
 * annSets.ts): in chunks as they came, in a file of float32s (or in memory, with no file), each chunk added from
 * its `from` on. Until they are added a search scans them exactly (a fraction of a second for a million).
 */
interface Chunk {
  readonly keys: Float64Array
  from: number
  /** In memory, when the staging has no file. */
  readonly vectors?: Float32Array
  /** Where the chunk starts in the staging file. */
  readonly offset?: number
}

interface Staging {
  readonly chunks: Array<Chunk>
  remaining: number
  readonly path: string | null
  readonly fd: number | null
  end: number
  /** Staged keys a catch-up has since added anew: their staged vectors are the older ones. */
  readonly replaced: Set<number>
}

interface IndexSet {
  readonly dimensions: number
  readonly sealed: Array<Index>
  delta: Index
  staged: Staging | undefined
}

const sets = new Map<string, IndexSet>()

const make = (dimensions: number, expansionSearch = config.expansionSearch) =>
  new Index({
    dimensions,
    metric: MetricKind.Cos,
    quantization: ScalarKind.I8,
    multi: false,
    connectivity: config.connectivity,
    expansion_add: config.expansionAdd,
    expansion_search: expansionSearch
  })

/** A sealed segment, memory-mapped, searched with a narrower beam (see SEALED_EXPANSION). */
const viewOf = (dimensions: number, path: string) => {
  const index = make(dimensions, config.sealedExpansion)
  index.view(path)
  return index
}

const setOf = (name: string) => {
  const set = sets.get(name)
  if (set === undefined) throw new Error(`no index set ${name}`)
  return set
}

const stagedCount = (set: IndexSet) => set.staged?.remaining ?? 0
const state = (set: IndexSet): SetState => ({
  entries: set.sealed.reduce((n, s) => n + s.size(), 0) + set.delta.size() + stagedCount(set),
  delta: set.delta.size(),
  staged: stagedCount(set)
})

const stagingOf = (set: IndexSet, path: string | null): Staging =>
  (set.staged ??= { chunks: [], remaining: 0, path, fd: path === null ? null : fs.openSync(path, "w+"), end: 0, replaced: new Set() })

const unstage = (set: IndexSet) => {
  const staging = set.staged
  if (staging === undefined) return
  set.staged = undefined
  if (staging.fd !== null && staging.path !== null) {
    fs.closeSync(staging.fd)
    fs.rmSync(staging.path, { force: true })
  }
}

/** A copy, not a view: usearch's exactSearch reads a typed array from the start of its buffer, whatever its offset. */
const stagedVectors = (set: IndexSet, staging: Staging, chunk: Chunk, from: number, to: number) => {
  const d = set.dimensions
  if (chunk.vectors !== undefined) return chunk.vectors.slice(from * d, to * d)
  const vectors = new Float32Array((to - from) * d)
  fs.readSync(staging.fd!, new Uint8Array(vectors.buffer), 0, vectors.byteLength, chunk.offset! + from * d * 4)
  return vectors
}

/** The staged vectors nearest the query, with their cosine distance (as the segments measure it). */
const searchStaged = (set: IndexSet, vector: Float32Array, k: number) => {
  const found: Array<[number, number]> = []
  const staging = set.staged
  if (staging === undefined) return found
  for (const chunk of staging.chunks) {
    const n = chunk.keys.length - chunk.from
    if (n === 0) continue
    const vectors = stagedVectors(set, staging, chunk, chunk.from, chunk.keys.length)
    const matches = exactSearch(vectors, vector, set.dimensions, Math.min(k, n), MetricKind.Cos, 1)
    for (let i = 0; i < matches.keys.length; i++) {
      const key = chunk.keys[chunk.from + Number(matches.keys[i])]!
      if (!staging.replaced.has(key)) found.push([key, Number(matches.distances[i])])
    }
  }
  return found
}

/** Adds to the delta, replacing the keys it holds already (the delta is the one segment that can forget a key). */
const addTo = (target: IndexSet, keys: Float64Array, vectors: Float32Array, threads: number) => {
  const keyList = BigUint64Array.from(keys, (key) => BigInt(key))
  const present = target.delta.contains(keyList)
  const again = keyList.filter((_, i) => Array.isArray(present) ? present[i] : present)
  if (again.length > 0) target.delta.remove(again)
  target.delta.add(keyList, vectors, threads)
}

/** A checksum guards loading: usearch aborts the whole process on some malformed files instead of throwing. */
const digest = (file: string) => {
  const hash = crypto.createHash("sha256")
  const fd = fs.openSync(file, "r")
  try {
    const chunk = Buffer.allocUnsafe(4 << 20)
    for (let n; (n = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0;) hash.update(chunk.subarray(0, n))
  } finally {
    fs.closeSync(fd)
  }
  return hash.digest("hex")
}

const checked = (file: SegmentFile) => {
  if (digest(file.path) !== file.sha256) throw new Error(`checksum mismatch: ${file.path}`)
  return file
}

const saved = (index: Index, path: string): SegmentFile => {
  index.save(`${path}.tmp`)
  fs.renameSync(`${path}.tmp`, path)
  return { path, sha256: digest(path) }
}

const ops: { readonly [Op in keyof AnnCalls]: (args: AnnCalls[Op]["args"]) => AnnCalls[Op]["result"] } = {
  create: ({ dimensions, set }) => {
    const created: IndexSet = { dimensions, sealed: [], delta: make(dimensions), staged: undefined }
    sets.set(set, created)
    return state(created)
  },

  open: ({ delta, dimensions, sealed, set }) => {
    const opened: IndexSet = { dimensions, sealed: [], delta: make(dimensions), staged: undefined }
    for (const file of sealed) {
      const index = viewOf(dimensions, checked(file).path)
      if (Number(index.dimensions()) !== dimensions) throw new Error(`dimensions differ: ${file.path}`)
      opened.sealed.push(index)
    }
    if (delta !== null) {
      opened.delta.load(checked(delta).path)
      if (Number(opened.delta.dimensions()) !== dimensions) throw new Error(`dimensions differ: ${delta.path}`)
    }
    sets.set(set, opened)
    return state(opened)
  },

  add: ({ keys, set, threads, vectors }) => {
    const target = setOf(set)
    if (target.staged !== undefined) for (const key of keys) target.staged.replaced.add(key)
    addTo(target, keys, vectors, threads)
    return state(target)
  },

  stage: ({ keys, path, set, vectors }) => {
    const target = setOf(set)
    const staging = stagingOf(target, path)
    if (staging.fd === null) staging.chunks.push({ keys, from: 0, vectors })
    else {
      fs.writeSync(staging.fd, new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength), 0, vectors.byteLength, staging.end)
      staging.chunks.push({ keys, from: 0, offset: staging.end })
      staging.end += vectors.byteLength
    }
    staging.remaining += keys.length
    return state(target)
  },

  addStaged: ({ count, set, threads }) => {
    const target = setOf(set)
    const staging = target.staged
    for (let left = count; staging !== undefined && left > 0 && staging.chunks.length > 0;) {
      const chunk = staging.chunks[0]!
      const to = Math.min(chunk.keys.length, chunk.from + left)
      const keys = chunk.keys.subarray(chunk.from, to)
      const vectors = stagedVectors(target, staging, chunk, chunk.from, to)
      const kept: Array<number> = []
      for (let i = 0; i < keys.length; i++) if (!staging.replaced.has(keys[i]!)) kept.push(i)
      if (kept.length === keys.length) addTo(target, keys, vectors, threads)
      else if (kept.length > 0) {
        const d = target.dimensions
        const keptVectors = new Float32Array(kept.length * d)
        kept.forEach((i, j) => keptVectors.set(vectors.subarray(i * d, (i + 1) * d), j * d))
        addTo(target, Float64Array.from(kept, (i) => keys[i]!), keptVectors, threads)
      }
      staging.remaining -= to - chunk.from
      left -= to - chunk.from
      chunk.from = to
      if (chunk.from === chunk.keys.length) staging.chunks.shift()
    }
    if (staging !== undefined && staging.chunks.length === 0) unstage(target)
    return state(target)
  },

  seal: ({ path, set }) => {
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

  saveDelta: ({ path, set }) => {
    const target = setOf(set)
    return target.delta.size() === 0 ? null : saved(target.delta, path)
  },

  search: ({ k, set, vector }) => {
    const target = setOf(set)
    const fromStaged = searchStaged(target, vector, k)
    return { keys: Float64Array.from(searchSegments([...target.sealed, target.delta], vector, k, fromStaged)) }
  },

  close: ({ set }) => {
    const target = sets.get(set)
    if (target !== undefined) unstage(target)
    sets.delete(set)
    return null
  }
}

/** One operation's call, its arguments typed by its name. */
const run = <Op extends keyof AnnCalls>(op: Op, args: AnnCalls[Op]["args"]): AnnCalls[Op]["result"] => ops[op](args)

serveCalls<AnnRequest, AnnCalls[keyof AnnCalls]["result"]>((request) => run(request.op, request.args))
