/**
 * The adapters against every real cluster of test/support/searchEngines.ts (scripts/engines.sh starts them, or
 * GLOSS_TEST_ELASTICSEARCH_URL / GLOSS_TEST_OPENSEARCH_URL name them). Each test works in an index of its own,
 * deleted afterwards. A cluster that is not there is skipped, saying why (a failure with CI=true).
 */
import * as crypto from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { GlossConfig } from "../../../src/Config.js"
import { DatasetId, RecordId, ResponseId } from "../../../src/domain/Ids.js"
import { ElasticsearchEngineLive, OpenSearchEngineLive } from "../../../src/services/search/elastic/engine.js"
import type { IndexedRecord, IndexSchema, SearchQuery } from "../../../src/services/search/Query.js"
import { SearchEngine, type SearchEngineShape } from "../../../src/services/search/SearchEngine.js"
import { sslVerify, testEngines } from "../../support/searchEngines.js"
import { grownSchema, OTHER_USER, Q, query, record, schema, scopes, USER, VECTOR } from "./fixtures.js"

const LAYERS = { elasticsearch: ElasticsearchEngineLive, opensearch: OpenSearchEngineLive } as const

const id = (n: number) => RecordId.make(`00000000-0000-4000-8000-00000000000${n}`)
const answer = (value: unknown) => ({ value })
const R = { fox: id(1), dog: id(2), chat: id(3), none: id(4) }

const corpus: ReadonlyArray<IndexedRecord> = [
  record(R.fox, {
    status: "completed",
    fields: { text: "the quick brown fox" },
    metadata: { source: "web", length: 10, quality: 0.5 },
    responses: [{
      id: ResponseId.make(crypto.randomUUID()),
      user_id: USER,
      status: "submitted",
      values: { rating: answer(3), status: answer("good"), comment: answer("nice") }
    }],
    suggestions: [{ question_id: Q.label, value: "good", score: 0.9, agent: "m1", type: "model" }],
    vectors: { [VECTOR]: [1, 0, 0] }
  }),
  record(R.dog, {
    fields: { text: "the lazy dog sleeps" },
    metadata: { source: ["book", "web"], length: 20, quality: 0.25 },
    responses: [{ id: ResponseId.make(crypto.randomUUID()), user_id: OTHER_USER, status: "draft", values: { rating: answer(1) } }],
    suggestions: [{ question_id: Q.label, value: "bad", score: 0.2, agent: "m2", type: "human" }],
    vectors: { [VECTOR]: [0.9, 0.1, 0] }
  }),
  record(R.chat, {
    fields: { text: "a brown dog", chat: [{ role: "user", content: "hello fox" }] },
    metadata: { source: "news", length: 30 },
    vectors: { [VECTOR]: [0, 1, 0] }
  }),
  record(R.none, {
    fields: { text: "nothing here" },
    responses: [{ id: ResponseId.make(crypto.randomUUID()), user_id: USER, status: "discarded", values: null }],
    vectors: { [VECTOR]: [-1, 0, 0.1] }
  })
]

/** A fresh index with the corpus, deleted when the test ends. */
const withCorpus = <A>(use: (engine: SearchEngineShape, schema: IndexSchema) => Effect.Effect<A>) =>
  Effect.gen(function*() {
    const engine = yield* SearchEngine
    const own = { ...schema, datasetId: DatasetId.make(crypto.randomUUID()) }
    yield* Effect.acquireRelease(engine.createIndex(own), () => engine.deleteIndex(own.datasetId))
    yield* engine.indexRecords(own, corpus)
    return yield* use(engine, own)
  }).pipe(Effect.scoped)

const found = (engine: SearchEngineShape, own: IndexSchema, q: Partial<SearchQuery>) =>
  Effect.map(engine.search(own, query(q)), ({ hits }) => new Set(hits.map((hit) => hit.id)))

const ordered = (engine: SearchEngineShape, own: IndexSchema, q: Partial<SearchQuery>) =>
  Effect.map(engine.search(own, query(q)), ({ hits }) => hits.map((hit) => hit.id))

