/**
 * Assignment (`/api/gloss`, the assignment extension): a dataset's queue settings, who is assigned which records,
 * per-user quotas and record priorities. Reading everyone's share and every write are for owners and the workspace's
 * admins; the server checks every permission again. Every write refreshes the dataset's assignment queries and its
 * progress (an assignment changes what waits in each queue, the caller's included).
 */
import { queryOptions } from "@tanstack/react-query"
import { Effect } from "effect"
import type {
  AssignRequest,
  MoveRequest,
  PriorityRequest,
  QueueSettingsUpdate,
  QuotaUpdate,
  UnassignRequest
} from "../../../src/domain/Assignment.js"
import type { DatasetId } from "../../../src/domain/Ids.js"
import type { SearchRecordsQuery } from "../../../src/domain/Search.js"
import { call } from "./client.js"
import { queryClient, refreshProgress } from "./queries.js"

/**
 * While the assignments page is on screen, the team's answers and leases show within this long. Not the agreement
 * page's 10 s: the summary makes every member's queue, about a CPU second at 100 000 records
 * (`npm run bench -- queue`), and a lead may leave the page open all day.
 */
export const ASSIGNMENT_REFRESH_MS = 30_000

const key = (id: DatasetId) => ["dataset", id, "assignment"] as const

/** Everyone's share of the work, with the settings: asked again every `ASSIGNMENT_REFRESH_MS` while visible. */
export const assignmentSummary = (id: DatasetId) =>
  queryOptions({
    queryKey: [...key(id), "summary"],
    queryFn: ({ signal }) => call((c) => c.assignment.summary({ path: { id } }), signal),
    staleTime: 0,
    refetchInterval: ASSIGNMENT_REFRESH_MS,
    refetchIntervalInBackground: false
  })

/**
 * How many records a search matches, read as the server reads a selection (the caller's own search), so the count
 * the page shows is the count an assignment over that search selects.
 */
export const matchingRecords = (id: DatasetId, query: SearchRecordsQuery) =>
  queryOptions({
    queryKey: [...key(id), "matching", query],
    queryFn: ({ signal }) =>
      call((c) =>
        Effect.map(
          c.search.mine({ path: { id }, urlParams: { limit: 1 }, payload: query }),
          (page) => ({ total: page.total, relation: page.total_relation })
        ), signal)
  })

/**
 * After a write: this page's queries, the dataset's progress, and the queue settings the annotation view reads
 * (`data/queue.ts`: blind mode among them).
 */
const refresh = (id: DatasetId) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: key(id) }),
    queryClient.invalidateQueries({ queryKey: ["dataset", id, "queue-settings"] }),
    refreshProgress(id)
  ])

/** Runs a write, then refreshes what it may have changed, whether it succeeded or not. */
const write = async <A>(id: DatasetId, run: () => Promise<A>): Promise<A> => {
  try {
    return await run()
  } finally {
    await refresh(id)
  }
}

export const updateQueueSettings = (id: DatasetId, payload: QueueSettingsUpdate) =>
  write(id, () => call((c) => c.assignment.updateSettings({ path: { id }, payload })))

export const assignRecords = (id: DatasetId, payload: AssignRequest) =>
  write(id, () => call((c) => c.assignment.assign({ path: { id }, payload })))

export const unassignRecords = (id: DatasetId, payload: UnassignRequest) =>
  write(id, () => call((c) => c.assignment.unassign({ path: { id }, payload })))

export const moveAssignments = (id: DatasetId, payload: MoveRequest) =>
  write(id, () => call((c) => c.assignment.move({ path: { id }, payload })))

export const setQuota = (id: DatasetId, payload: QuotaUpdate) =>
  write(id, () => call((c) => c.assignment.setQuota({ path: { id }, payload })))

export const prioritize = (id: DatasetId, payload: PriorityRequest) =>
  write(id, () => call((c) => c.assignment.prioritize({ path: { id }, payload })))
