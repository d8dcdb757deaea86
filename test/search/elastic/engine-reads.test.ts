/** The adapters' reads, against the fake cluster: search hits, metadata metrics, the cluster's info. */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { searchBody } from "../../../src/services/search/elastic/dsl.js"
import { metricsBody } from "../../../src/services/search/elastic/dsl/aggregations.js"
import { calls, FLAVORS, withEngine } from "./engineSupport.js"
import type { Recorded } from "./fakeCluster.js"
import { INDEX, query, RECORD, schema, scopes, USER, VECTOR } from "./fixtures.js"

const OTHER = "00000000-0000-4000-8000-000000000009"
const isSearch = (r: Recorded) => r.method === "POST" && r.path === `/${INDEX}/_search`

const hitsAnswer = (total: unknown) => ({
  took: 2,
  timed_out: false,
  hits: {
    total,
    max_score: 1.5,
    hits: [{ _index: INDEX, _id: RECORD, _score: 1.5 }, { _index: INDEX, _id: OTHER, _score: null }]
  }
})

const property = (name: string) => {
  const found = schema.metadataProperties.find((p) => p.name === name)
  if (found === undefined) throw new Error(`no metadata property ${name}`)
  return found
}

for (const setup of FLAVORS) {
  describe(`${setup.flavor} adapter: reads`, () => {
    it.live("search sends the DSL body and returns ids, scores and the total", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          const q = query({
            text: { q: "fox" },
            filters: [{ kind: "terms", scope: scopes.responseStatus, values: ["pending"] }],
            user: USER,
            offset: 10,
            limit: 2
          })
          const hits = yield* engine.search(schema, q)
          expect(hits).toEqual({ hits: [{ id: RECORD, score: 1.5 }, { id: OTHER, score: null }], total: 12, totalRelation: "eq" })
          expect(calls(cluster)).toMatchObject([{ method: "POST", path: `/${INDEX}/_search`, body: searchBody(schema, q, setup.flavor) }])
        }), (cluster) => cluster.on((r) => (isSearch(r) ? { body: hitsAnswer({ value: 12, relation: "eq" }) } : undefined))))

    it.live("a similarity search sends this engine's vector body", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          const q = query({ vector: { vectorSettingsId: VECTOR, name: "embedding", value: [1, 0, 0], order: "most_similar" } })
          yield* engine.search(schema, q)
          expect(calls(cluster)[0]?.body).toEqual(searchBody(schema, q, setup.flavor))
        }), (cluster) => cluster.on((r) => (isSearch(r) ? { body: hitsAnswer({ value: 2, relation: "eq" }) } : undefined))))

    it.live("a total given as a bare number is read too", () =>
      withEngine(setup, (engine) =>
        Effect.gen(function*() {
          expect((yield* engine.search(schema, query())).total).toBe(7)
        }), (cluster) => cluster.on((r) => (isSearch(r) ? { body: hitsAnswer(7) } : undefined))))

    it.live("metadata metrics: terms counts", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          const metrics = yield* engine.metadataMetrics(schema, property("source"))
          expect(metrics).toEqual({ type: "terms", total: 4, values: [{ term: "web", count: 3 }, { term: "news", count: 1 }] })
          expect(calls(cluster)[0]?.body).toEqual(metricsBody(property("source")))
        }), (cluster) => cluster.on((r) => isSearch(r) ? {
          body: {
            hits: { total: { value: 4, relation: "eq" }, hits: [] },
            aggregations: {
              total: { doc_count: 4 },
              values: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [
                { key: "web", doc_count: 3 },
                { key: "news", doc_count: 1 }
              ] }
            }
          }
        } : undefined)))

    it.live("metadata metrics: float bounds, rounded", () =>
      withEngine(setup, (engine) =>
        Effect.gen(function*() {
          expect(yield* engine.metadataMetrics(schema, property("quality"))).toEqual({ type: "float", min: 0.1, max: 0.9 })
        }), (cluster) => cluster.on((r) => isSearch(r) ? {
          body: {
            hits: { total: { value: 3, relation: "eq" }, hits: [] },
            aggregations: { stats: { count: 3, min: 0.10000000149011612, max: 0.8999999761581421, avg: 0.5, sum: 1.5 } }
          }
        } : undefined)))

    it.live("info is the cluster's root document", () =>
      withEngine(setup, (engine) =>
        Effect.gen(function*() {
          expect(yield* engine.info).toEqual(setup.root(setup.version))
        })))

    it.live("the engine's errors are defects", () =>
      withEngine(setup, (engine) =>
        Effect.gen(function*() {
          const exit = yield* Effect.exit(engine.search(schema, query()))
          expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
        }), (cluster) => cluster.on(() => ({ status: 500, body: { error: { type: "search_phase_execution_exception" } } }))))

    it.live("the client sends the credentials of the URL", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          yield* engine.info
          const basic = `Basic ${Buffer.from("elastic:s3cret-pass").toString("base64")}`
          expect(cluster.requests.map((r) => r.headers["authorization"])).toEqual([basic, basic])
        })))
  })
}
