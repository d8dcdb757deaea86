/**
 * `npm run bench -- quantisation [--records N] [--queries Q]`: what an approximate index that holds less than int8
 * vectors would cost in recall, measured on the scale benchmark's vectors (a million by default, 384 dimensions,
 * clustered around 1 000 centres) with usearch itself, no server.
 *
 * The memory target of the scale benchmark (server peak RSS ≤ 600 MB at a million vectors) is missed because the
 * index the server searches (HNSW, vectors quantised to int8, ~530 bytes a vector) is most of it. The only smaller
 * form usearch offers is one bit a dimension (`b1`, Hamming distance on the signs). This suite builds three layouts:
 * int8 as the server holds it (sealed segments of SEGMENT_VECTORS, searched by the index worker's own `searchSegments`), and one
 * index over every vector in int8 and in one bit a dimension. For several candidate counts it reports recall@50 after
 * the exact rescoring that the server does (the true cosine of every candidate, then the best 50), with the index's
 * search time and size. Reading candidates for rescoring is what a search pays per candidate (the `scale` suite
 * measures it on PostgreSQL), so the candidates a form needs for recall@50 ≥ 0.95 are its price in
 * latency; the segmented layout against one index is what the segments cost.
 */
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import type { SuiteOptions } from "../run.js"
import { SEGMENT_VECTORS } from "../../src/services/search/vectors/ann/annSets.js"
import {
  CONNECTIVITY,
  EXPANSION_ADD,
  EXPANSION_SEARCH,
  SEALED_EXPANSION,
  searchSegments,
  type SegmentIndex
} from "../../src/services/search/vectors/ann/segments.js"
import { clusteredVector, percentile } from "../lib/latency.js"

const DIMENSIONS = 384
const LIMIT = 50
const CANDIDATES = [100, 200, 500, 1_000, 2_000, 5_000]
interface UsearchIndex extends SegmentIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads: number): void
  save(path: string): void
}
type IndexConstructor = new (options: object) => UsearchIndex

interface Form {
  readonly name: string
  readonly options: object
  /** Sealed segments of SEGMENT_VECTORS (the rest in one more segment, as the server's delta), or one index. */
  readonly segmented: boolean
}

// usearch quantises the float32 vectors it is given: to int8, or to one bit a dimension (the sign, so Hamming distance
// counts the dimensions whose signs differ).
const INT8 = { metric: "cos", quantization: "i8" }
const FORMS: ReadonlyArray<Form> = [
  { name: `int8 in segments of ${String(SEGMENT_VECTORS).replace(/\B(?=(\d{3})+$)/g, " ")} (the server's)`, options: INT8, segmented: true },
  { name: "int8, one index", options: INT8, segmented: false },
  { name: "one bit a dimension, one index", options: { metric: "hamming", quantization: "b1" }, segmented: false }
]

interface Segment {
  readonly index: UsearchIndex
  readonly sealed: boolean
}

const unitVectors = (count: number, firstSeed: number) => {
  const data = new Float32Array(count * DIMENSIONS)
  for (let i = 0; i < count; i++) {
    const vector = clusteredVector(firstSeed + i, DIMENSIONS)
    let sum = 0
    for (const value of vector) sum += value * value
    const scale = 1 / Math.sqrt(sum)
    vector.forEach((value, d) => (data[i * DIMENSIONS + d] = value * scale))
  }
  return data
}

const cosine = (data: Float32Array, i: number, query: Float32Array) => {
  let dot = 0
  for (let d = 0; d < DIMENSIONS; d++) dot += data[i * DIMENSIONS + d]! * query[d]!
  return dot
}

const bestOf = (data: Float32Array, keys: ArrayLike<number>, query: Float32Array, k: number) =>
  Array.from(keys, (i) => ({ i, score: cosine(data, i, query) })).sort((a, b) => b.score - a.score).slice(0, k).map(({ i }) => i)

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

export const quantisationSuite = async (options: SuiteOptions) => {
  const records = Number(options.records ?? 1_000_000)
  const queries = Number(options.queries ?? 50)
  const { Index } = createRequire(import.meta.url)("usearch") as { Index: IndexConstructor }
  const data = unitVectors(records, 0)
  // Queries near the data but not in it, as the scale benchmark's are.
  const queryData = unitVectors(queries, records + 1)
  const queryAt = (q: number) => queryData.subarray(q * DIMENSIONS, (q + 1) * DIMENSIONS)
  const all = Array.from({ length: records }, (_, i) => i)
  const exact = Array.from({ length: queries }, (_, q) => new Set(bestOf(data, all, queryAt(q), LIMIT)))
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-quantisation-"))
  const results = []
  try {
    for (const form of FORMS) {
      const segments: Array<Segment> = []
      const started = performance.now()
      for (let from = 0; from < records; from += 10_000) {
        const count = Math.min(10_000, records - from)
        if (segments.length === 0 || (form.segmented && from % SEGMENT_VECTORS === 0)) {
          const sealed = form.segmented && from + SEGMENT_VECTORS <= records
          const expansion_search = sealed ? SEALED_EXPANSION : EXPANSION_SEARCH
          segments.push({
            index: new Index({
              dimensions: DIMENSIONS, connectivity: CONNECTIVITY, expansion_add: EXPANSION_ADD, expansion_search, multi: false,
              ...form.options
            }),
            sealed
          })
        }
        const keys = BigUint64Array.from({ length: count }, (_, i) => BigInt(from + i))
        segments.at(-1)!.index.add(keys, data.subarray(from * DIMENSIONS, (from + count) * DIMENSIONS), os.cpus().length)
      }
      const buildSeconds = (performance.now() - started) / 1000
      let bytes = 0
      for (const { index } of segments) {
        const file = path.join(folder, "index.usearch")
        index.save(file)
        bytes += fs.statSync(file).size
        fs.rmSync(file)
      }
      const byCandidates = CANDIDATES.filter((n) => n <= records).map((candidates) => {
        const times: Array<number> = []
        let found = 0
        for (let q = 0; q < queries; q++) {
          const query = queryAt(q)
          const t = performance.now()
          const keys = searchSegments(segments.map((segment) => segment.index), query, candidates)
          times.push(performance.now() - t)
          for (const i of bestOf(data, keys, query, LIMIT)) if (exact[q]!.has(i)) found++
        }
        times.sort((a, b) => a - b)
        const result = {
          candidates,
          recallAt50: round(found / (queries * LIMIT), 3),
          indexSearchMs: { p50: round(percentile(times, 50), 2), p99: round(percentile(times, 99), 2) }
        }
        console.error(`quantisation: ${form.name} ${JSON.stringify(result)}`)
        return result
      })
      results.push({
        form: form.name,
        segments: segments.length,
        buildSeconds: round(buildSeconds),
        indexMB: round(bytes / 2 ** 20),
        bytesPerVector: Math.round(bytes / records),
        byCandidates
      })
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true })
  }
  return {
    records,
    dimensions: DIMENSIONS,
    queries,
    vectors: "clustered around 1 000 centres (bench/lib/latency.ts clusteredVector), the scale benchmark's",
    method: `HNSW (connectivity ${CONNECTIVITY}, expansion_add ${EXPANSION_ADD}; beam ${EXPANSION_SEARCH}, in a sealed segment ` +
      `${SEALED_EXPANSION} or the candidates asked for, whichever is larger), every segment asked for all the candidates, ` +
      "searched in this process with one thread; each query's candidates rescored by their exact " +
      "cosine, the best 50 compared with the exact top 50",
    results
  }
}
