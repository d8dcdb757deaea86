/** Golden request bodies: sorts, paging and the caller's own random order. Both engines get the same body. */
import { describe, expect, it } from "@effect/vitest"
import type { SearchQuery, SearchSort } from "../../../src/services/search/Query.js"
import { searchBody } from "../../../src/services/search/elastic/dsl.js"
import { query, schema, scopes, USER } from "./fixtures.js"

const body = (q: SearchQuery) => {
  const elasticsearch = searchBody(schema, q, "elasticsearch")
  expect(searchBody(schema, q, "opensearch")).toEqual(elasticsearch)
  return elasticsearch
}

const sortOf = (sort: ReadonlyArray<SearchSort>, user?: typeof USER) => body(query({ sort, user })).sort

const BY_ID = { id: { order: "asc" } }

describe("sorts", () => {
  it("record, metadata and suggestion scopes sort on their field, then by id", () => {
    expect(sortOf([
      { scope: scopes.insertedAt, order: "desc" },
      { scope: scopes.length, order: "asc" },
      { scope: scopes.suggestionScore, order: "desc" },
      { scope: scopes.suggestedLabel, order: "asc" }
    ])).toEqual([
      { inserted_at: { order: "desc" } },
      { "metadata.length": { order: "asc" } },
      { "suggestions.rating.score": { order: "desc" } },
      { "suggestions.status.value": { order: "asc" } },
      BY_ID
    ])
  })

  it("a sort by id needs no tie-breaker", () => {
    expect(sortOf([{ scope: { kind: "record", property: "id" }, order: "desc" }])).toEqual([{ id: { order: "desc" } }])
  })

  it("ratings sort on the nested responses by their average; globally, all responses count", () => {
    expect(sortOf([{ scope: scopes.rating, order: "desc" }])).toEqual([
      { "responses.values.rating": { order: "desc", mode: "avg", nested: { path: "responses" } } },
      BY_ID
    ])
  })

  it("caller-scoped, only the caller's response counts; keywords sort without a mode", () => {
    const mine = { path: "responses", filter: { term: { "responses.user_id": USER } } }
    expect(sortOf([{ scope: scopes.label, order: "asc" }, { scope: scopes.responseStatus, order: "desc" }], USER))
      .toEqual([
        { "responses.values.status": { order: "asc", nested: mine } },
        { "responses.status": { order: "desc", nested: mine } },
        BY_ID
      ])
  })

  it("a sort on answers that are not indexed is left out; with nothing left, the default order applies", () => {
    expect(sortOf([{ scope: scopes.comment, order: "asc" }, { scope: scopes.length, order: "asc" }])).toEqual([
      { "metadata.length": { order: "asc" } },
      BY_ID
    ])
    expect(sortOf([{ scope: scopes.comment, order: "asc" }])).toEqual([{ _score: { order: "desc" } }, BY_ID])
  })
})

describe("scores", () => {
  it("a text search sorted by something else still tracks scores", () => {
    const q = query({ text: { q: "fox" }, sort: [{ scope: scopes.length, order: "asc" }] })
    expect(body(q)).toMatchObject({ track_scores: true })
    expect(body(query({ sort: [{ scope: scopes.length, order: "asc" }] }))).not.toHaveProperty("track_scores")
    expect(body(query({ text: { q: "fox" } }))).not.toHaveProperty("track_scores")
  })
})

describe("paging", () => {
  it("offset and limit are from and size; the total is exact", () => {
    expect(body(query({ offset: 200, limit: 25 }))).toMatchObject({ from: 200, size: 25, track_total_hits: true })
  })
})

describe("the caller's own order", () => {
  const random = (inner: object) => ({
    function_score: { query: inner, functions: [{ random_score: { seed: USER, field: "_seq_no" } }] }
  })

  it("a caller-scoped search without a sort is shuffled by a random score seeded by the caller's id", () => {
    expect(body(query({ user: USER }))).toEqual({
      query: random({ match_all: {} }),
      sort: [{ _score: { order: "desc" } }, BY_ID],
      from: 0,
      size: 50,
      _source: false,
      track_total_hits: true
    })
  })

  it("wraps the text query and the filters", () => {
    const q = query({
      user: USER,
      text: { q: "fox", field: "text" },
      filters: [{ kind: "terms", scope: scopes.source, values: ["web"] }]
    })
    expect(body(q).query).toEqual(random({
      bool: {
        must: [expect.objectContaining({ simple_query_string: expect.objectContaining({ query: "fox" }) })],
        filter: [{ terms: { "metadata.source": ["web"] } }]
      }
    }))
  })

  it("is not applied when a sort is given, nor on the global search", () => {
    expect(body(query({ user: USER, sort: [{ scope: scopes.length, order: "asc" }] })).query).toEqual({ match_all: {} })
    expect(body(query()).query).toEqual({ match_all: {} })
  })
})
