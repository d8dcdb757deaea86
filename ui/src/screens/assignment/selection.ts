/**
 * Which records a lead's change applies to, free of I/O. The page takes the annotation view's own filter keys
 * (`_search`, `_metadata`, `_suggestion`, `_record_status`: ui/src/data/search.ts), so "Assign…" in the view carries
 * its filters over in the link. What depends on the caller (their queue tab and their own answers), the sort and
 * "find similar" do not apply: assigning is about the records, not about the lead's own work.
 */
import { Either, Schema } from "effect"
import type { RecordSelection } from "../../../../src/domain/Assignment.js"
import type { DatasetId } from "../../../../src/domain/Ids.js"
import { RecordId } from "../../../../src/domain/Ids.js"
import type { SearchRecordsQuery } from "../../../../src/domain/Search.js"
import {
  isActive,
  isSuggestionActive,
  type QueueQuery,
  queryFromUrl,
  RECORD_FILTER_KEYS,
  recordFilters,
  RECORD_STATUSES,
  urlParams
} from "../../data/search.js"

/** The URL keys of the annotation view's filters this page applies. */
export const FILTER_KEYS = RECORD_FILTER_KEYS

const recordStatusOf = (search: URLSearchParams) => RECORD_STATUSES.find((s) => s === search.get("_record_status"))

/** The search the URL's filters describe; undefined when the URL has none. */
export const filterQuery = recordFilters

/** The filters the URL applies, in words, for the page to say what "matching the filters" means. */
export const describeFilters = (search: URLSearchParams): ReadonlyArray<string> => {
  const view = queryFromUrl(search)
  const parts: Array<string> = []
  if (view.text.trim() !== "") parts.push(`containing “${view.text.trim()}”`)
  for (const [name, filter] of Object.entries(view.metadata)) {
    if (!isActive(filter)) continue
    if (filter.kind === "terms") parts.push(`${name}: ${filter.values.join(", ")}`)
    else parts.push(`${name} ${filter.ge === undefined ? "" : `from ${filter.ge} `}${filter.le === undefined ? "" : `to ${filter.le}`}`.trim())
  }
  const suggestions = Object.entries(view.suggestions ?? {}).filter(([, f]) => isSuggestionActive(f)).map(([name]) => name)
  if (suggestions.length > 0) parts.push(`suggestions for: ${suggestions.join(", ")}`)
  const status = recordStatusOf(search)
  if (status !== undefined) parts.push(`${status} records`)
  return parts
}

/** The assignments page, carrying the annotation view's filters. */
export const assignmentsLink = (datasetId: DatasetId, view: QueueQuery): string => {
  const params = urlParams(view)
  const kept = new URLSearchParams()
  for (const key of FILTER_KEYS) {
    const value = params[key]
    if (value !== undefined) kept.set(key, value)
  }
  const query = kept.toString()
  return `/dataset/${datasetId}/assignments${query === "" ? "" : `?${query}`}`
}

export type RecordsChoice = "all" | "filtered" | "ids"

/** Record ids pasted one per line (or separated by commas or spaces), and the pieces that are not ids. */
export const parseIds = (text: string): { readonly ids: ReadonlyArray<RecordId>; readonly invalid: ReadonlyArray<string> } => {
  const ids: Array<RecordId> = []
  const invalid: Array<string> = []
  for (const piece of text.split(/[\s,;]+/).filter((p) => p !== "")) {
    const decoded = Schema.decodeUnknownEither(RecordId)(piece)
    if (Either.isRight(decoded)) {
      if (!ids.includes(decoded.right)) ids.push(decoded.right)
    } else invalid.push(piece)
  }
  return { ids, invalid }
}

/** The request's selection part for a choice, or why it cannot be made. */
export const selectionOf = (
  choice: RecordsChoice,
  filters: SearchRecordsQuery | undefined,
  idsText: string
): Either.Either<RecordSelection, string> => {
  if (choice === "all") return Either.right({})
  if (choice === "filtered") {
    return filters === undefined
      ? Either.left("No filters from the annotation view apply: open this page with its Assign… link.")
      : Either.right({ query: filters })
  }
  const { ids, invalid } = parseIds(idsText)
  if (invalid.length > 0) {
    return Either.left(`Not record ids: ${invalid.slice(0, 3).join(", ")}${invalid.length > 3 ? ", …" : ""}`)
  }
  if (ids.length === 0) return Either.left("Paste at least one record id.")
  if (ids.length > 10_000) return Either.left("At most 10 000 record ids at a time.")
  return Either.right({ record_ids: ids })
}
