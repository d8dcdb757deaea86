/** The adapters' writes, against the fake cluster: index management and bulk (de)indexing. */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { toDocument } from "../../../src/services/search/elastic/documents.js"
import { createIndexBody, mappingAdditions } from "../../../src/services/search/elastic/mapping.js"
import { bulkOk, calls, FLAVORS, withEngine } from "./engineSupport.js"
import { DATASET, grownSchema, INDEX, LATER_VECTOR, RECORD, records, schema, VECTOR } from "./fixtures.js"

const mappingOf = (metadata: ReadonlyArray<string>, vectors: ReadonlyArray<string>) => ({
  [INDEX]: {
    mappings: {
      properties: {
        id: { type: "keyword" },
        metadata: { dynamic: "false", properties: Object.fromEntries(metadata.map((n) => [n, { type: "keyword" }])) },
        vectors: { properties: Object.fromEntries(vectors.map((v) => [v, { type: "dense_vector" }])) }
      }
    }
  }
})
const currentMapping = mappingOf(["source", "tags", "length", "quality"], [VECTOR])

for (const setup of FLAVORS) {
  describe(`${setup.flavor} adapter: writes`, () => {
    it.live("creates the index with its settings and mapping", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          yield* engine.createIndex(schema)
          expect(calls(cluster)).toMatchObject([{
            method: "PUT",
            path: `/${INDEX}`,
            body: createIndexBody(schema, setup.flavor, { shards: 2, replicas: 1 })
          }])
        })))

    it.live("creating an index that exists brings its mapping up to date instead", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          yield* engine.createIndex(grownSchema)
          const mapped = { metadata: new Set(["source", "tags", "length", "quality"]), vectors: new Set<string>([VECTOR]) }
          expect(calls(cluster).map(({ method, path, body }) => ({ method, path, body }))).toEqual([
            { method: "PUT", path: `/${INDEX}`, body: createIndexBody(grownSchema, setup.flavor, { shards: 2, replicas: 1 }) },
            { method: "GET", path: `/${INDEX}/_mapping`, body: undefined },
            { method: "PUT", path: `/${INDEX}/_mapping`, body: mappingAdditions(grownSchema, setup.flavor, mapped) }
          ])
        }), (cluster) => {
        cluster.on((r) =>
          r.method === "PUT" && r.path === `/${INDEX}`
            ? { status: 400, body: { error: { type: "resource_already_exists_exception" }, status: 400 } }
            : undefined
        )
        cluster.on((r) => (r.method === "GET" && r.path === `/${INDEX}/_mapping` ? { body: currentMapping } : undefined))
      }))

    it.live("any other refusal to create the index is a defect", () =>
      withEngine(setup, (engine) =>
        Effect.gen(function*() {
          const exit = yield* Effect.exit(engine.createIndex(schema))
          expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
        }), (cluster) => cluster.on(() => ({ status: 400, body: { error: { type: "mapper_parsing_exception" } } }))))

    it.live("updateMapping puts only what is new, and nothing when nothing is", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          yield* engine.updateMapping(schema)
          expect(calls(cluster).map((r) => r.method)).toEqual(["GET"])
          yield* engine.updateMapping(grownSchema)
          expect(calls(cluster).at(-1)).toMatchObject({
            method: "PUT",
            path: `/${INDEX}/_mapping`,
            body: { properties: { metadata: { properties: { year: {} } }, vectors: { properties: { [LATER_VECTOR]: {} } } } }
          })
        }), (cluster) => cluster.on((r) => (r.method === "GET" && r.path.endsWith("/_mapping") ? { body: currentMapping } : undefined))))

    it.live("deleting an index ignores one that is missing", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          yield* engine.deleteIndex(DATASET)
          expect(calls(cluster)).toMatchObject([{ method: "DELETE", path: `/${INDEX}` }])
        }), (cluster) => cluster.on(() => ({ status: 404, body: { error: { type: "index_not_found_exception" }, status: 404 } }))))

    it.live(`indexes records in chunks of 500, each waiting for visibility (refresh=${setup.refresh})`, () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          const many = records(1001)
          yield* engine.indexRecords(schema, many)
          const bulks = calls(cluster)
          expect(bulks.map((r) => [r.method, r.path, r.query])).toEqual(
            Array.from({ length: 3 }, () => ["POST", `/${INDEX}/_bulk`, { refresh: setup.refresh }])
          )
          expect(bulks.map((r) => (Array.isArray(r.body) ? r.body.length : 0))).toEqual([1000, 1000, 2])
          const last = records(1001).slice(-1)
          expect(bulks[2]?.body).toEqual(last.flatMap((r) => [{ index: { _id: r.id } }, toDocument(schema, r)]))
        }), (cluster) => cluster.on(bulkOk)))

    it.live("records being created are sent after the commit, not inside the transaction (which it cannot see)", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          const created = records(3)
          const staged = engine.indexCreated(schema, created)
          yield* staged.inTransaction
          expect(calls(cluster)).toEqual([])
          yield* staged.afterCommit
          expect(calls(cluster).map((r) => [r.method, r.path, r.body])).toEqual([
            ["POST", `/${INDEX}/_bulk`, created.flatMap((r) => [{ index: { _id: r.id } }, toDocument(schema, r)])]
          ])
        }), (cluster) => cluster.on(bulkOk)))

    it.live("indexing nothing sends nothing", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          yield* engine.indexRecords(schema, [])
          yield* engine.deleteRecords(DATASET, [])
          expect(calls(cluster)).toEqual([])
        })))

    it.live("a refused document is a defect (a bulk answers 200 even then)", () =>
      withEngine(setup, (engine) =>
        Effect.gen(function*() {
          const exit = yield* Effect.exit(engine.indexRecords(schema, records(2)))
          expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
          expect(Cause.pretty(Exit.isFailure(exit) ? exit.cause : Cause.empty)).toContain("strict_dynamic_mapping_exception")
        }), (cluster) => cluster.on((r) => r.path.endsWith("/_bulk") ? {
          body: {
            errors: true,
            items: [
              { index: { _id: "a", status: 201 } },
              { index: { _id: "b", status: 400, error: { type: "strict_dynamic_mapping_exception" } } }
            ]
          }
        } : undefined)))

    it.live("deletes records by id, a missing one being no failure", () =>
      withEngine(setup, (engine, cluster) =>
        Effect.gen(function*() {
          yield* engine.deleteRecords(DATASET, [RECORD])
          expect(calls(cluster)).toMatchObject([{
            method: "POST",
            path: `/${INDEX}/_bulk`,
            query: { refresh: setup.refresh },
            body: [{ delete: { _id: RECORD } }]
          }])
        }), (cluster) => cluster.on(() => ({
          body: { errors: false, items: [{ delete: { _id: RECORD, status: 404, result: "not_found" } }] }
        }))))
  })
}
