/**
 * The ANN worker's segments: sealed ones are searched with a narrower beam than the delta (the count asked for,
 * where the delta searches wider). These check what that must not cost: the nearest vectors still come back when
 * they are spread over several segments, when they all sit in one sealed segment (a dataset imported in topic
 * order), and from segments opened again from their files; and a search gets all the candidates it asks for whenever
 * the segments hold them.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeAnnWorker } from "../../src/services/search/vectors/ann/AnnWorker.js"

const DIMENSIONS = 32

/** A deterministic unit vector near centre `c` (of 20). */
const near = (c: number, seed: number) => {
  let state = (seed + 1) * 2654435761 % 4294967296
  const random = () => ((state = (state * 1664525 + 1013904223) % 4294967296) / 4294967296) * 2 - 1
  const v = Array.from({ length: DIMENSIONS }, (_, d) => (d % 20 === c ? 3 : 0) + (d === (c * 7) % DIMENSIONS ? 2 : 0) + random())
  const norm = Math.hypot(...v)
  return v.map((x) => x / norm)
}

const cosine = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) => a.reduce((sum, x, d) => sum + x * b[d]!, 0)

/** Adds vectors by key, in one call. */
const addAll = (worker: Effect.Effect.Success<typeof makeAnnWorker>, set: string, vectors: Map<number, Array<number>>) =>
  worker.add(set, Float64Array.from(vectors.keys()), Float32Array.from([...vectors.values()].flat()), 1)

const exactTop = (all: Map<number, Array<number>>, query: ReadonlyArray<number>, k: number) =>
  [...all].sort((a, b) => cosine(b[1], query) - cosine(a[1], query)).slice(0, k).map(([key]) => key)

/** A worker holding an empty set "s", and a scratch folder for its segment files (removed with the scope). */
const workerWithSet = Effect.gen(function*() {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-ann-worker-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(directory, { recursive: true, force: true })))
  const worker = yield* makeAnnWorker
  yield* worker.create("s", DIMENSIONS)
  return { directory, worker }
})

