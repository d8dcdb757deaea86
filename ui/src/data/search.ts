/**
 * The search body of a queue (the contract's `POST …/records/search`) and the URL that holds it, kept free of I/O so
 * both can be tested on their own. Every part of a view (queue, text, filters, sort, "find similar") lives in the query
 * string, so a view is a link: `queryFromUrl(new URLSearchParams(urlParams(q)))` gives `q` back.
 */
import { Option, Schema } from "effect"
import { RecordId } from "../../../src/domain/Ids.js"
import type { Filter, Order, SearchRecordsQuery } from "../../../src/domain/Search.js"

export const QUEUES = ["pending", "draft", "submitted", "discarded"] as const
export type Queue = (typeof QUEUES)[number]

export const isQueue = (value: string | null): value is Queue => QUEUES.some((q) => q === value)

const TermValueSchema = Schema.Union(Schema.String, Schema.Number, Schema.Boolean)
export type TermValue = typeof TermValueSchema.Type

const Bounds = { ge: Schema.optional(Schema.Number), le: Schema.optional(Schema.Number) }
const ValueFilterSchema = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("terms"), values: Schema.Array(TermValueSchema) }),
  Schema.Struct({ kind: Schema.Literal("range"), ...Bounds })
)
/** Terms or a numeric range, on a metadata property or on the caller's answer to a question. */
export type MetadataFilter = typeof ValueFilterSchema.Type
export type ValueFilter = MetadataFilter

const SuggestionFilterSchema = Schema.Struct({
  values: Schema.optional(Schema.Array(TermValueSchema)),
  agents: Schema.optional(Schema.Array(Schema.String)),
  score: Schema.optional(Schema.Struct(Bounds))
})
/** On one question's suggestion: its value, its agent, its score (0–1). Each part is its own filter on the wire. */
export type SuggestionFilter = typeof SuggestionFilterSchema.Type

const ByName = <A, I>(value: Schema.Schema<A, I>) => Schema.parseJson(Schema.Record({ key: Schema.String, value }))
const decodeByName = <A, I>(value: Schema.Schema<A, I>, raw: string | null): Readonly<Record<string, A>> =>
  raw === null ? {} : Option.getOrElse(Schema.decodeUnknownOption(ByName(value))(raw), () => ({}))

export const RECORD_STATUSES = ["pending", "completed"] as const
export type RecordStatusFilter = (typeof RECORD_STATUSES)[number]

/** The record's own properties a search can sort by (the contract's record scope, less `id`). */
export const RECORD_SORT_PROPERTIES = ["inserted_at", "updated_at", "external_id", "status"] as const
export type RecordSortProperty = (typeof RECORD_SORT_PROPERTIES)[number]
const isRecordSortProperty = (name: string): name is RecordSortProperty =>
  RECORD_SORT_PROPERTIES.some((property) => property === name)

/** What a sort orders by: the scopes the contract and both engines sort on (no scope reaches a field's text). */
export type SortKey =
  | { readonly kind: "record"; readonly property: RecordSortProperty }
  | { readonly kind: "metadata"; readonly name: string }
  | { readonly kind: "suggestion"; readonly question: string; readonly property: "score" | "value" }
  | { readonly kind: "response"; readonly question: string }

export interface SortOrder {
  readonly key: SortKey
  readonly order: "asc" | "desc"
}

/** The contract's limit on sort entries. */
export const MAX_SORT = 10

export const SIMILAR_ORDERS = ["most_similar", "least_similar"] as const
export type SimilarOrder = (typeof SIMILAR_ORDERS)[number]

export interface Similar {
  readonly recordId: RecordId
  readonly vector: string
  readonly order: SimilarOrder
}

export interface QueueQuery {
  readonly queue: Queue
  readonly text: string
  readonly metadata: Readonly<Record<string, MetadataFilter>>
  /** The caller's answers, by question name. */
  readonly responses?: Readonly<Record<string, ValueFilter>> | undefined
  /** Suggestions, by question name. */
  readonly suggestions?: Readonly<Record<string, SuggestionFilter>> | undefined
  /** `record.status`, beside the queue; the Pending queue always asks for pending records. */
  readonly recordStatus?: RecordStatusFilter | undefined
  readonly sort?: ReadonlyArray<SortOrder> | undefined
  readonly similar?: Similar | undefined
}

export const PAGE_SIZE = 20

const hasBounds = (range: { readonly ge?: number | undefined; readonly le?: number | undefined } | undefined) =>
  range !== undefined && (range.ge !== undefined || range.le !== undefined)

const bounds = (range: { readonly ge?: number | undefined; readonly le?: number | undefined }) => ({
  ...(range.ge === undefined ? {} : { ge: range.ge }),
  ...(range.le === undefined ? {} : { le: range.le })
})

/** Whether a value filter asks for anything (an empty one is left out of the body and the URL). */
export const isActive = (filter: ValueFilter): boolean =>
  filter.kind === "terms" ? filter.values.length > 0 : hasBounds(filter)

export const isSuggestionActive = (filter: SuggestionFilter): boolean =>
  (filter.values?.length ?? 0) > 0 || (filter.agents?.length ?? 0) > 0 || hasBounds(filter.score)

