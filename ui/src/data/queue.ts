/**
 * The caller's own queue (Gloss's assignment extension, `/api/gloss`): why a record is in it (assigned to them, or
 * taken from the shared pool and reserved for them until its lease ends), the dataset's queue settings (blind mode
 * among them), and the suggestions a blind dataset shows once the caller has answered a record.
 */
import { queryOptions, useQuery } from "@tanstack/react-query"
import { Effect } from "effect"
import type { QueueReason } from "../../../src/domain/Assignment.js"
import type { DatasetId, RecordId } from "../../../src/domain/Ids.js"
import type { Suggestion } from "../../../src/domain/Suggestion.js"
import type { User } from "../../../src/domain/User.js"
import { call } from "./client.js"

/** Where a record stands in the caller's queue, as the page that brought it said. */
export interface QueuePlace {
  readonly reason: QueueReason
  readonly priority: number
  /** Until when a pool record is reserved for the caller (no one else is handed it); null for assigned records. */
  readonly leaseExpiresAt: Date | null
}

export const queueSettings = (id: DatasetId) =>
  queryOptions({
    queryKey: ["dataset", id, "queue-settings"],
    queryFn: ({ signal }) => call((c) => c.assignment.settings({ path: { id } }), signal),
    staleTime: 60_000
  })

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

export const REASON_TEXT: Record<QueueReason, string> = { assigned: "Assigned to you", pool: "From the pool" }

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()

/** "14:32" today, "30 Nov, 14:32" on another day (leases may last up to 30 days), in the user's time zone. */
export const clockTime = (at: Date, now: Date = new Date()): string => {
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
  return sameDay(at, now) ? time : `${at.toLocaleDateString([], { day: "numeric", month: "short" })}, ${time}`
}

/** The suggestions of a record the caller has answered, which a blind dataset left out while they had not. */
export const suggestionsOf = (recordId: RecordId): Promise<ReadonlyArray<Suggestion>> =>
  call((c) => Effect.map(c.suggestions.list({ path: { id: recordId } }), (r) => r.items))

/** Gives back every pool record reserved for the caller in the dataset, for others to take at once. */
export const releaseQueue = (id: DatasetId): Promise<number> =>
  call((c) => Effect.map(c.assignment.release({ path: { id } }), (r) => r.released))