for (const { flavor, name, url } of testEngines) {
  const live = LAYERS[flavor].pipe(
    Layer.provide(GlossConfig.fromRecord({ GLOSS_ELASTICSEARCH: url, GLOSS_ELASTICSEARCH_SSL_VERIFY: sslVerify }))
  )
  const run = <A>(effect: Effect.Effect<A, never, SearchEngine>) =>
    effect.pipe(Effect.provide(live), Effect.orDie, Logger.withMinimumLogLevel(LogLevel.Warning))

  describe(`${name} integration`, () => {
    it.live("passes the version check and reports the cluster's root document", () =>
      run(Effect.gen(function*() {
        const info = yield* (yield* SearchEngine).info
        expect(info).toHaveProperty("version")
      })))

    it.live("full text: AND between words, any text-bearing field or one field, chat contents but not roles", () =>
      run(withCorpus((engine, own) =>
        Effect.gen(function*() {
          expect((yield* engine.search(own, query())).total).toBe(4)
          expect(yield* found(engine, own, { text: { q: "brown" } })).toEqual(new Set([R.fox, R.chat]))
          expect(yield* found(engine, own, { text: { q: "brown fox" } })).toEqual(new Set([R.fox, R.chat]))
          expect(yield* found(engine, own, { text: { q: "brown fox", field: "text" } })).toEqual(new Set([R.fox]))
          expect(yield* found(engine, own, { text: { q: "fox", field: "chat" } })).toEqual(new Set([R.chat]))
          expect(yield* found(engine, own, { text: { q: "user" } })).toEqual(new Set())
          const scored = yield* engine.search(own, query({ text: { q: "brown" } }))
          expect(scored.hits.every((hit) => (hit.score ?? 0) > 0)).toBe(true)
        }))))

    it.live("filters on record, metadata, suggestion and response scopes", () =>
      run(withCorpus((engine, own) =>
        Effect.gen(function*() {
          const only = (filter: SearchQuery["filters"][number], user?: typeof USER) => found(engine, own, { filters: [filter], user })
          expect(yield* only({ kind: "terms", scope: scopes.status, values: ["completed"] })).toEqual(new Set([R.fox]))
          expect(yield* only({ kind: "terms", scope: scopes.source, values: ["web"] })).toEqual(new Set([R.fox, R.dog]))
          expect(yield* only({ kind: "range", scope: scopes.length, ge: 15, le: 30 })).toEqual(new Set([R.dog, R.chat]))
          expect(yield* only({ kind: "range", scope: scopes.insertedAt, ge: "2000-01-01T00:00:00Z" })).toHaveProperty("size", 4)
          expect(yield* only({ kind: "terms", scope: scopes.suggestedLabel, values: ["good"] })).toEqual(new Set([R.fox]))
          expect(yield* only({ kind: "terms", scope: scopes.suggestionAgent, values: ["m2"] })).toEqual(new Set([R.dog]))
          expect(yield* only({ kind: "terms", scope: scopes.suggestionType, values: ["model"] })).toEqual(new Set([R.fox]))
          const pending = { kind: "terms", scope: scopes.responseStatus, values: ["pending"] } as const
          expect(yield* only(pending)).toEqual(new Set([R.chat]))
          expect(yield* only(pending, USER)).toEqual(new Set([R.dog, R.chat]))
          expect(yield* only({ kind: "terms", scope: scopes.responseStatus, values: ["draft"] })).toEqual(new Set([R.dog]))
          expect(yield* only({ kind: "terms", scope: scopes.responseStatus, values: ["draft"] }, USER)).toEqual(new Set())
          expect(yield* only({ kind: "range", scope: scopes.rating, ge: 2 })).toEqual(new Set([R.fox]))
          expect(yield* only({ kind: "terms", scope: scopes.label, values: ["good"] }, USER)).toEqual(new Set([R.fox]))
        }))))

    it.live("sorts, paging and the caller's stable order", () =>
      run(withCorpus((engine, own) =>
        Effect.gen(function*() {
          expect(yield* ordered(engine, own, { sort: [{ scope: scopes.length, order: "desc" }] }))
            .toEqual([R.chat, R.dog, R.fox, R.none])
          expect(yield* ordered(engine, own, { sort: [{ scope: scopes.rating, order: "desc" }] }))
            .toEqual([R.fox, R.dog, R.chat, R.none])
          const page = yield* engine.search(own, query({ sort: [{ scope: scopes.length, order: "asc" }], offset: 1, limit: 2 }))
          expect(page).toMatchObject({ total: 4, hits: [{ id: R.dog }, { id: R.chat }] })
          const first = yield* ordered(engine, own, { user: USER })
          expect(new Set(first)).toHaveProperty("size", 4)
          expect(yield* ordered(engine, own, { user: USER })).toEqual(first)
        }))))

    it.live("similarity: most and least similar, the reference record excluded, with a filter", () =>
      run(withCorpus((engine, own) =>
        Effect.gen(function*() {
          const vector = (order: "most_similar" | "least_similar", excludeRecordId?: RecordId) => ({
            vectorSettingsId: VECTOR, name: "embedding", value: [1, 0, 0], order, excludeRecordId
          })
          const near = yield* engine.search(own, query({ vector: vector("most_similar"), limit: 2 }))
          expect(near.hits.map((hit) => hit.id)).toEqual([R.fox, R.dog])
          expect(near.hits[0]?.score).toBeGreaterThan(0.99)
          expect((yield* ordered(engine, own, { vector: vector("least_similar"), limit: 1 }))).toEqual([R.none])
          expect(yield* ordered(engine, own, { vector: vector("most_similar", R.fox), limit: 1 })).toEqual([R.dog])
          const filters = [{ kind: "terms", scope: scopes.source, values: ["news"] }] as const
          expect(yield* ordered(engine, own, { vector: vector("most_similar"), filters, limit: 2 })).toEqual([R.chat])
        }))))

    it.live("metadata metrics", () =>
      run(withCorpus((engine, own) =>
        Effect.gen(function*() {
          const property = (name: string) => {
            const found = own.metadataProperties.find((p) => p.name === name)
            if (found === undefined) throw new Error(`no metadata property ${name}`)
            return found
          }
          const terms = yield* engine.metadataMetrics(own, property("source"))
          expect(terms).toMatchObject({ type: "terms", total: 3 })
          expect(terms.type === "terms" ? new Map(terms.values.map((v) => [v.term, v.count])) : null)
            .toEqual(new Map([["web", 2], ["book", 1], ["news", 1]]))
          expect(yield* engine.metadataMetrics(own, property("length"))).toEqual({ type: "integer", min: 10, max: 30 })
          expect(yield* engine.metadataMetrics(own, property("quality"))).toEqual({ type: "float", min: 0.25, max: 0.5 })
        }))))

    it.live("writes are visible at once: re-index, delete, new mapping; deleting twice is fine", () =>
      run(withCorpus((engine, own) =>
        Effect.gen(function*() {
          yield* engine.indexRecords(own, [record(R.none, { fields: { text: "a zebra now" } })])
          expect(yield* found(engine, own, { text: { q: "zebra" } })).toEqual(new Set([R.none]))
          yield* engine.deleteRecords(own.datasetId, [R.none, R.none])
          expect((yield* engine.search(own, query())).total).toBe(3)
          const grown = { ...grownSchema, datasetId: own.datasetId }
          yield* engine.updateMapping(grown)
          yield* engine.createIndex(grown)
          yield* engine.indexRecords(grown, [record(R.none, { metadata: { year: 2024 } })])
          const year = { kind: "metadata", name: "year", type: "integer" } as const
          expect(yield* found(engine, grown, { filters: [{ kind: "range", scope: year, ge: 2020 }] })).toEqual(new Set([R.none]))
          yield* engine.deleteIndex(own.datasetId)
          yield* engine.deleteIndex(own.datasetId)
        }))))
  })
}
