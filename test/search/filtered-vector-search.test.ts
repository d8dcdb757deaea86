/**
 * Filtered similarity search through the ANN index when more than a few thousand records pass the filter: the
 * database is asked which of the index's candidates are allowed (by their keys), with a metadata filter and with a
 * text query, instead of reading every allowed record. Through a real server on SQLite and PostgreSQL, so that the
 * statement that asks is run by both databases; the answers must be `limit` allowed records, scored exactly, nearly
 * the exact answer. (test/unit/filtered-vector-search.test.ts checks what is read, with an exact index.)
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { dialects, freshDatabase } from "../support/databases.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { TestServerOn, testServerEnv } from "../support/server.js"
import { cosine, seededRandom } from "../support/vectors.js"

const DIMENSIONS = 8
const COUNT = 3_600

const next = seededRandom(5)
// 3 300 records are `common` (more than the 3 000 ranked exactly); every record's text has "alpha", a third "beta".
const corpus = Array.from({ length: COUNT }, (_, i) => ({
  external_id: `r${i}`,
  text: i % 3 === 0 ? "alpha beta" : "alpha",
  group: i % 12 === 0 ? "other" : "common",
  vector: Array.from({ length: DIMENSIONS }, () => next() * 2 - 1)
}))

type Hit = { record: { external_id: string }; query_score: number }

for (const dialect of dialects) {
  describe(`${dialect}: filtered similarity search past the exact threshold`, () => {
    it.live("asks the database which candidates pass, with a filter and with a text query", () =>
      Effect.scoped(Effect.gen(function*() {
        const database = yield* freshDatabase(dialect)
        const env = testServerEnv(database, { GLOSS_SEARCH_ENGINE: "database", GLOSS_VECTOR_ANN_FROM: "50" })
        yield* Effect.provide(
          Effect.gen(function*() {
            const dataset = yield* publishedDataset()
            const post = (kind: string, body: unknown) => send("POST", datasetPath(dataset, `/${kind}`), body)
            yield* post("metadata-properties", { name: "group", title: "Group", settings: { type: "terms" } })
            yield* post("vectors-settings", { name: "emb", title: "Embedding", dimensions: DIMENSIONS })
            for (let from = 0; from < COUNT; from += 500) {
              const created = yield* post("records/bulk", {
                items: corpus.slice(from, from + 500).map((doc) => ({
                  external_id: doc.external_id,
                  fields: { text: doc.text },
                  metadata: { group: doc.group },
                  vectors: { emb: doc.vector }
                }))
              })
              expect(created.status).toBe(201)
            }
            const common = { type: "terms", scope: { entity: "metadata", metadata_property: "group" }, values: ["common"] }
            const cases = [
              { body: { filters: { and: [common] } }, allows: (doc: (typeof corpus)[number]) => doc.group === "common" },
              {
                body: { query: { text: { q: "alpha" } }, filters: { and: [common] } },
                allows: (doc: (typeof corpus)[number]) => doc.group === "common" && doc.text.includes("alpha")
              }
            ]
            for (const [i, { allows, body }] of cases.entries()) {
              const query = corpus[i * 101]!.vector.map((x) => x + 0.05)
              const response = yield* send("POST", `/api/v1/datasets/${dataset.id}/records/search?limit=50`, {
                ...body,
                query: { ...(body as { query?: object }).query, vector: { name: "emb", value: query } }
              })
              expect(response.status).toBe(200)
              const hits = (response.body as { items: Array<Hit> }).items
              expect(hits).toHaveLength(50)
              const byId = new Map(corpus.map((doc) => [doc.external_id, doc]))
              for (const hit of hits) {
                const doc = byId.get(hit.record.external_id)!
                expect(allows(doc)).toBe(true)
                expect(hit.query_score).toBeCloseTo(cosine(doc.vector, query), 5)
              }
              const truth = corpus.filter(allows).sort((a, b) => cosine(b.vector, query) - cosine(a.vector, query)).slice(0, 50)
              const found = truth.filter((doc) => hits.some((hit) => hit.record.external_id === doc.external_id)).length
              expect(found / truth.length).toBeGreaterThanOrEqual(0.9)
            }
          }),
          TestServerOn(dialect, env)
        )
      })), 120_000)
  })
}