describe("ANN worker segments", () => {
  it.scoped("the nearest come back from sealed segments and the delta, and from segments opened again", () =>
    Effect.gen(function*() {
      const { directory, worker } = yield* workerWithSet
      const all = new Map<number, Array<number>>()
      // Three segments of 1 000: the first holds every vector near centre 0, the others none of them.
      const files = []
      for (let segment = 0; segment < 3; segment++) {
        const batch = new Map<number, Array<number>>()
        for (let i = 0; i < 1_000; i++) {
          const key = segment * 1_000 + i + 1
          batch.set(key, near(segment === 0 ? (i % 2 === 0 ? 0 : 1 + (i % 19)) : 1 + (i % 19), key))
        }
        for (const [key, v] of batch) all.set(key, v)
        yield* addAll(worker, "s", batch)
        if (segment < 2) files.push((yield* worker.seal("s", path.join(directory, `segment-${segment}.usearch`))).file)
      }

      const found = (keys: Float64Array) => new Set(Array.from(keys))
      const recallOf = (keys: Float64Array, query: ReadonlyArray<number>, k: number) =>
        exactTop(all, query, k).filter((key) => found(keys).has(key)).length / k

      // All 50 nearest of centre 0 are in the first sealed segment: asking for 100 must still bring 50 of them.
      const clustered = near(0, 999_999)
      const fromOneSegment = yield* worker.search("s", Float32Array.from(clustered), 100)
      expect(recallOf(fromOneSegment, clustered, 50)).toBeGreaterThanOrEqual(0.95)
      // Spread over every segment.
      for (const c of [3, 11, 17]) {
        const query = near(c, 123_456 + c)
        expect(recallOf(yield* worker.search("s", Float32Array.from(query), 100), query, 50)).toBeGreaterThanOrEqual(0.95)
      }

      // Opened again from the files (the sealed views get the same narrower beam) plus a saved delta.
      const delta = yield* worker.saveDelta("s", path.join(directory, "delta.usearch"))
      yield* worker.open("again", DIMENSIONS, { sealed: files, delta })
      const reopened = yield* worker.search("again", Float32Array.from(clustered), 100)
      expect(recallOf(reopened, clustered, 50)).toBeGreaterThanOrEqual(0.95)
    }), { timeout: 30_000 })

  it.scoped("gets k keys whenever the segments hold them: from one sealed segment, with a few more in the delta", () =>
    Effect.gen(function*() {
      const { directory, worker } = yield* workerWithSet
      yield* addAll(worker, "s", new Map(Array.from({ length: 1_000 }, (_, i) => [i + 1, near(i % 20, i + 1)])))
      // Everything sealed, the delta empty (a set of exactly one segment's worth).
      yield* worker.seal("s", path.join(directory, "segment-0.usearch"))
      const query = Float32Array.from(near(4, 424_242))
      expect((yield* worker.search("s", query, 100)).length).toBe(100)
      // A few vectors in the delta do not make up the difference.
      yield* addAll(worker, "s", new Map(Array.from({ length: 5 }, (_, i) => [2_001 + i, near(4, 2_001 + i)])))
      const keys = yield* worker.search("s", query, 100)
      expect(keys.length).toBe(100)
      expect(new Set(keys).size).toBe(100)
      // A set smaller than k gives all it holds.
      yield* worker.create("small", DIMENSIONS)
      yield* addAll(worker, "small", new Map(Array.from({ length: 30 }, (_, i) => [i + 1, near(i % 20, i + 1)])))
      expect((yield* worker.search("small", query, 100)).length).toBe(30)
    }), { timeout: 30_000 })

  // A first build stages the vectors it read, then adds them: a search meanwhile scans the staged ones exactly.
  for (const where of ["a file", "memory"] as const) {
    it.scoped(`staged vectors (in ${where}) are searched exactly until added, and a key written again meanwhile keeps its new vector`, () =>
      Effect.gen(function*() {
        const { directory, worker } = yield* workerWithSet
        const staging = where === "a file" ? path.join(directory, "staged.f32.tmp") : null
        const all = new Map(Array.from({ length: 600 }, (_, i) => [i + 1, near(i % 20, i + 1)]))
        for (let chunk = 0; chunk < 3; chunk++) {
          const keys = Array.from({ length: 200 }, (_, i) => chunk * 200 + i + 1)
          const state = yield* worker.stage("s", Float64Array.from(keys), Float32Array.from(keys.flatMap((key) => all.get(key)!)), staging)
          expect(state).toEqual({ entries: (chunk + 1) * 200, delta: 0, staged: (chunk + 1) * 200 })
        }
        const nearest = (query: ReadonlyArray<number>) => Effect.map(worker.search("s", Float32Array.from(query), 10), (keys) => Array.from(keys))
        const query = near(7, 77_777)
        expect(yield* nearest(query)).toEqual(exactTop(all, query, 10))

        // Part of the second chunk added: the rest of it is read from its middle (the copy of it in memory too).
        expect(yield* worker.addStaged("s", 250, 1)).toEqual({ entries: 600, delta: 250, staged: 350 })
        for (const key of [380, 599, 260, 30]) expect((yield* nearest(all.get(key)!))[0]).toBe(key)
        const recallOf = (found: ReadonlyArray<number>, query: ReadonlyArray<number>) =>
          exactTop(all, query, 10).filter((key) => found.includes(key)).length / 10
        expect(recallOf(yield* nearest(query), query)).toBeGreaterThanOrEqual(0.9)

        // A catch-up writes key 500, still staged, anew: its staged (older) vector is neither found nor added.
        const before = all.get(500)!
        const after = before.map((x) => -x)
        yield* addAll(worker, "s", new Map([[500, after]]))
        all.set(500, after)
        expect(yield* nearest(before)).not.toContain(500)
        expect(recallOf(yield* nearest(before), before)).toBeGreaterThanOrEqual(0.9)
        expect(yield* worker.addStaged("s", 1_000, 1)).toEqual({ entries: 600, delta: 600, staged: 0 })
        if (staging !== null) expect(fs.existsSync(staging)).toBe(false)
        expect(yield* nearest(before)).not.toContain(500)
        expect((yield* nearest(after))[0]).toBe(500)
      }), { timeout: 30_000 })
  }

  it.scoped("a set closed before its staged vectors are added removes their file", () =>
    Effect.gen(function*() {
      const { directory, worker } = yield* workerWithSet
      const staging = path.join(directory, "staged.f32.tmp")
      yield* worker.stage("s", Float64Array.of(1, 2), Float32Array.from([...near(1, 1), ...near(2, 2)]), staging)
      expect(fs.existsSync(staging)).toBe(true)
      yield* worker.close("s")
      expect(fs.existsSync(staging)).toBe(false)
    }))
})
