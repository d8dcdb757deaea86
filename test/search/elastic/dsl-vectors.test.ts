/** Golden request bodies: similarity search, where the two engines differ. */
import { describe, expect, it } from "@effect/vitest"
import type { SearchQuery } from "../../../src/services/search/Query.js"
import { searchBody } from "../../../src/services/search/elastic/dsl.js"
import { numCandidates } from "../../../src/services/search/elastic/dsl/vectors.js"
import { query, RECORD, schema, scopes, USER, VECTOR } from "./fixtures.js"

const vector = (overrides: Partial<NonNullable<SearchQuery["vector"]>> = {}): SearchQuery["vector"] => ({
  vectorSettingsId: VECTOR,
  name: "embedding",
  value: [0.5, -0.25, 0],
  order: "most_similar",
  ...overrides
})

const FIELD = `vectors.${VECTOR}`
const filtered: Partial<SearchQuery> = {
  text: { q: "fox", field: "text" },
  filters: [{ kind: "terms", scope: scopes.source, values: ["web"] }]
}
const textClause = expect.objectContaining({ simple_query_string: expect.objectContaining({ query: "fox" }) })
const sourceClause = { terms: { "metadata.source": ["web"] } }
const notTheRecord = { ids: { values: [RECORD] } }
const idsOnly = { _source: false, track_total_hits: true }

describe("Elasticsearch similarity search", () => {
  it("k-NN on the vector field, k = limit; offset, sort and the caller's order do not apply", () => {
    const q = query({ vector: vector(), offset: 100, limit: 20, sort: [{ scope: scopes.length, order: "asc" }], user: USER })
    expect(searchBody(schema, q, "elasticsearch")).toEqual({
      knn: { field: FIELD, query_vector: [0.5, -0.25, 0], k: 20, num_candidates: 500 },
      size: 20,
      ...idsOnly
    })
  })

  it("least similar: the negated vector", () => {
    const body = searchBody(schema, query({ vector: vector({ order: "least_similar" }) }), "elasticsearch")
    expect(body).toMatchObject({ knn: { query_vector: [-0.5, 0.25, 0] } })
  })

  it("the text query and filters pre-filter the candidates; the reference record is excluded", () => {
    const q = query({ ...filtered, vector: vector({ excludeRecordId: RECORD }), limit: 10 })
    expect(searchBody(schema, q, "elasticsearch")).toEqual({
      knn: {
        field: FIELD,
        query_vector: [0.5, -0.25, 0],
        k: 10,
        num_candidates: 500,
        filter: { bool: { filter: [textClause, sourceClause], must_not: [notTheRecord] } }
      },
      size: 10,
      ...idsOnly
    })
  })

  it("num_candidates follows Argilla's table, never below k", () => {
    expect([1, 49, 50, 100, 150, 199, 200, 1000].map(numCandidates)).toEqual([500, 500, 100, 100, 150, 199, 2000, 2000])
  })
})

describe("OpenSearch similarity search", () => {
  it("a knn query, k = limit", () => {
    expect(searchBody(schema, query({ vector: vector(), limit: 20, offset: 40 }), "opensearch")).toEqual({
      query: { knn: { [FIELD]: { vector: [0.5, -0.25, 0], k: 20 } } },
      size: 20,
      ...idsOnly
    })
  })

  it("least similar: the negated vector", () => {
    const body = searchBody(schema, query({ vector: vector({ order: "least_similar" }) }), "opensearch")
    expect(body).toMatchObject({ query: { knn: { [FIELD]: { vector: [-0.5, 0.25, 0] } } } })
  })

  it("the text query, filters and the reference record's exclusion apply after the k-NN step (post_filter)", () => {
    const q = query({ ...filtered, vector: vector({ excludeRecordId: RECORD }), limit: 10 })
    expect(searchBody(schema, q, "opensearch")).toEqual({
      query: { knn: { [FIELD]: { vector: [0.5, -0.25, 0], k: 500 } } },
      post_filter: { bool: { filter: [textClause, sourceClause], must_not: [notTheRecord] } },
      size: 10,
      ...idsOnly
    })
  })

  it("filtered, k is Elasticsearch's candidate pool, so that the post-filter rarely leaves fewer than limit", () => {
    for (const [limit, k] of [[10, 500], [150, 150], [1000, 2000]] as const) {
      const body = searchBody(schema, query({ ...filtered, vector: vector(), limit }), "opensearch")
      expect(body).toMatchObject({ query: { knn: { [FIELD]: { k } } }, size: limit })
    }
  })

  it("excluding the reference record without filters asks for one more neighbour", () => {
    const q = query({ vector: vector({ excludeRecordId: RECORD }), limit: 10 })
    expect(searchBody(schema, q, "opensearch")).toEqual({
      query: { knn: { [FIELD]: { vector: [0.5, -0.25, 0], k: 11 } } },
      post_filter: { bool: { must_not: [notTheRecord] } },
      size: 10,
      ...idsOnly
    })
  })
})
