/**
 * The vector store's `rank`: exact below `GLOSS_VECTOR_ANN_FROM` vectors (the matrix in memory, matrices.ts), through
 * the ANN index above it (ann/AnnIndex.ts), and exact again wherever the index cannot answer.
 *
 * Above the threshold, the index proposes candidates — max(2k, 100) of them — and they are ranked by the exact cosine
 * of their stored vectors (computed in SQL on SQLite, see SqliteReader; on PostgreSQL computed here, from the copies
 * beside the index that the database's stamps say are current, see copies.ts, else from the values read): scores
 * are exactly the exact path's, and the int8 quantisation of the index costs recall only where a true neighbour is
 * not among the candidates at all.
 * - `least_similar`: the vectors least similar to q are the most similar to -q (cos(x, -q) = -cos(x, q)), so the
 *   index is asked about -q; rescoring puts back the true scores.
 * - Filters (and text queries) come as a way to read the allowed records (`Allowed`), read only as far as needed.
 *   A few thousand or fewer are read and ranked exactly, their vectors read by key. With more, the index proposes
 *   candidates and the database says which of them are allowed: the allowed set itself (a sixth of a million
 *   records is 170 000 rows, and a scan of every record's metadata to find them) is not read. The candidate count
 *   grows with how few passed, until enough allowed candidates come back; past CHECK_UP_TO candidates the allowed
 *   set is read after all and checked here, and when the index runs out it is scanned exactly. So `limit` results
 *   come back whenever `limit` allowed records have vectors.
 * - When an index fails, searches scan the database exactly in pages: correct, and slow at a million vectors. (A
 *   first build serves as soon as it has read the vectors: see AnnIndex.)
 */
import { Effect, Option } from "effect"
import type { VectorSettingsId } from "../../../domain/Ids.js"
import type { AnnIndex } from "./ann/AnnIndex.js"
import type { VectorCopies } from "./copies.js"
import { normalise, storedCosine, topK, unitBytes } from "./math.js"
import type { Matrices } from "./matrices.js"
import type { VectorRow, VectorRows } from "./rows.js"
import type { AllowedRecord, RankOptions, VectorHit } from "./VectorStore.js"

/** Allowed sets up to this size are ranked exactly from their vectors, without the index. */
const EXACT_ALLOWED = 3_000
/** Up to this many candidates the database is asked which are allowed; past it, the allowed set is read once. */
const CHECK_UP_TO = 10_000
const SCAN_PAGE = 2_000

/** A failure of the caller's reads of its allowed records: passed back as it came, where the rest is a defect. */
class AllowedFailed<E> {
  constructor(readonly error: E) {}
}
const allowedRead = <A, E>(effect: Effect.Effect<A, E>, span: string) =>
  Effect.mapError(effect, (error) => new AllowedFailed(error)).pipe(Effect.withSpan(`VectorStore.allowed.${span}`))
const keysOf = (records: ReadonlyArray<AllowedRecord>) => records.map((record) => record.key)

type Hit = VectorHit

/** Two ranked lists merged into the best `k`. */
const merge = (a: ReadonlyArray<Hit>, b: ReadonlyArray<Hit>, k: number, least: boolean) =>
  [...a, ...b].sort((x, y) => (least ? x.score - y.score : y.score - x.score)).slice(0, k)

/** Stored vectors scored here, by the code SQLite's worker runs in SQL (`gloss_cosine`): one scoring for both. */
const scoredHere = (rows: ReadonlyArray<VectorRow>, unit: Uint8Array) =>
  rows.map((row) => ({ id: row.id, score: storedCosine(row.value, unit) }))

/** The best `k` of scored rows, without those of other dimensions (null) and the excluded record. */
const bestScored = (
  rows: ReadonlyArray<{ readonly id: string; readonly score: number | null }>,
  k: number,
  options: { readonly least: boolean; readonly exclude?: string | undefined }
) =>
  merge(rows.flatMap(({ id, score }) => (score === null || id === options.exclude ? [] : [{ id, score }])), [], k, options.least)

