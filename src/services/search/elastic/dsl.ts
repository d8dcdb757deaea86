/**
 * The search request body for a `SearchQuery`, one builder for both engines: text, filters, sorts and paging are
 * the same DSL; only similarity search differs (dsl/vectors.ts). Bodies ask for ids and scores only (`_source:
 * false`) and for an exact total (`track_total_hits`).
 */
import type { IndexSchema, SearchQuery } from "../Query.js"
import { filterClause } from "./dsl/filters.js"
import { RELEVANCE, sortClauses } from "./dsl/sorts.js"
import { textClause } from "./dsl/text.js"
import { vectorSearchBody } from "./dsl/vectors.js"
import type { Flavor, JsonObject } from "./json.js"

/** The text query and the filters, each of which must match. */
const clauses = (schema: IndexSchema, query: SearchQuery): ReadonlyArray<JsonObject> => [
  ...(query.text === undefined ? [] : [textClause(schema, query.text)]),
  ...query.filters.map((filter) => filterClause(filter, query.user))
]

/** Scores come from the text query alone: filters select without scoring. */
const combined = (schema: IndexSchema, query: SearchQuery): JsonObject => {
  if (query.text === undefined && query.filters.length === 0) return { match_all: {} }
  return {
    bool: {
      ...(query.text === undefined ? {} : { must: [textClause(schema, query.text)] }),
      ...(query.filters.length === 0 ? {} : { filter: query.filters.map((filter) => filterClause(filter, query.user)) })
    }
  }
}

/**
 * A caller-scoped search without a sort: a stable pseudo-random order of the caller's own, from a random score
 * seeded by their id (`_seq_no` as the per-document source of randomness, as Argilla does).
 */
const shuffledFor = (user: string, query: JsonObject): JsonObject => ({
  function_score: { query, functions: [{ random_score: { seed: user, field: "_seq_no" } }] }
})

export const searchBody = (schema: IndexSchema, query: SearchQuery, flavor: Flavor): JsonObject => {
  const common = { _source: false, track_total_hits: true }
  if (query.vector !== undefined) {
    return { ...vectorSearchBody(flavor, query.vector, clauses(schema, query), query.limit), ...common }
  }
  const sort = sortClauses(query.sort, query.user)
  const base = combined(schema, query)
  return {
    query: sort === null && query.user !== undefined ? shuffledFor(query.user, base) : base,
    sort: sort ?? RELEVANCE,
    // Sorted by something else, a text search still reports how well each record matched.
    ...(sort !== null && query.text !== undefined ? { track_scores: true } : {}),
    from: query.offset,
    size: query.limit,
    ...common
  }
}

/**
 * One page of the ids of every match (`matchingIds`): the text query and filters in id order, after the last id of
 * the page before (`search_after`), so no page is deeper than the first and the 10 000-hit window never applies.
 */
export const idsPageBody = (
  schema: IndexSchema,
  query: SearchQuery,
  after: string | undefined,
  size: number
): JsonObject => ({
  query: combined(schema, query),
  sort: [{ id: { order: "asc" } }],
  size,
  _source: false,
  track_total_hits: false,
  ...(after === undefined ? {} : { search_after: [after] })
})
