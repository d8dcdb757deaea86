/**
 * The agreement request an agreement page's URL describes, free of I/O. The page takes the annotation view's own
 * record filters (`recordFilters` in ui/src/data/search.ts), so a view's filters carry over in a link; `question`
 * picks one question. What depends on the caller (their queue and their answers), the sort and "find similar" do not
 * apply: agreement is over everyone's submitted answers.
 */
import type { AgreementRequest } from "../../../../src/domain/Review.js"
import { RECORD_FILTER_KEYS, recordFilterCount, recordFilters } from "../../data/search.js"

/** The URL keys of the filters this page applies, to clear them together. */
export const FILTER_KEYS = RECORD_FILTER_KEYS

export const agreementRequest = (search: URLSearchParams): AgreementRequest => {
  const query = recordFilters(search)
  const question = search.get("question")
  return {
    ...(query === undefined ? {} : { query }),
    ...(question === null || question === "" ? {} : { questions: [question] })
  }
}

/** How many filters the URL applies besides the text (metadata, suggestion and record status filters). */
export const filterCount = recordFilterCount
