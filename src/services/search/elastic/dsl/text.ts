/**
 * Full text: `simple_query_string` with AND between words, no wildcard analysis and limited fuzziness. Without a
 * field it searches every text-bearing field by name (text, custom, and chat message contents), not `fields.*`,
 * so that a chat's `role` keyword ("user", "assistant") does not match.
 */
import type { FieldSettings } from "../../../../domain/Field.js"
import type { IndexSchema, SearchQuery } from "../../Query.js"
import type { JsonObject } from "../json.js"
import { MATCH_NONE } from "./filters.js"

type TextQuery = NonNullable<SearchQuery["text"]>

const searchedPaths = (name: string, settings: FieldSettings): ReadonlyArray<string> => {
  switch (settings.type) {
    case "text":
    case "custom":
      return [`fields.${name}`]
    case "chat":
      return [`fields.${name}.content`]
    case "image":
      return []
  }
}

export const textClause = (schema: IndexSchema, text: TextQuery): JsonObject => {
  const fields = schema.fields
    .filter((field) => text.field === undefined || field.name === text.field)
    .flatMap((field) => searchedPaths(field.name, field.settings))
  if (fields.length === 0) return MATCH_NONE
  return {
    simple_query_string: {
      query: text.q,
      fields,
      default_operator: "AND",
      analyze_wildcard: false,
      auto_generate_synonyms_phrase_query: false,
      fuzzy_max_expansions: 10,
      fuzzy_transpositions: false
    }
  }
}
