import { describe, expect, it } from "@effect/vitest"
import { createIndexBody, indexMapping, indexName, mappingAdditions } from "../../../src/services/search/elastic/mapping.js"
import { DATASET, grownSchema, LATER_VECTOR, schema, VECTOR } from "./fixtures.js"

const keyword = { type: "keyword" }
const notIndexed = { type: "object", enabled: false }

/** Everything but the vectors is the same for both engines. */
const properties = (vectors: object) => ({
  id: keyword,
  external_id: keyword,
  status: keyword,
  inserted_at: { type: "date" },
  updated_at: { type: "date" },
  fields: {
    properties: {
      text: { type: "text" },
      picture: notIndexed,
      chat: { type: "object", properties: { role: keyword, content: { type: "text" } } },
      widget: { type: "text" }
    }
  },
  metadata: {
    dynamic: false,
    properties: { source: keyword, tags: keyword, length: { type: "long" }, quality: { type: "float" } }
  },
  responses: {
    type: "nested",
    properties: {
      id: keyword,
      status: keyword,
      user_id: keyword,
      values: {
        properties: {
          comment: notIndexed,
          rating: { type: "integer" },
          status: keyword,
          topics: keyword,
          ranking: notIndexed,
          entities: notIndexed
        }
      }
    }
  },
  suggestions: {
    properties: Object.fromEntries(
      [
        ["comment", notIndexed],
        ["rating", { type: "integer" }],
        ["status", keyword],
        ["topics", keyword],
        ["ranking", notIndexed],
        ["entities", notIndexed]
      ].map(([name, value]) => [name, { properties: { value, score: { type: "float" }, agent: keyword, type: keyword } }])
    )
  },
  vectors: { properties: vectors }
})

// Pinned: Elasticsearch 8.14+ would otherwise quantize (int8_hnsw) and misorder similar vectors.
const esVector = (dims: number) => ({
  type: "dense_vector",
  dims,
  index: true,
  similarity: "cosine",
  index_options: { type: "hnsw", m: 16, ef_construction: 100 }
})
const osVector = (dimension: number) => ({
  type: "knn_vector",
  dimension,
  method: { name: "hnsw", engine: "lucene", space_type: "cosinesimil", parameters: { m: 16, ef_construction: 100 } }
})

describe("index settings and mapping", () => {
  it("names the index after the dataset", () => {
    expect(indexName(DATASET)).toBe("gloss.11111111-1111-4111-8111-111111111111")
  })

  it("Elasticsearch: settings from the configured sizing, a strict mapping of every kind", () => {
    expect(createIndexBody(schema, "elasticsearch", { shards: 2, replicas: 1 })).toEqual({
      settings: {
        index: {
          number_of_shards: 2,
          number_of_replicas: 1,
          max_result_window: 500_000,
          mapping: { total_fields: { limit: 2_000 } }
        }
      },
      mappings: { dynamic: "strict", properties: properties({ [VECTOR]: esVector(3) }) }
    })
  })

  it("OpenSearch: a k-NN index with knn_vector fields", () => {
    expect(createIndexBody(schema, "opensearch", { shards: 1, replicas: 0 })).toEqual({
      settings: {
        index: {
          number_of_shards: 1,
          number_of_replicas: 0,
          max_result_window: 500_000,
          mapping: { total_fields: { limit: 2_000 } },
          knn: true
        }
      },
      mappings: { dynamic: "strict", properties: properties({ [VECTOR]: osVector(3) }) }
    })
  })

  it("OpenSearch: an index without vectors is a k-NN index too (the setting cannot be changed later)", () => {
    const body = createIndexBody({ ...schema, vectorSettings: [] }, "opensearch", { shards: 1, replicas: 0 })
    expect(body.settings).toMatchObject({ index: { knn: true } })
  })

  it("a dataset with nothing but a field still has every top-level property", () => {
    const bare = { ...schema, questions: [], metadataProperties: [], vectorSettings: [] }
    expect(indexMapping(bare, "elasticsearch")).toMatchObject({
      properties: {
        metadata: { dynamic: false, properties: {} },
        responses: { type: "nested", properties: { values: { properties: {} } } },
        suggestions: { properties: {} },
        vectors: { properties: {} }
      }
    })
  })
})

describe("mapping additions", () => {
  const mapped = { metadata: new Set(["source", "tags", "length", "quality"]), vectors: new Set<string>([VECTOR]) }

  it("adds only the metadata properties and vector settings the index does not map yet", () => {
    expect(mappingAdditions(grownSchema, "elasticsearch", mapped)).toEqual({
      properties: {
        metadata: { properties: { year: { type: "long" } } },
        vectors: { properties: { [LATER_VECTOR]: esVector(2) } }
      }
    })
    expect(mappingAdditions(grownSchema, "opensearch", mapped)).toEqual({
      properties: {
        metadata: { properties: { year: { type: "long" } } },
        vectors: { properties: { [LATER_VECTOR]: osVector(2) } }
      }
    })
  })

  it("sends only the kind that changed", () => {
    const onlyMetadata = { ...grownSchema, vectorSettings: schema.vectorSettings }
    expect(mappingAdditions(onlyMetadata, "elasticsearch", mapped)).toEqual({
      properties: { metadata: { properties: { year: { type: "long" } } } }
    })
  })

  it("is null when the index maps everything already", () => {
    expect(mappingAdditions(schema, "opensearch", mapped)).toBeNull()
  })
})
