/** Review mode's pure parts: who may review, which records a reviewer browses and their search body. */
import type { SearchRecordsQuery } from "../../../src/domain/Search.js"
import type { Role } from "../../../src/domain/User.js"
import { type QueueQuery, searchBody } from "./search.js"

export const canReview = (role: Role | undefined) => role === "owner" || role === "admin"

export const isForbidden = (error: unknown) =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "Forbidden"

/** Which records a reviewer browses. The last two are narrowed in the browser, over the pages loaded so far. */
export const REVIEW_SHOWS = ["submitted", "all", "multiple", "disagreement"] as const
export type ReviewShow = (typeof REVIEW_SHOWS)[number]
export const isReviewShow = (value: string | null): value is ReviewShow => REVIEW_SHOWS.some((s) => s === value)

/**
 * The focus view's text and metadata filters, over everyone's responses: with at least one submitted response
 * (any user's) unless `all` records are asked for; answer filters match anyone's answers here. The focus view's own
 * queue (the caller's response status) does not apply.
 */
export const reviewBody = (query: QueueQuery, show: ReviewShow): SearchRecordsQuery => {
  const body = searchBody({ ...query, queue: "submitted" })
  if (show !== "all") return body
  const and = (body.filters?.and ?? []).filter((f) => !(f.scope.entity === "response" && f.scope.property === "status"))
  const { filters: _filters, ...rest } = body
  return and.length === 0 ? rest : { ...rest, filters: { and } }
}
