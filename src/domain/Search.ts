/** The search request and response of `POST …/records/search`. */
import { Either, Schema } from "effect"
import { JsonValue } from "./Common.js"
import { RecordId } from "./Ids.js"
import { Numbers } from "./Numbers.js"
import { DatasetRecord } from "./Record.js"

export const RecordScope = Schema.Struct({
  entity: Schema.Literal("record"),
  property: Schema.Literal("id", "external_id", "inserted_at", "updated_at", "status")
})
export const MetadataScope = Schema.Struct({ entity: Schema.Literal("metadata"), metadata_property: Schema.String })
export const SuggestionScope = Schema.Struct({
  entity: Schema.Literal("suggestion"),
  question: Schema.String,
  property: Schema.optional(Schema.Literal("value", "agent", "score", "type"))
})
export const ResponseScope = Schema.Struct({
  entity: Schema.Literal("response"),
  question: Schema.optional(Schema.NullOr(Schema.String)),
  property: Schema.optional(Schema.NullOr(Schema.Literal("status")))
})
export const Scope = Schema.Union(RecordScope, MetadataScope, SuggestionScope, ResponseScope)
export type Scope = typeof Scope.Type

const TermValue = Schema.Union(Schema.String, Schema.Number, Schema.Boolean)

export const TermsFilter = Schema.Struct({
  type: Schema.Literal("terms"),
  scope: Scope,
  values: Schema.Array(TermValue).pipe(Schema.minItems(1), Schema.maxItems(250))
})
export type TermsFilter = typeof TermsFilter.Type

const Bound = Schema.Union(Schema.Number, Schema.String)

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/

/**
 * A bound as its scope compares it, or why it cannot be one: metadata, suggestion and answer scopes compare
 * numbers (a numeric string is read as its number), record timestamps compare instants (an ISO 8601 date and time,
 * or epoch milliseconds), other record properties compare the value as sent.
 */
const comparable = (scope: Scope, bound: number | string): Either.Either<number | string, string> => {
  if (scope.entity === "record") {
    if (scope.property !== "inserted_at" && scope.property !== "updated_at") return Either.right(bound)
    const time = typeof bound === "number" ? new Date(bound).getTime() : DATE_TIME.test(bound) ? Date.parse(bound) : NaN
    return Number.isNaN(time)
      ? Either.left(`must be an ISO 8601 date and time or epoch milliseconds, got ${JSON.stringify(bound)}`)
      : Either.right(time)
  }
  if (typeof bound === "number") return Either.right(bound)
  return NUMBER.test(bound) ? Either.right(Number(bound)) : Either.left(`must be a number, got ${JSON.stringify(bound)}`)
}

export const RangeFilter = Schema.Struct({
  type: Schema.Literal("range"),
  scope: Scope,
  ge: Schema.optional(Schema.NullOr(Bound)),
  le: Schema.optional(Schema.NullOr(Bound))
}).pipe(
  Schema.filter((range) => {
    if (range.ge == null && range.le == null) return "a range filter needs ge, le or both"
    const ge = range.ge == null ? undefined : comparable(range.scope, range.ge)
    const le = range.le == null ? undefined : comparable(range.scope, range.le)
    if (ge !== undefined && Either.isLeft(ge)) return { path: ["ge"], message: ge.left }
    if (le !== undefined && Either.isLeft(le)) return { path: ["le"], message: le.left }
    if (ge !== undefined && le !== undefined && ge.right > le.right) {
      return `ge (${range.ge}) must not be greater than le (${range.le})`
    }
    return true
  })
)
export type RangeFilter = typeof RangeFilter.Type

export const Filter = Schema.Union(TermsFilter, RangeFilter)
export type Filter = typeof Filter.Type

export const Order = Schema.Struct({ scope: Scope, order: Schema.optional(Schema.Literal("asc", "desc")) })
export type Order = typeof Order.Type

/**
 * How long a search's text may be. People search with a few words; the database engines' cost grows with the
 * number of terms (every term is a lookup in the text index, and PostgreSQL parses a long query recursively until it
 * runs out of stack), so a text of 80 000 words held a search worker for seconds. Checked when the body is decoded,
 * before any database or engine sees it, whichever engine is configured.
 */
