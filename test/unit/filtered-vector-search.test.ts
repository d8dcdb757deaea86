/**
 * A filtered similarity search through the ANN index (VectorSearch) reads its allowed records only as far as it needs
 * them: a few thousand are read and ranked exactly; with more, the database is asked which candidates are allowed,
 * and the allowed set is read whole only past CHECK_UP_TO candidates. The index here is exact (every candidate list is
 * the true nearest), so every answer must be the exact one; what differs between the cases is what was read.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { VectorSettingsId } from "../../src/domain/Ids.js"
import type { AnnIndex } from "../../src/services/search/vectors/ann/AnnIndex.js"
import type { Matrices } from "../../src/services/search/vectors/matrices.js"
import type { VectorRows } from "../../src/services/search/vectors/rows.js"
import { makeRank } from "../../src/services/search/vectors/rank.js"
import type { Allowed } from "../../src/services/search/vectors/VectorStore.js"
import { cosine, seededRandom } from "../support/vectors.js"

const DIMENSIONS = 8
const SETTINGS = "settings" as VectorSettingsId

/** `count` vectors keyed 1..count; those `far` picks point away from the others (a filter whose records are not near). */
const corpus = (count: number, far: (key: number) => boolean) => {
  const next = seededRandom(11)
  return Array.from({ length: count }, (_, i) => {
    const key = i + 1
    const vector = Array.from({ length: DIMENSIONS }, () => next() + (far(key) ? -2 : 1))
    return { key, id: `record-${key}`, vector }
  })
}
type Doc = ReturnType<typeof corpus>[number]

/** An index that always finds the true nearest, and rows read from the corpus. */
const fakes = (docs: ReadonlyArray<Doc>) => {
  const byKey = new Map(docs.map((doc) => [doc.key, doc]))
  const ann = {
    has: () => true,
    size: () => docs.length,
    candidates: (_settings: string, _dimensions: number, _count: number, query: Float32Array, n: number) =>
      Effect.succeed(Option.some({
        keys: Float64Array.from(
          [...docs].sort((a, b) => cosine(b.vector, query) - cosine(a.vector, query)).slice(0, n),
          (doc) => doc.key
        ),
        entries: docs.length
      }))
  } as unknown as AnnIndex
  const rows = {
    byKeys: (_settings: string, keys: ReadonlyArray<number>) =>
      Effect.succeed(keys.flatMap((key) => {
        const doc = byKey.get(key)
        return doc === undefined ? [] : [{
          key,
          id: doc.id,
          value: new Uint8Array(Float64Array.from(doc.vector).buffer),
          at: new Date(0)
        }]
      }))
  } as unknown as VectorRows
  return makeRank({ ann, rows, exact: {} as Matrices })
}

/** The records `allows` picks, read as the database would read them, and what was asked. */
const allowedOf = (docs: ReadonlyArray<Doc>, allows: (key: number) => boolean) => {
  const records = docs.filter((doc) => allows(doc.key)).map(({ id, key }) => ({ id, key }))
  const asked = { reads: [] as Array<number | undefined>, among: [] as Array<number> }
  const allowed: Allowed<never> = {
    read: (limit) => Effect.sync(() => (asked.reads.push(limit), records.slice(0, limit))),
    among: (keys) => Effect.sync(() => (asked.among.push(keys.length), keys.filter(allows)))
  }
  return { allowed, asked }
}

const exactly = (docs: ReadonlyArray<Doc>, allows: (key: number) => boolean, query: ReadonlyArray<number>, k: number) =>
  docs.filter((doc) => allows(doc.key))
    .sort((a, b) => cosine(b.vector, query) - cosine(a.vector, query))
    .slice(0, k)
    .map((doc) => doc.id)

describe("filtered similarity search through the index", () => {
  const query = Array.from({ length: DIMENSIONS }, (_, i) => 1 + i / 10)

  /** The `k` nearest allowed records, checked against the exact answer; what the search read to find them. */
  const searched = (docs: ReadonlyArray<Doc>, allows: (key: number) => boolean, k: number) =>
    Effect.gen(function*() {
      const { allowed, asked } = allowedOf(docs, allows)
      const hits = yield* fakes(docs).rank({ id: SETTINGS, dimensions: DIMENSIONS }, query, k, { least: false, allowed })
      expect(hits.map((hit) => hit.id)).toEqual(exactly(docs, allows, query, k))
      return { hits, asked }
    })

  it.effect("a common filter asks the database about the candidates and never reads its 3 000+ records", () =>
    Effect.gen(function*() {
      const docs = corpus(24_000, () => false)
      const allows = (key: number) => key % 6 === 3
      const { asked } = yield* searched(docs, allows, 50)
      // One bounded read to learn that there are more than a few thousand; never the whole set.
      expect(asked.reads).toEqual([3_001])
      expect(asked.among.length).toBeGreaterThan(0)
      expect(Math.max(...asked.among)).toBeLessThanOrEqual(10_000)
    }))

  it.effect("a rare filter's records are read in the bounded read and ranked exactly", () =>
    Effect.gen(function*() {
      const docs = corpus(24_000, () => false)
      const allows = (key: number) => key % 1_000 === 500
      const { asked } = yield* searched(docs, allows, 10)
      expect(asked.reads).toEqual([3_001])
      expect(asked.among).toEqual([])
    }))

  it.effect("none of the first candidates passing makes the next round larger, not the whole index", () =>
    Effect.gen(function*() {
      // The 1 000 records nearest the query are not allowed; a third of the others are (as a filter on a property
      // that differs between clusters of embeddings).
      const docs = corpus(24_000, () => false)
      const nearest = new Set(
        [...docs].sort((a, b) => cosine(b.vector, query) - cosine(a.vector, query)).slice(0, 1_000).map((doc) => doc.key)
      )
      const allows = (key: number) => !nearest.has(key) && key % 3 === 0
      const { asked } = yield* searched(docs, allows, 50)
      expect(asked.reads).toEqual([3_001])
      // 400, then at most four times as many a round.
      expect(asked.among[0]).toBe(400)
      asked.among.slice(1).forEach((size, i) => expect(size).toBeLessThanOrEqual(4 * asked.among[i]!))
    }))

  it.effect("when the allowed records are far from the query, the set is read once and the search still returns limit", () =>
    Effect.gen(function*() {
      // 4 000 allowed records, all pointing away: the first candidates hold none of them.
      const far = (key: number) => key % 6 === 0
      const docs = corpus(24_000, far)
      const { asked, hits } = yield* searched(docs, far, 50)
      expect(hits).toHaveLength(50)
      expect(asked.reads).toEqual([3_001, undefined])
      expect(Math.max(...asked.among)).toBeLessThanOrEqual(10_000)
    }))
})
