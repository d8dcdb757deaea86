/**
 * Sorts. Response scopes sort on the nested `responses` (ratings by their average, keywords by their lowest or
 * highest value), restricted to the caller's responses on a caller-scoped search. Every sort ends with the record
 * id, so that equal values come back in the same order on every page.
 */
import type { UserId } from "../../../../domain/Ids.js"
import type { SearchSort } from "../../Query.js"
import type { JsonObject } from "../json.js"
import { fieldPath, isNested, isSearchable, RESPONSES } from "./paths.js"

const BY_ID: JsonObject = { id: { order: "asc" } }

/** The order when nothing else is asked: best score first. */
export const RELEVANCE: ReadonlyArray<JsonObject> = [{ _score: { order: "desc" } }, BY_ID]

const sortClause = (sort: SearchSort, user: UserId | undefined): JsonObject => {
  const path = fieldPath(sort.scope)
  if (!isNested(sort.scope)) return { [path]: { order: sort.order } }
  const numeric = sort.scope.kind === "responseValue" && sort.scope.questionType === "rating"
  return {
    [path]: {
      order: sort.order,
      ...(numeric ? { mode: "avg" } : {}),
      nested: {
        path: RESPONSES,
        ...(user === undefined ? {} : { filter: { term: { [`${RESPONSES}.user_id`]: user } } })
      }
    }
  }
}

/**
 * Sorts on answers that are not indexed are left out (the engine could not apply them); null when none is left,
 * so that the caller falls back to its default order.
 */
export const sortClauses = (
  sorts: ReadonlyArray<SearchSort>,
  user: UserId | undefined
): ReadonlyArray<JsonObject> | null => {
  const usable = sorts.filter((sort) => isSearchable(sort.scope))
  if (usable.length === 0) return null
  const byId = usable.some(({ scope }) => scope.kind === "record" && scope.property === "id")
  return [...usable.map((sort) => sortClause(sort, user)), ...(byId ? [] : [BY_ID])]
}