export const makeRank = (options: {
  readonly exact: Matrices
  readonly ann: AnnIndex
  readonly rows: VectorRows
  /** Copies of the stored vectors, where rescoring reads values rather than scores (PostgreSQL). */
  readonly copies?: VectorCopies | undefined
}) => {
  const { ann, copies, exact, rows } = options

  /**
   * The scores of these keys' vectors (those whose record and vector still exist): computed in SQL where it can
   * (SQLite's worker); else from the copies beside the index that match the database's stamps, and for the rest
   * read from the database and scored here (and copied, for the next search).
   */
  const scoreKeys = (settingsId: string, keys: ReadonlyArray<number>, unit: Uint8Array) => {
    if (rows.scoredByKeys !== undefined) return rows.scoredByKeys(settingsId, keys, unit)
    if (copies === undefined) return Effect.map(rows.byKeys(settingsId, keys), (found) => scoredHere(found, unit))
    return Effect.gen(function*() {
      const dimensions = unit.byteLength / 4
      const scored: Array<{ readonly id: string; readonly score: number | null }> = []
      const lacking: Array<number> = []
      for (const stamp of yield* rows.stampsByKeys(settingsId, keys)) {
        const copy = copies.read(settingsId, dimensions, stamp)
        if (copy === undefined) lacking.push(stamp.key)
        else scored.push({ id: stamp.id, score: storedCosine(copy, unit) })
      }
      if (lacking.length === 0) return scored
      const found = yield* rows.byKeys(settingsId, lacking)
      copies.write(settingsId, dimensions, found)
      return [...scored, ...scoredHere(found, unit)]
    })
  }

  /** The best `k` of these keys' vectors: the candidates rescored exactly. */
  const rankKeys = (settingsId: string, keys: ReadonlyArray<number>, unit: Uint8Array, k: number, rank: RankOptions<unknown>) =>
    Effect.map(scoreKeys(settingsId, keys, unit), (scored) => bestScored(scored, k, rank)).pipe(
      Effect.withSpan("VectorStore.rescore", { attributes: { keys: keys.length } })
    )

  /** The exact answer from the database, read in pages: every vector of the settings, or those of `keys`. */
  const scan = (settingsId: string, unit: Uint8Array, k: number, rank: RankOptions<unknown>, keys?: ReadonlyArray<number>) =>
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
    }).pipe(Effect.withSpan("VectorStore.scan", { attributes: { keys: keys?.length ?? "all" } }))

  /** Through the index: candidates, filtered, rescored; exact where the index cannot answer. */
  const approximate = <E>(settingsId: string, query: ReadonlyArray<number>, k: number, count: number, rank: RankOptions<E>) =>
    Effect.gen(function*() {
      const allowed = rank.allowed
      const unit = unitBytes(query)
      /** The allowed keys, once read (see allowedKeys). */
      let only: Set<number> | undefined
      if (allowed !== undefined) {
        const first = yield* allowedRead(allowed.read(EXACT_ALLOWED + 1), "first")
        if (first.length <= EXACT_ALLOWED) return yield* rankKeys(settingsId, keysOf(first), unit, k, rank)
      }
      /** Every allowed key (undefined: all are), read once: past CHECK_UP_TO candidates, or for the exact scan. */
      const allowedKeys = Effect.suspend(() => {
        if (allowed === undefined) return Effect.succeed(undefined)
        if (only !== undefined) return Effect.succeed([...only])
        return Effect.map(allowedRead(allowed.read(), "all"), (records) => {
          only = new Set(keysOf(records))
          return [...only]
        })
      })
      /** The candidates that are allowed, nearest first. */
      const keep = (keys: ReadonlyArray<number>) =>
        Effect.gen(function*() {
          if (allowed === undefined || keys.length === 0) return keys
          if (only === undefined && keys.length > CHECK_UP_TO) yield* allowedKeys
          const pass = only ?? new Set(yield* allowedRead(allowed.among(keys), "among"))
          return keys.filter((key) => pass.has(key))
        })
      const target = new Float32Array(query.length)
      normalise(query, target, 0)
      if (rank.least) for (let i = 0; i < target.length; i++) target[i] = -target[i]!
      const want = Math.max(2 * k, 100) + (rank.exclude === undefined ? 0 : 1)
      // With a filter, a first guess of a quarter allowed; then each round's share of allowed candidates, with room.
      let n = allowed === undefined ? want : 4 * want
      for (;;) {
        const found = yield* ann.candidates(settingsId, query.length, count, target, n)
        if (Option.isNone(found)) return yield* scan(settingsId, unit, k, rank, yield* allowedKeys)
        const { entries, keys } = found.value
        const kept = yield* keep(Array.from(keys))
        const exhausted = keys.length < n || n >= entries
        if (kept.length >= want || exhausted) {
          const hits = yield* rankKeys(settingsId, kept.slice(0, want), unit, k, rank)
          // Too few: stale entries (deleted records) crowded the candidates, or the filter's records are not near.
          // (With a filter there are more than EXACT_ALLOWED allowed records here, so `k` of them.)
          const possible = allowed === undefined ? Math.min(k, Math.max(count, ann.size(settingsId))) : k
          return hits.length >= possible ? hits : yield* scan(settingsId, unit, k, rank, yield* allowedKeys)
        }
        // At most four times as many a round: a filter's records can be rare near the query and common elsewhere
        // (none of the first 400 candidates passing said nothing about the 60 000 the share would have asked for).
        const needed = kept.length === 0 ? 4 * n : Math.ceil((1.5 * want * keys.length) / kept.length)
        n = Math.min(Math.max(2 * n, Math.min(4 * n, needed)), entries)
      }
    })

  return {
    /** The `k` records nearest `query` (farthest, for `least`), with their cosine similarity, best first. */
    rank: <E>(
      settings: { readonly id: VectorSettingsId; readonly dimensions: number },
      query: ReadonlyArray<number>,
      k: number,
      rank: RankOptions<E>
    ): Effect.Effect<ReadonlyArray<VectorHit>, E> =>
      Effect.gen(function*() {
        const settingsId = settings.id
        if (!ann.has(settingsId)) {
          const loaded = yield* exact.matrix(settingsId, settings.dimensions)
          if (loaded._tag === "Matrix") {
            const allowed = rank.allowed === undefined
              ? undefined
              : new Set((yield* allowedRead(rank.allowed.read(), "all")).map((record) => record.id))
            return yield* Effect.sync(() => topK(loaded.matrix, query, k, { least: rank.least, allowed, exclude: rank.exclude })).pipe(
              Effect.withSpan("VectorStore.exact", { attributes: { vectors: loaded.matrix.ids.length } })
            )
          }
          return yield* approximate(settingsId, query, k, loaded.count, rank)
        }
        return yield* approximate(settingsId, query, k, 0, rank)
      }).pipe(
        Effect.catchAll((failure): Effect.Effect<never, E> =>
          failure instanceof AllowedFailed ? Effect.fail(failure.error as E) : Effect.die(failure)
        ),
        Effect.withSpan("VectorStore.rank", {
          attributes: { settings: settings.id, k, least: rank.least, filtered: rank.allowed !== undefined }
        })
      )
  }
}
