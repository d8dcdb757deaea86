/**
 * Team visibility, for owners and admins: every annotator's progress, the records with every user's
 * responses (the all-users search), and the names behind the responses' user ids. The server refuses annotators
 * (403); the screens do not offer these to them, and say so when the server refuses anyway.
 */
import { queryOptions, useInfiniteQuery } from "@tanstack/react-query"
import { Effect } from "effect"
import type { DatasetId, WorkspaceId } from "../../../src/domain/Ids.js"
import type { SearchRecordsQuery } from "../../../src/domain/Search.js"
import type { Role } from "../../../src/domain/User.js"
import { call } from "./client.js"

export * from "./reviewQuery.js"

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