const sortScope = (key: SortKey): Order["scope"] => {
  switch (key.kind) {
    case "record":
      return { entity: "record", property: key.property }
    case "metadata":
      return { entity: "metadata", metadata_property: key.name }
    case "suggestion":
      return { entity: "suggestion", question: key.question, property: key.property }
    case "response":
      return { entity: "response", question: key.question }
  }
}

/**
 * The search body for a queue: the response-status filter, `record.status = pending` for Pending (else the chosen
 * record status), then metadata, answer and suggestion filters, the sort and the vector query.
 */
export const searchBody = (query: QueueQuery): SearchRecordsQuery => {
  const { metadata, queue, text } = query
  const and: Array<Filter> = [{ type: "terms", scope: { entity: "response", property: "status" }, values: [queue] }]
  const recordStatus = queue === "pending" ? "pending" : query.recordStatus
  if (recordStatus !== undefined) and.push({ type: "terms", scope: { entity: "record", property: "status" }, values: [recordStatus] })
  const valueFilter = (scope: Filter["scope"], filter: ValueFilter) => {
    if (!isActive(filter)) return
    and.push(filter.kind === "terms" ? { type: "terms", scope, values: filter.values } : { type: "range", scope, ...bounds(filter) })
  }
  for (const [name, filter] of Object.entries(metadata)) valueFilter({ entity: "metadata", metadata_property: name }, filter)
  for (const [question, filter] of Object.entries(query.responses ?? {})) valueFilter({ entity: "response", question }, filter)
  for (const [question, filter] of Object.entries(query.suggestions ?? {})) {
    if (filter.values !== undefined && filter.values.length > 0) {
      and.push({ type: "terms", scope: { entity: "suggestion", question, property: "value" }, values: filter.values })
    }
    if (filter.agents !== undefined && filter.agents.length > 0) {
      and.push({ type: "terms", scope: { entity: "suggestion", question, property: "agent" }, values: filter.agents })
    }
    if (filter.score !== undefined && hasBounds(filter.score)) {
      and.push({ type: "range", scope: { entity: "suggestion", question, property: "score" }, ...bounds(filter.score) })
    }
  }
  const q = text.trim()
  const similar = query.similar
  const vector = similar === undefined
    ? undefined
    : { name: similar.vector, record_id: similar.recordId, order: similar.order }
  const sort = (query.sort ?? []).slice(0, MAX_SORT).map(({ key, order }) => ({ scope: sortScope(key), order }))
  const search = { ...(q === "" ? {} : { text: { q } }), ...(vector === undefined ? {} : { vector }) }
  return {
    filters: { and },
    ...(Object.keys(search).length === 0 ? {} : { query: search }),
    ...(sort.length === 0 ? {} : { sort })
  }
}

/**
 * Whether a view reads the caller's own queue (`POST /api/gloss/me/datasets/{id}/queue`, the order the server keeps
 * for them: assigned records, then the pool's) rather than a search: the Pending queue with neither a sort nor a
 * "find similar", whose orders the queue cannot apply.
 */
export const usesQueue = (query: QueueQuery): boolean =>
  query.queue === "pending" && (query.sort ?? []).length === 0 && query.similar === undefined

const isStatusFilter = (filter: Filter) =>
  "property" in filter.scope && filter.scope.property === "status" &&
  (filter.scope.entity === "response" || filter.scope.entity === "record")

/**
 * The search that narrows the caller's queue (text, metadata, answer and suggestion filters), or undefined when the
 * view narrows nothing. Without the response- and record-status filters of `searchBody`: the queue holds only records
 * the caller has not answered already, and its assigned records stay in it whatever their status (others may have
 * completed a record the lead assigned to the caller too). Sort and vector are a search's, never the queue's.
 */
export const queueNarrowing = (query: QueueQuery): SearchRecordsQuery | undefined => {
  const body = searchBody(query)
  const and = (body.filters?.and ?? []).filter((filter) => !isStatusFilter(filter))
  const text = body.query?.text
  if (and.length === 0 && text == null) return undefined
  return { ...(and.length === 0 ? {} : { filters: { and } }), ...(text == null ? {} : { query: { text } }) }
}

/** A view without its suggestion filters and suggestion sorts: what a blind dataset lets an annotator search by. */
export const withoutSuggestions = (query: QueueQuery): QueueQuery => {
  const hasSuggestionSort = (query.sort ?? []).some((s) => s.key.kind === "suggestion")
  if (Object.keys(query.suggestions ?? {}).length === 0 && !hasSuggestionSort) return query
  return { ...query, suggestions: {}, sort: (query.sort ?? []).filter((s) => s.key.kind !== "suggestion") }
}

/** `record.inserted_at`, `metadata.price`, `suggestion.label.score`, `response.rating`: names are `[a-z0-9_-]`. */
export const sortKeyId = (key: SortKey): string => {
  switch (key.kind) {
    case "record":
      return `record.${key.property}`
    case "metadata":
      return `metadata.${key.name}`
    case "suggestion":
      return `suggestion.${key.question}.${key.property}`
    case "response":
      return `response.${key.question}`
  }
}

