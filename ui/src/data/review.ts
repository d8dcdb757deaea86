/**
 * Team visibility (issue 20), for owners and admins: every annotator's progress, the records with every user's
 * responses (the all-users search), and the names behind the responses' user ids. The server refuses annotators
 * (403); the screens do not offer these to them, and say so when the server refuses anyway.
 */
import { queryOptions, useInfiniteQuery } from "@tanstack/react-query"
import { Effect } from "effect"
import type { DatasetId, WorkspaceId } from "../../../src/domain/Ids.js"
import type { Role } from "../../../src/domain/User.js"
import type { SearchRecordsQuery } from "../../../src/domain/Search.js"
import { call } from "./client.js"
import { type QueueQuery, searchBody } from "./search.js"

export const canReview = (role: Role | undefined) => role === "owner" || role === "admin"

export const isForbidden = (error: unknown) =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "Forbidden"

/** Under the dataset's "progress" key, so `refreshProgress` refreshes it after every write. */
export const usersProgress = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "progress", "users"],
    queryFn: ({ signal }) => call((c) => Effect.map(c.progress.users({ path: { id } }), (r) => r.users), signal)
  })

/**
 * Usernames by user id: every user for an owner (`GET /users`), the workspace's members for an admin
 * (`GET /workspaces/{id}/users`, the most an admin may read). Someone outside those shows as their id.
 */
export const userNames = (role: Role, workspaceId: WorkspaceId) =>
  queryOptions({
    queryKey: ["review", "user-names", role, workspaceId],
    queryFn: ({ signal }) =>
      call((c) =>
        Effect.map(
          role === "owner" ? c.users.list() : c.workspaces.listUsers({ path: { id: workspaceId } }),
          (r): ReadonlyMap<string, string> => new Map(r.items.map((u) => [u.id, u.username]))
        ), signal),
    staleTime: 5 * 60_000
  })

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

export const REVIEW_PAGE_SIZE = 50

export const useReviewRecords = (datasetId: DatasetId, body: SearchRecordsQuery, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: ["dataset", datasetId, "review", body],
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      call((c) =>
        c.search.all({
          path: { id: datasetId },
          urlParams: { offset: pageParam, limit: REVIEW_PAGE_SIZE, include: ["responses"] },
          payload: body
        }), signal),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0)
      if (last.items.length < REVIEW_PAGE_SIZE) return undefined
      return last.total_relation === "gte" || loaded < last.total ? loaded : undefined
    }
  })
