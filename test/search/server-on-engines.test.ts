/**
 * A whole Gloss server on each real cluster of test/support/searchEngines.ts (GLOSS_SEARCH_ENGINE=elasticsearch or
 * opensearch): publishing creates the index, bulk writes and upserts reach it, text, filters and vectors search it,
 * and REINDEX_DATASETS rebuilds it from the database after it is lost. On PostgreSQL when it is here (the contract
 * suite runs the clusters on SQLite).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Dataset } from "../../src/domain/Dataset.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { clusterRequest, DeleteDatasetsAtEnd, serverEnv, type TestEngine, testEngines } from "../support/searchEngines.js"
import { TestServer, TestServerLive, TestServerOn } from "../support/server.js"

type Json = Record<string, unknown>
type Hits = { items: Array<{ record: { external_id: string; metadata: Json }; query_score: number | null }>; total: number }

const dialect = dialects.includes("postgres") ? "postgres" : "sqlite"

/** A request straight to the cluster, past Gloss. */
const onCluster = (engine: TestEngine, method: string, path: string) =>
  Effect.promise(() => clusterRequest(engine.url, method, path))

const TOPICS = ["sport", "music", "science"] as const

/** Record i: a title naming its topic, metadata, and a unit vector along its topic's axis, tilted by i. */
const recordAt = (i: number) => {
  const topic = TOPICS[i % 3] ?? "sport"
  const axis = [0, 0, 0]
  axis[i % 3] = 1
  return {
    external_id: `r${i}`,
    fields: { title: `Story ${i} about ${topic}` },
    metadata: { topic, rank: i },
    vectors: { emb: axis.map((x, j) => (x === 1 ? 1 : j === (i + 1) % 3 ? i / 100 : 0)) }
  }
}

const published = Effect.gen(function*() {
  const dataset = yield* draftDataset()
  const post = (kind: string, body: unknown) => send("POST", datasetPath(dataset, `/${kind}`), body)
  yield* post("fields", { name: "title", title: "Title", required: true, settings: { type: "text" } })
  yield* post("questions", {
    name: "label",
    title: "Label",
    required: true,
    settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
  })
  yield* post("metadata-properties", { name: "topic", title: "Topic", settings: { type: "terms" } })
  yield* post("metadata-properties", { name: "rank", title: "Rank", settings: { type: "integer" } })
  yield* post("vectors-settings", { name: "emb", title: "Embedding", dimensions: 3 })
  expect((yield* send("PUT", datasetPath(dataset, "/publish"))).status).toBe(200)
  return dataset
})

const search = (dataset: Dataset, body: unknown, query = "") =>
  Effect.map(send("POST", datasetPath(dataset, `/records/search${query}`), body), (response) => {
    expect(response.status).toBe(200)
    return response.body as Hits
  })
const ids = (hits: Hits) => hits.items.map((hit) => hit.record.external_id)
const topic = (values: Array<string>) => ({ type: "terms", scope: { entity: "metadata", metadata_property: "topic" }, values })
const rank = (range: { ge?: number; le?: number }) => ({ type: "range", scope: { entity: "metadata", metadata_property: "rank" }, ...range })

/** What the tests ask of a dataset with records r0…r29 (r3 and r4 upserted): the same before and after a reindex. */
const answers = (dataset: Dataset) =>
  Effect.gen(function*() {
    const all = yield* search(dataset, {}, "?limit=100")
    const music = yield* search(dataset, { query: { text: { q: "music" } } }, "?limit=100")
    const scienceUpTo10 = yield* search(dataset, { filters: { and: [topic(["science"]), rank({ le: 10 })] } }, "?limit=100")
    const nearSport = yield* search(dataset, { query: { vector: { name: "emb", value: [1, 0, 0] } } }, "?limit=3")
    const leastSport = yield* search(
      dataset,
      { query: { vector: { name: "emb", value: [1, 0, 0], order: "least_similar" } }, filters: { and: [topic(["sport"])] } },
      "?limit=3"
    )
    const nearMusicRanked = yield* search(
      dataset,
      { query: { vector: { name: "emb", value: [0, 1, 0] } }, filters: { and: [rank({ ge: 20 })] } },
      "?limit=2"
    )
    return {
      total: all.total,
      music: new Set(ids(music)),
      scienceUpTo10: new Set(ids(scienceUpTo10)),
      nearSport: ids(nearSport),
      leastSport: ids(leastSport),
      nearMusicRanked: ids(nearMusicRanked)
    }
  })

