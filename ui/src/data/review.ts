/**
 * Team visibility and review: every annotator's progress and the names behind the responses' user ids (owners and
 * admins), where the caller may review, the review queue, and settling final answers (owners, admins and the
 * workspace's reviewers). The server refuses the others (403); the screens do not offer these to them, and say so
 * when the server refuses anyway.
 */
import { queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query"
import { Effect } from "effect"
import type { DatasetId, RecordId, WorkspaceId } from "../../../src/domain/Ids.js"
import type { FinalAnswerSet, ReviewQueueRequest } from "../../../src/domain/Review.js"
import type { SearchRecordsQuery } from "../../../src/domain/Search.js"
import type { Role, User } from "../../../src/domain/User.js"
import { call } from "./client.js"
import { queryClient } from "./queries.js"
import { mayReview } from "./reviewQuery.js"

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

/** Where the caller may review; asked only of annotators (owners and admins review where they see a dataset). */
export const reviewRights = queryOptions({
  queryKey: ["review", "mine"],
  queryFn: ({ signal }) => call((c) => c.review.mine(), signal),
  staleTime: 60_000
})

/** Whether `me` may open review mode on a dataset of `workspaceId`. */
export const useMayReview = (me: User | undefined, workspaceId: WorkspaceId | undefined): boolean => {
  const rights = useQuery({ ...reviewRights, enabled: me?.role === "annotator" }).data
  return mayReview(me?.role, rights, workspaceId)
}

/**
 * The annotators who submitted answers in the dataset, with their usernames, from the agreement report: the one
 * place a reviewer who is an annotator (and may not list the workspace's members) learns the names.
 */
export const datasetAnnotators = (datasetId: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", datasetId, "review", "annotators"],
    queryFn: ({ signal }) =>
      call((c) =>
        Effect.map(c.review.agreement({ path: { id: datasetId }, payload: {} }), (report): ReadonlyMap<string, string> => {
          const names = new Map<string, string>()
          for (const question of report.questions) {
            for (const annotator of question.annotators) names.set(annotator.user_id, annotator.username)
          }
          return names
        }), signal),
    staleTime: 5 * 60_000
  })

export const REVIEW_QUEUE_PAGE_SIZE = 50

/** The review queue, a page at a time; each page carries the queue's total and every queue's count. */
export const useReviewQueue = (datasetId: DatasetId, request: ReviewQueueRequest) =>
  useInfiniteQuery({
    queryKey: ["dataset", datasetId, "review", "queue", request],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      call((c) =>
        c.review.queue({
          path: { id: datasetId },
          urlParams: { offset: pageParam, limit: REVIEW_QUEUE_PAGE_SIZE },
          payload: request
        }), signal),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0)
      return last.items.length < REVIEW_QUEUE_PAGE_SIZE || loaded >= last.total ? undefined : loaded
    }
  })

/** After a settle: every queue and its counts are read again. */
export const refreshReview = (datasetId: DatasetId) =>
  queryClient.invalidateQueries({ queryKey: ["dataset", datasetId, "review", "queue"] })

export const settle = (recordId: RecordId, items: ReadonlyArray<FinalAnswerSet>) =>
  call((c) => c.review.settle({ path: { id: recordId }, payload: { items } }))

export const unsettle = (recordId: RecordId, question: string) =>
  call((c) => c.review.unsettle({ path: { id: recordId, question } }))

/** Every record the search matches (all, without one) whose submitted answers to a question all agree. */
export const acceptAgreed = (datasetId: DatasetId, query: SearchRecordsQuery | undefined) =>
  call((c) =>
    c.review.acceptAgreed({
      path: { id: datasetId },
      payload: { min_answers: 2, ...(query === undefined ? {} : { query }) }
    })
  )
