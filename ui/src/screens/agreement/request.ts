/**
 * The agreement request an agreement page's URL describes, free of I/O. The page takes the annotation view's own
 * query keys (`_search`, `_metadata`, `_suggestion`, `_record_status`: ui/src/data/search.ts), so a view's filters
 * carry over in a link; `question` picks one question. What depends on the caller (their queue and their answers),
 * the sort and "find similar" do not apply: agreement is over everyone's submitted answers.
 */
import type { AgreementRequest } from "../../../../src/domain/Review.js"
import type { SearchRecordsQuery } from "../../../../src/domain/Search.js"
import { isActive, isSuggestionActive, queryFromUrl, RECORD_STATUSES, searchBody } from "../../data/search.js"

/** The URL keys of the filters this page applies, to clear them together. */
export const FILTER_KEYS = ["_search", "_metadata", "_suggestion", "_record_status"] as const

/** `_record_status` alone (the annotation view reads it only beside a queue other than Pending). */
const recordStatusOf = (search: URLSearchParams) => RECORD_STATUSES.find((s) => s === search.get("_record_status"))

export const agreementRequest = (search: URLSearchParams): AgreementRequest => {
  const view = queryFromUrl(search)
  const body = searchBody({
    queue: "submitted",
    text: view.text,
    metadata: view.metadata,
    suggestions: view.suggestions,
    recordStatus: recordStatusOf(search)
  })
  const and = (body.filters?.and ?? []).filter((f) => !(f.scope.entity === "response" && f.scope.property === "status"))
  const query: SearchRecordsQuery = {
    ...(body.query === undefined ? {} : { query: body.query }),
    ...(and.length === 0 ? {} : { filters: { and } })
  }
  const question = search.get("question")
  return {
    ...(Object.keys(query).length === 0 ? {} : { query }),
    ...(question === null || question === "" ? {} : { questions: [question] })
  }
}

/** How many filters the URL applies besides the text (metadata, suggestion and record status filters). */
export const filterCount = (search: URLSearchParams): number => {
  const view = queryFromUrl(search)
  return Object.values(view.metadata).filter(isActive).length +
    Object.values(view.suggestions ?? {}).filter(isSuggestionActive).length +
    (recordStatusOf(search) === undefined ? 0 : 1)
}