for (const engine of testEngines) {
  describe(`${dialect} server on ${engine.name}`, () => {
    layer(DeleteDatasetsAtEnd.pipe(Layer.provideMerge(TestServerLive(dialect, serverEnv(engine)))), {
      excludeTestServices: true,
      timeout: 120_000
    })("search engine", (it) => {
      it.effect("publish creates the index (with a plain HNSW graph) and /status reports the cluster", () =>
        Effect.gen(function*() {
          const dataset = yield* published
          const mapping = yield* onCluster(engine, "GET", `/gloss.${dataset.id}/_mapping`)
          expect(mapping.status).toBe(200)
          const properties = (mapping.body as Record<string, { mappings: { properties: { vectors: { properties: Record<string, Json> } } } }>)
          const vectors = Object.values(properties[`gloss.${dataset.id}`]?.mappings.properties.vectors.properties ?? {})
          expect(vectors).toHaveLength(1)
          expect(vectors[0]).toMatchObject(
            engine.flavor === "elasticsearch"
              ? { type: "dense_vector", similarity: "cosine", index_options: { type: "hnsw", m: 16, ef_construction: 100 } }
              : { type: "knn_vector", method: { name: "hnsw", engine: "lucene", space_type: "cosinesimil" } }
          )
          const status = yield* send("GET", "/api/v1/status")
          expect(status.body).toMatchObject({ search_engine: { version: { number: engine.version } } })
        }))

      it.effect("bulk create and upsert, then text, filters and vectors; REINDEX_DATASETS rebuilds a lost index", () =>
        Effect.gen(function*() {
          const dataset = yield* published
          const bulk = (method: string, items: Array<unknown>) => send(method, datasetPath(dataset, "/records/bulk"), { items })
          expect((yield* bulk("POST", Array.from({ length: 28 }, (_, i) => recordAt(i)))).status).toBe(201)
          // Upsert: r3 moves to music (metadata and vector), r4 gets a new rank; r28 and r29 are new.
          const upserted = yield* bulk("PUT", [
            { external_id: "r3", metadata: { topic: "music", rank: 3 }, vectors: { emb: [0, 1, 0] } },
            { external_id: "r4", metadata: { topic: "music", rank: 40 } },
            recordAt(28),
            recordAt(29)
          ])
          expect(upserted.status).toBe(200)
          const before = yield* answers(dataset)
          expect(before.total).toBe(30)
          // Titles are kept by an upsert: r3 still says sport, but its metadata and vector moved.
          expect(before.music).toEqual(new Set(["r1", "r4", "r7", "r10", "r13", "r16", "r19", "r22", "r25", "r28"]))
          expect(before.scienceUpTo10).toEqual(new Set(["r2", "r5", "r8"]))
          expect(before.nearSport).toEqual(["r0", "r6", "r9"])
          // The sport vectors tilt further from the axis as i grows (r3 is no longer sport).
          expect(before.leastSport).toEqual(["r27", "r24", "r21"])
          expect(before.nearMusicRanked).toEqual(["r4", "r22"])

          // The index is lost; a restart with REINDEX_DATASETS rebuilds it from the database.
          expect((yield* onCluster(engine, "DELETE", `/gloss.${dataset.id}`)).status).toBe(200)
          const { dialect: used, env } = yield* TestServer
          const after = yield* Effect.scoped(answers(dataset).pipe(Effect.provide(TestServerOn(used, { ...env, REINDEX_DATASETS: "true" }))))
          expect(after).toEqual(before)
        }))
    })
  })
}
