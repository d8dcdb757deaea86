/**
 * Filters as query clauses (filter context: they select, they do not score). Response scopes are nested queries on
 * `responses`, restricted to the caller's responses when the search is caller-scoped; `pending` means "no response"
 * (by the caller, or by anyone on the global search).
 */
import type { UserId } from "../../../../domain/Ids.js"
import type { SearchFilter } from "../../Query.js"
import type { JsonObject } from "../json.js"
import { fieldPath, isSearchable, RESPONSES } from "./paths.js"

export const MATCH_NONE: JsonObject = { match_none: {} }

const condition = (path: string, filter: SearchFilter): JsonObject =>
  filter.kind === "terms"
    ? { terms: { [path]: [...filter.values] } }
    : {
      range: {
        [path]: {
          ...(filter.ge === undefined ? {} : { gte: filter.ge }),
          ...(filter.le === undefined ? {} : { lte: filter.le })
        }
      }
    }

/** Records with a response (by `user`, when given) that meets all `conditions`. */
export const withResponse = (user: UserId | undefined, conditions: ReadonlyArray<JsonObject>): JsonObject => {
  const all = user === undefined ? conditions : [...conditions, { term: { [`${RESPONSES}.user_id`]: user } }]
  return { nested: { path: RESPONSES, query: all.length === 0 ? { match_all: {} } : { bool: { filter: all } } } }
}

const responseStatus = (filter: SearchFilter, user: UserId | undefined): JsonObject => {
  const path = fieldPath(filter.scope)
  if (filter.kind === "range") return withResponse(user, [condition(path, filter)])
  const statuses = filter.values.filter((value) => value !== "pending")
  const alternatives = [
    ...(statuses.length > 0 ? [withResponse(user, [{ terms: { [path]: statuses } }])] : []),
    ...(statuses.length < filter.values.length ? [{ bool: { must_not: [withResponse(user, [])] } }] : [])
  ]
  const [only] = alternatives
  return alternatives.length === 1 && only !== undefined
    ? only
    : { bool: { should: alternatives, minimum_should_match: 1 } }
}

export const filterClause = (filter: SearchFilter, user: UserId | undefined): JsonObject => {
  if (!isSearchable(filter.scope)) return MATCH_NONE
  switch (filter.scope.kind) {
    case "responseStatus":
      return responseStatus(filter, user)
    case "responseValue":
      return withResponse(user, [condition(fieldPath(filter.scope), filter)])
    default:
      return condition(fieldPath(filter.scope), filter)
  }
}
