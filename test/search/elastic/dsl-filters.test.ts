/** Golden request bodies: full text and every filter scope. Without vectors both engines get the same body. */
import { describe, expect, it } from "@effect/vitest"
import type { SearchFilter } from "../../../src/services/search/Query.js"
import { searchBody } from "../../../src/services/search/elastic/dsl.js"
import { query, schema, scopes, USER } from "./fixtures.js"

const RELEVANCE = [{ _score: { order: "desc" } }, { id: { order: "asc" } }]
const page = { sort: RELEVANCE, from: 0, size: 50, _source: false, track_total_hits: true }

/** The body both engines get for `q`, checked to be the same. */
const body = (q: Parameters<typeof searchBody>[1]) => {
  const elasticsearch = searchBody(schema, q, "elasticsearch")
  expect(searchBody(schema, q, "opensearch")).toEqual(elasticsearch)
  return elasticsearch
}

/** The query of a search with this one filter (sorted, so that a caller-scoped search is not shuffled). */
const clause = (filter: SearchFilter, user?: typeof USER) =>
  body(query({ filters: [filter], sort: [{ scope: scopes.status, order: "asc" }], user })).query

const only = (filter: object) => ({ bool: { filter: [filter] } })

const nested = (query: object) => ({ nested: { path: "responses", query } })
const byUser = { term: { "responses.user_id": USER } }

describe("full text", () => {
  it("no text and no filter: everything, best score first, then by id", () => {
    expect(body(query())).toEqual({ query: { match_all: {} }, ...page })
  })

  const textQuery = (fields: ReadonlyArray<string>) => ({
    simple_query_string: {
      query: "brown +fox",
      fields,
      default_operator: "AND",
      analyze_wildcard: false,
      auto_generate_synonyms_phrase_query: false,
      fuzzy_max_expansions: 10,
      fuzzy_transpositions: false
    }
  })

  it("without a field: text, chat message contents and custom fields (not chat roles, not images)", () => {
    expect(body(query({ text: { q: "brown +fox" } }))).toEqual({
      query: { bool: { must: [textQuery(["fields.text", "fields.chat.content", "fields.widget"])] } },
      ...page
    })
  })

  it("in one field; a chat field is searched by its messages' contents", () => {
    expect(body(query({ text: { q: "brown +fox", field: "text" } })).query).toEqual({
      bool: { must: [textQuery(["fields.text"])] }
    })
    expect(body(query({ text: { q: "brown +fox", field: "chat" } })).query).toEqual({
      bool: { must: [textQuery(["fields.chat.content"])] }
    })
  })

  it("in an image field: nothing matches", () => {
    expect(body(query({ text: { q: "fox", field: "picture" } })).query).toEqual({ bool: { must: [{ match_none: {} }] } })
  })

  it("text scores, filters only select", () => {
    const filters: ReadonlyArray<SearchFilter> = [{ kind: "terms", scope: scopes.status, values: ["pending"] }]
    const built = body(query({ text: { q: "brown +fox", field: "text" }, filters }))
    expect(built.query).toEqual({
      bool: { must: [textQuery(["fields.text"])], filter: [{ terms: { status: ["pending"] } }] }
    })
  })
})