export const parseSortKey = (id: string): SortKey | undefined => {
  const [entity, name, property, ...rest] = id.split(".")
  if (name === undefined || name === "" || rest.length > 0) return undefined
  if (entity === "record" && property === undefined && isRecordSortProperty(name)) return { kind: "record", property: name }
  if (entity === "metadata" && property === undefined) return { kind: "metadata", name }
  if (entity === "response" && property === undefined) return { kind: "response", question: name }
  if (entity === "suggestion" && (property === "score" || property === "value")) return { kind: "suggestion", question: name, property }
  return undefined
}

const formatSort = (sort: ReadonlyArray<SortOrder>) => sort.map((s) => `${sortKeyId(s.key)}:${s.order}`).join(",")

const parseSort = (raw: string | null): ReadonlyArray<SortOrder> => {
  if (raw === null || raw === "") return []
  const out: Array<SortOrder> = []
  for (const part of raw.split(",")) {
    const [id = "", order] = part.split(":")
    const key = parseSortKey(id)
    if (key !== undefined && (order === "asc" || order === "desc") && !out.some((s) => sortKeyId(s.key) === id)) {
      out.push({ key, order })
    }
  }
  return out.slice(0, MAX_SORT)
}

const json = <A>(value: Readonly<Record<string, A>> | undefined, active: (a: A) => boolean): string | undefined => {
  const kept = Object.entries(value ?? {}).filter(([, v]) => active(v))
  return kept.length === 0 ? undefined : JSON.stringify(Object.fromEntries(kept))
}

/** The URL parameters of a view (undefined: not set), for `setSearch`. */
export const urlParams = (query: QueueQuery): Readonly<Record<string, string | undefined>> => ({
  _status: query.queue === "pending" ? undefined : query.queue,
  _search: query.text === "" ? undefined : query.text,
  _metadata: json(query.metadata, isActive),
  _response: json(query.responses, isActive),
  _suggestion: json(query.suggestions, isSuggestionActive),
  _record_status: query.queue === "pending" ? undefined : query.recordStatus,
  _sort: query.sort === undefined || query.sort.length === 0 ? undefined : formatSort(query.sort),
  similar: query.similar?.recordId,
  vector: query.similar?.vector,
  order: query.similar?.order
})

/** The view a URL describes; parts that do not parse are left out rather than failing the screen. */
export const queryFromUrl = (search: URLSearchParams): QueueQuery => {
  const status = search.get("_status")
  const queue: Queue = isQueue(status) ? status : "pending"
  const recordStatus = RECORD_STATUSES.find((s) => s === search.get("_record_status"))
  const similarId = Option.getOrUndefined(Schema.decodeUnknownOption(RecordId)(search.get("similar")))
  const vector = search.get("vector")
  const order = SIMILAR_ORDERS.find((o) => o === search.get("order")) ?? "most_similar"
  return {
    queue,
    text: search.get("_search") ?? "",
    metadata: decodeByName(ValueFilterSchema, search.get("_metadata")),
    responses: decodeByName(ValueFilterSchema, search.get("_response")),
    suggestions: decodeByName(SuggestionFilterSchema, search.get("_suggestion")),
    recordStatus: queue === "pending" ? undefined : recordStatus,
    sort: parseSort(search.get("_sort")),
    similar: similarId !== undefined && vector !== null && vector !== ""
      ? { recordId: similarId, vector, order }
      : undefined
  }
}

/** The URL keys of the view's record filters (text, metadata, suggestions, record status), to clear them together. */
export const RECORD_FILTER_KEYS = ["_search", "_metadata", "_suggestion", "_record_status"] as const

/** `_record_status` alone (the annotation view reads it only beside a queue other than Pending). */
const recordStatusOf = (search: URLSearchParams) => RECORD_STATUSES.find((s) => s === search.get("_record_status"))

/**
 * The search that the view's record filters in a URL describe, for the pages about records rather than about the
 * caller's own work (agreement, assignment): text, metadata, suggestions and record status, without the queue tab's
 * filter on the caller's answers, the sort or "find similar". Undefined when the URL has none.
 */
export const recordFilters = (search: URLSearchParams): SearchRecordsQuery | undefined => {
  const view = queryFromUrl(search)
  const body = searchBody({
    queue: "submitted",
    text: view.text,
    metadata: view.metadata,
    suggestions: view.suggestions,
    recordStatus: recordStatusOf(search)
  })
  const and = (body.filters?.and ?? []).filter((f) => !(f.scope.entity === "response" && f.scope.property === "status"))
  if (and.length === 0 && body.query === undefined) return undefined
  return {
    ...(body.query === undefined ? {} : { query: body.query }),
    ...(and.length === 0 ? {} : { filters: { and } })
  }
}

/** How many record filters the URL applies besides the text (metadata, suggestion and record status filters). */
export const recordFilterCount = (search: URLSearchParams): number => {
  const view = queryFromUrl(search)
  return Object.values(view.metadata).filter(isActive).length +
    Object.values(view.suggestions ?? {}).filter(isSuggestionActive).length +
    (recordStatusOf(search) === undefined ? 0 : 1)
}