export const SEARCH_TEXT_MAX_CHARACTERS = 1_000
export const SEARCH_TEXT_MAX_TERMS = 100

/**
 * The words of a search text: runs of letters, digits and `_`, lowercased. The built-in engine on SQLite searches
 * exactly these; PostgreSQL's and Elasticsearch's analyzers split alike on spaces and punctuation.
 */
export const searchTerms = (q: string): ReadonlyArray<string> =>
  q.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((term) => term !== "")

/** Counted in code points, as people count characters; a string of more UTF-16 units than twice the limit is over. */
const tooLong = (q: string) => q.length > 2 * SEARCH_TEXT_MAX_CHARACTERS || [...q].length > SEARCH_TEXT_MAX_CHARACTERS

export const SearchText = Schema.String.pipe(
  Schema.filter((q) => {
    if (tooLong(q)) return `a search text has at most ${SEARCH_TEXT_MAX_CHARACTERS} characters`
    const terms = searchTerms(q).length
    return terms <= SEARCH_TEXT_MAX_TERMS || `a search text has at most ${SEARCH_TEXT_MAX_TERMS} words, this one has ${terms}`
  }, {
    description: `At most ${SEARCH_TEXT_MAX_CHARACTERS} characters and ${SEARCH_TEXT_MAX_TERMS} words`,
    jsonSchema: { maxLength: SEARCH_TEXT_MAX_CHARACTERS }
  })
)

export const TextQuery = Schema.Struct({ q: SearchText, field: Schema.optional(Schema.NullOr(Schema.String)) })

export const VectorQuery = Schema.Struct({
  name: Schema.String,
  record_id: Schema.optional(Schema.NullOr(RecordId)),
  value: Schema.optional(Schema.NullOr(Numbers)),
  order: Schema.optional(Schema.Literal("most_similar", "least_similar"))
})

export const SearchRecordsQuery = Schema.Struct({
  query: Schema.optional(Schema.NullOr(Schema.Struct({
    text: Schema.optional(Schema.NullOr(TextQuery)),
    vector: Schema.optional(Schema.NullOr(VectorQuery))
  }))),
  // The Python SDK sends `{"type": "and", "and": [...]}`; `type` is accepted and ignored.
  filters: Schema.optional(Schema.NullOr(Schema.Struct({
    type: Schema.optional(Schema.Literal("and")),
    and: Schema.Array(Filter).pipe(Schema.minItems(1), Schema.maxItems(50))
  }))),
  sort: Schema.optional(Schema.NullOr(Schema.Array(Order).pipe(Schema.minItems(1), Schema.maxItems(10))))
}).annotations({ identifier: "SearchRecordsQuery" })
export type SearchRecordsQuery = typeof SearchRecordsQuery.Type

export const SearchRecordsResult = Schema.Struct({
  items: Schema.Array(Schema.Struct({ record: DatasetRecord, query_score: Schema.NullOr(Schema.Number) })),
  total: Schema.Int,
  /**
   * `eq`: `total` is exact. `gte`: there are at least `total` matches (a search stops counting past 10 000, as
   * Elasticsearch's `track_total_hits` does). A Gloss addition to the wire; Argilla's clients ignore it.
   */
  total_relation: Schema.Literal("eq", "gte")
}).annotations({ identifier: "SearchRecordsResult" })

export const MetadataMetrics = Schema.Union(
  Schema.Struct({
    type: Schema.Literal("terms"),
    total: Schema.Int,
    values: Schema.Array(Schema.Struct({ term: JsonValue, count: Schema.Int }))
  }),
  Schema.Struct({ type: Schema.Literal("integer", "float"), min: Schema.NullOr(Schema.Number), max: Schema.NullOr(Schema.Number) })
).annotations({ identifier: "MetadataMetrics" })
export type MetadataMetrics = typeof MetadataMetrics.Type

export const SuggestionsOptions = Schema.Struct({
  items: Schema.Array(Schema.Struct({
    question: Schema.Struct({ id: Schema.String, name: Schema.String }),
    agents: Schema.Array(Schema.String)
  }))
}).annotations({ identifier: "SuggestionsOptions" })