describe("filters on record, metadata and suggestion scopes", () => {
  it("record properties", () => {
    expect(clause({ kind: "terms", scope: scopes.status, values: ["pending", "completed"] })).toEqual(
      only({ terms: { status: ["pending", "completed"] } })
    )
    expect(clause({ kind: "range", scope: scopes.insertedAt, ge: "2026-01-01T00:00:00Z" })).toEqual(
      only({ range: { inserted_at: { gte: "2026-01-01T00:00:00Z" } } })
    )
  })

  it("metadata", () => {
    expect(clause({ kind: "terms", scope: scopes.source, values: ["web"] })).toEqual(
      only({ terms: { "metadata.source": ["web"] } })
    )
    expect(clause({ kind: "range", scope: scopes.length, ge: 3, le: 10 })).toEqual(
      only({ range: { "metadata.length": { gte: 3, lte: 10 } } })
    )
  })

  it("suggestion value, agent, score and type", () => {
    expect(clause({ kind: "terms", scope: scopes.suggestedLabel, values: ["good"] })).toEqual(
      only({ terms: { "suggestions.status.value": ["good"] } })
    )
    expect(clause({ kind: "terms", scope: scopes.suggestionAgent, values: ["gpt"] })).toEqual(
      only({ terms: { "suggestions.status.agent": ["gpt"] } })
    )
    expect(clause({ kind: "range", scope: scopes.suggestionScore, le: 0.5 })).toEqual(
      only({ range: { "suggestions.rating.score": { lte: 0.5 } } })
    )
    expect(clause({ kind: "terms", scope: scopes.suggestionType, values: ["human"] })).toEqual(
      only({ terms: { "suggestions.status.type": ["human"] } })
    )
  })

  it("the value of a suggestion that is not indexed (a text answer) matches nothing", () => {
    expect(clause({ kind: "terms", scope: scopes.suggestedComment, values: ["x"] })).toEqual(only({ match_none: {} }))
  })

  it("do not depend on the caller", () => {
    const filter: SearchFilter = { kind: "terms", scope: scopes.source, values: ["web"] }
    expect(clause(filter, USER)).toEqual(clause(filter))
  })
})

describe("filters on responses", () => {
  const status = (...values: ReadonlyArray<string>): SearchFilter => ({ kind: "terms", scope: scopes.responseStatus, values })

  it("status, global: any response with that status", () => {
    expect(clause(status("submitted", "draft"))).toEqual(
      only(nested({ bool: { filter: [{ terms: { "responses.status": ["submitted", "draft"] } }] } }))
    )
  })

  it("status, caller-scoped: the caller's response has that status", () => {
    expect(clause(status("submitted"), USER)).toEqual(
      only(nested({ bool: { filter: [{ terms: { "responses.status": ["submitted"] } }, byUser] } }))
    )
  })

  it("pending, global: no response at all", () => {
    expect(clause(status("pending"))).toEqual(only({ bool: { must_not: [nested({ match_all: {} })] } }))
  })

  it("pending, caller-scoped: no response by the caller", () => {
    expect(clause(status("pending"), USER)).toEqual(
      only({ bool: { must_not: [nested({ bool: { filter: [byUser] } })] } })
    )
  })

  it("pending or a status: either alternative", () => {
    expect(clause(status("pending", "discarded"), USER)).toEqual(only({
      bool: {
        should: [
          nested({ bool: { filter: [{ terms: { "responses.status": ["discarded"] } }, byUser] } }),
          { bool: { must_not: [nested({ bool: { filter: [byUser] } })] } }
        ],
        minimum_should_match: 1
      }
    }))
  })

  it("answers: labels by terms, ratings by range, restricted to the caller when scoped", () => {
    expect(clause({ kind: "terms", scope: scopes.label, values: ["good"] })).toEqual(
      only(nested({ bool: { filter: [{ terms: { "responses.values.status": ["good"] } }] } }))
    )
    expect(clause({ kind: "range", scope: scopes.rating, ge: 2 }, USER)).toEqual(
      only(nested({ bool: { filter: [{ range: { "responses.values.rating": { gte: 2 } } }, byUser] } }))
    )
  })

  it("answers that are not indexed (text) match nothing", () => {
    expect(clause({ kind: "terms", scope: scopes.comment, values: ["nice"] }, USER)).toEqual(only({ match_none: {} }))
  })

  it("several filters must all match", () => {
    const built = body(query({
      filters: [status("submitted"), { kind: "terms", scope: scopes.source, values: ["web"] }],
      sort: [{ scope: scopes.status, order: "asc" }]
    }))
    expect(built.query).toEqual({
      bool: {
        filter: [
          nested({ bool: { filter: [{ terms: { "responses.status": ["submitted"] } }] } }),
          { terms: { "metadata.source": ["web"] } }
        ]
      }
    })
  })
})
