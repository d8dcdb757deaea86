/**
 * The caller's own queue (Gloss's assignment extension, `/api/gloss`): whether it applies to them, why a record is
 * in it (assigned to them, or taken from the shared pool and reserved for them until its lease ends), the dataset's
 * queue settings (blind mode among them), and the suggestions a blind dataset shows once the caller has answered a
 * record.
 */
import { queryOptions, useQuery } from "@tanstack/react-query"
import { Effect } from "effect"
import { useRef } from "react"
import type { DatasetId, RecordId } from "../../../src/domain/Ids.js"
import type { Suggestion } from "../../../src/domain/Suggestion.js"
import type { User } from "../../../src/domain/User.js"
import { call } from "./client.js"
import { pendingQueue, pendingSearch } from "./queries.js"
import { queueApplies } from "./queueRules.js"

export * from "./queueRules.js"

export const queueSettings = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "queue-settings"],
    queryFn: ({ signal }) => call((c) => c.assignment.settings({ path: { id } }), signal),
    staleTime: 60_000
  })

export interface PendingCount {
  readonly total: number
  /** `gte`: a search stopped counting (past 10 000 matches) */
  readonly relation: "eq" | "gte"
  /** Of `total`, records assigned to the caller and records from the pool (0 and 0 where the queue does not apply). */
  readonly assigned: number
  readonly pool: number
  /** Pool records the caller may still take under a quota; null without one. */
  readonly quotaLeft: number | null
}

/**
 * Where the caller's Pending records come from in this dataset (`ownQueue`: their queue, else Argilla's search;
 * undefined while that is not known) and how many there are, from the same source, so the Pending tab, "Record n
 * of N" and the progress panel count the same records. Once the queue applies in a view it stays: answering the last
 * assigned record does not turn the view into another list under the user's feet.
 */
export const usePendingSource = (
  datasetId: DatasetId
): { readonly ownQueue: boolean | undefined; readonly count: PendingCount | undefined } => {
  const settings = useQuery(queueSettings(datasetId))
  const queue = useQuery(pendingQueue(datasetId))
  const sticky = useRef<{ readonly datasetId: DatasetId; readonly applies: boolean } | undefined>(undefined)
  let ownQueue: boolean | undefined
  if (settings.error !== null || queue.error !== null) ownQueue = false
  else if (settings.data !== undefined && queue.data !== undefined) {
    const applies = queueApplies(settings.data, queue.data.assigned) ||
      (sticky.current?.datasetId === datasetId && sticky.current.applies)
    sticky.current = { datasetId, applies }
    ownQueue = applies
  }
  const search = useQuery({ ...pendingSearch(datasetId), enabled: ownQueue === false }).data
  const count: PendingCount | undefined = ownQueue === true && queue.data !== undefined
    ? { ...queue.data, relation: "eq" }
    : ownQueue === false && search !== undefined
    ? { total: search.total, relation: search.relation, assigned: 0, pool: 0, quotaLeft: null }
    : undefined
  return { ownQueue, count }
}

/**
 * Whether the caller annotates this dataset blind: the dataset is blind and they are an annotator (the server hides
 * suggestions from whoever may not read others' answers, and refuses their searches on suggestions with a 422).
 * Undefined while the settings load.
 */
export const useBlind = (datasetId: DatasetId, me: User | undefined): boolean | undefined => {
  const settings = useQuery(queueSettings(datasetId))
  if (settings.error !== null) return false
  if (settings.data === undefined || me === undefined) return undefined
  return settings.data.blind && me.role === "annotator"
}

/** The suggestions of a record the caller has answered, which a blind dataset left out while they had not. */
export const suggestionsOf = (recordId: RecordId): Promise<ReadonlyArray<Suggestion>> =>
  call((c) => Effect.map(c.suggestions.list({ path: { id: recordId } }), (r) => r.items))

/** Gives back every pool record reserved for the caller in the dataset, for others to take at once. */
export const releaseQueue = (id: DatasetId): Promise<number> =>
  call((c) => Effect.map(c.assignment.release({ path: { id } }), (r) => r.released))
