/**
 * Agreement between annotators and a workspace's reviewers (`/api/gloss`, the review extension): the dataset's
 * agreement report, and who may review in a workspace. Who the caller may review for is `reviewRights` in
 * `review.ts`. The server checks every permission again.
 */
import { queryOptions } from "@tanstack/react-query"
import { Effect } from "effect"
import type { DatasetId, UserId, WorkspaceId } from "../../../src/domain/Ids.js"
import type { AgreementRequest } from "../../../src/domain/Review.js"
import { call } from "./client.js"
import { queryClient } from "./queries.js"

/** While the agreement page is on screen, answers arriving from the team show within this long. */
export const AGREEMENT_REFRESH_MS = 10_000

/**
 * Under the dataset's "progress" key, so `refreshProgress` (after each of the caller's own writes) computes it
 * again; besides that it is asked for every `AGREEMENT_REFRESH_MS` while the page is visible.
 */
export const agreement = (id: DatasetId, body: AgreementRequest) =>
  queryOptions({
    queryKey: ["dataset", id, "progress", "agreement", body],
    queryFn: ({ signal }) => call((c) => c.review.agreement({ path: { id }, payload: body }), signal),
    staleTime: 0,
    refetchInterval: AGREEMENT_REFRESH_MS,
    refetchIntervalInBackground: false,
    // The last report stays on screen while the next is computed (a new question or filter included).
    placeholderData: (previous) => previous
  })

// --- reviewers of a workspace (owners, and the workspace's admins)

export const reviewers = (id: WorkspaceId) =>
  queryOptions({
    queryKey: ["workspace", id, "reviewers"],
    queryFn: ({ signal }) => call((c) => Effect.map(c.review.reviewers({ path: { id } }), (r) => r.items), signal),
    refetchOnMount: "always"
  })

const refreshReviewers = (id: WorkspaceId) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ["workspace", id, "reviewers"] }),
    queryClient.invalidateQueries({ queryKey: ["review", "mine"] })
  ])

export const addReviewer = async (id: WorkspaceId, userId: UserId) => {
  try {
    return await call((c) => c.review.addReviewer({ path: { id }, payload: { user_id: userId } }))
  } finally {
    await refreshReviewers(id)
  }
}

export const removeReviewer = async (id: WorkspaceId, userId: UserId) => {
  try {
    return await call((c) => c.review.removeReviewer({ path: { id, user_id: userId } }))
  } finally {
    await refreshReviewers(id)
  }
}
