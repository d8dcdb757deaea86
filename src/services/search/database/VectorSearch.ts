/**
 * Similarity search of the built-in engine: exact below `GLOSS_VECTOR_ANN_FROM` vectors (VectorIndex's matrix in
 * memory), through the ANN index above it (AnnIndex), and exact again wherever the index cannot answer.
 *
 * Above the threshold, the index proposes candidates — max(2k, 100) of them — and they are ranked by the exact cosine
 * of their stored vectors (computed in SQL on SQLite, see SqliteReader; read and computed here on PostgreSQL): scores
 * are exactly the exact path's, and the int8 quantisation of the index costs recall only where a true neighbour is
 * not among the candidates at all.
 * - `least_similar`: the vectors least similar to q are the most similar to -q (cos(x, -q) = -cos(x, q)), so the
 *   index is asked about -q; rescoring puts back the true scores.
 * - Filters (and text queries) come as the allowed records. A few thousand or fewer are ranked exactly, their
 *   vectors read by key. More are searched through the index with a candidate count scaled by how selective the
 *   filter is (k × entries / allowed × 2), doubling until enough allowed candidates come back; when the index runs
 *   out, the allowed set is scanned exactly. So `limit` results come back whenever `limit` allowed records have
 *   vectors.
 * - While an index is first built (over a large table), and when it fails, searches scan the database exactly in
 *   pages: correct, and slow at a million vectors.
 */
import { Effect, Option } from "effect"
import type { VectorSettingsId } from "../../../domain/Ids.js"
import type { AnnIndex } from "./AnnIndex.js"
import { normalise, storedCosine, topK, unitBytes } from "./vectorMath.js"
import type { VectorIndex } from "./VectorIndex.js"
import type { VectorRow, VectorRows } from "./vectorRows.js"

/** Allowed sets up to this size are ranked exactly from their vectors, without the index. */
const EXACT_ALLOWED = 3_000
const SCAN_PAGE = 2_000

export interface RankOptions {
  readonly least: boolean
  /** The records filters and text allow (undefined: all), with their keys (insertion order). */
  readonly allowed?: ReadonlyArray<{ readonly id: string; readonly key: number }> | undefined
  readonly exclude?: string | undefined
}

type Hit = { readonly id: string; readonly score: number }

/** Two ranked lists merged into the best `k`. */
const merge = (a: ReadonlyArray<Hit>, b: ReadonlyArray<Hit>, k: number, least: boolean) =>
  [...a, ...b].sort((x, y) => (least ? x.score - y.score : y.score - x.score)).slice(0, k)

/** Stored vectors scored here, by the code SQLite's worker runs in SQL (`gloss_cosine`): one scoring for both. */
const scoredHere = (rows: ReadonlyArray<VectorRow>, unit: Uint8Array) =>
  rows.map((row) => ({ id: row.id, score: storedCosine(row.value, unit) }))

/** The best `k` of scored rows, without those of other dimensions (null) and the excluded record. */
const bestScored = (rows: ReadonlyArray<{ readonly id: string; readonly score: number | null }>, k: number, options: RankOptions) =>
  merge(rows.flatMap(({ id, score }) => (score === null || id === options.exclude ? [] : [{ id, score }])), [], k, options.least)

export const makeVectorSearch = (options: { readonly exact: VectorIndex; readonly ann: AnnIndex; readonly rows: VectorRows }) => {
  const { ann, exact, rows } = options

  /** The best `k` of these keys' vectors: scored in SQL where it can (SQLite's worker), else read and scored here. */
  const rankKeys = (settingsId: string, keys: ReadonlyArray<number>, unit: Uint8Array, k: number, rank: RankOptions) =>
    Effect.map(
      rows.scoredByKeys?.(settingsId, keys, unit) ?? Effect.map(rows.byKeys(settingsId, keys), (found) => scoredHere(found, unit)),
      (scored) => bestScored(scored, k, rank)
    )

  /** The exact answer from the database, read in pages: every vector of the settings, or those of `keys`. */
  const scan = (settingsId: string, unit: Uint8Array, k: number, rank: RankOptions, keys?: ReadonlyArray<number>) =>
    Effect.gen(function*() {
      let best: ReadonlyArray<Hit> = []
      if (keys !== undefined) {
        for (let from = 0; from < keys.length; from += SCAN_PAGE) {
          best = merge(best, yield* rankKeys(settingsId, keys.slice(from, from + SCAN_PAGE), unit, k, rank), k, rank.least)
        }
        return best
      }
      for (let after: string | undefined;;) {
        const page = yield* rows.page(settingsId, after, SCAN_PAGE)
        best = merge(best, bestScored(scoredHere(page, unit), k, rank), k, rank.least)
        if (page.length < SCAN_PAGE) return best
        after = page[page.length - 1]?.id
      }
    })

  /** Through the index: candidates, filtered, rescored; exact where the index cannot answer. */
  const approximate = (settingsId: string, query: ReadonlyArray<number>, k: number, count: number, rank: RankOptions) =>
    Effect.gen(function*() {
      const allowed = rank.allowed
      const allowedKeys = allowed?.map((record) => record.key)
      const unit = unitBytes(query)
      if (allowedKeys !== undefined && allowedKeys.length <= EXACT_ALLOWED) {
        return yield* rankKeys(settingsId, allowedKeys, unit, k, rank)
      }
      const target = new Float32Array(query.length)
      normalise(query, target, 0)
      if (rank.least) for (let i = 0; i < target.length; i++) target[i] = -target[i]!
      const want = Math.max(2 * k, 100) + (rank.exclude === undefined ? 0 : 1)
      const only = allowedKeys === undefined ? undefined : new Set(allowedKeys)
      const total = Math.max(count, ann.size(settingsId))
      let n = only === undefined ? want : Math.ceil((want * total * 2) / Math.max(1, only.size))
      for (;;) {
        const found = yield* ann.candidates(settingsId, query.length, count, target, n)
        if (Option.isNone(found)) return yield* scan(settingsId, unit, k, rank, allowedKeys)
        const { entries, keys } = found.value
        const kept = only === undefined ? Array.from(keys) : Array.from(keys).filter((key) => only.has(key))
        const exhausted = keys.length < n || n >= entries
        if (kept.length >= want || exhausted) {
          const hits = yield* rankKeys(settingsId, kept.slice(0, want), unit, k, rank)
          // Too few: stale entries (deleted records) crowded the candidates, or the filter's records are not near.
          const possible = Math.min(k, only?.size ?? total)
          return hits.length >= possible ? hits : yield* scan(settingsId, unit, k, rank, allowedKeys)
        }
        n = Math.min(n * 2, entries)
      }
    })

  return {
    /** The `k` records nearest `query` (farthest, for `least`), with their cosine similarity, best first. */
    rank: (settingsId: VectorSettingsId, dimensions: number, query: ReadonlyArray<number>, k: number, rank: RankOptions) =>
      Effect.gen(function*() {
        if (!ann.has(settingsId)) {
          const loaded = yield* exact.matrix(settingsId, dimensions)
          if (loaded._tag === "Matrix") {
            const allowed = rank.allowed === undefined ? undefined : new Set(rank.allowed.map((record) => record.id))
            return topK(loaded.matrix, query, k, { least: rank.least, allowed, exclude: rank.exclude })
          }
          return yield* approximate(settingsId, query, k, loaded.count, rank)
        }
        return yield* approximate(settingsId, query, k, 0, rank)
      }).pipe(Effect.orDie)
  }
}
