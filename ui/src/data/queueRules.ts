/**
 * The caller's own queue, free of I/O so it is tested on its own: where a record stands in it, whether it applies
 * to the caller in a dataset, and how "why here" reads.
 */
import type { QueueReason, QueueSettings } from "../../../src/domain/Assignment.js"

/** Where a record stands in the caller's queue, as the page that brought it said. */
export interface QueuePlace {
  readonly reason: QueueReason
  readonly priority: number
  /** Until when a pool record is reserved for the caller (no one else is handed it); null for assigned records. */
  readonly leaseExpiresAt: Date | null
}

/**
 * Whether the dataset's own queue applies to the caller: the server says the queue is in use (records assigned or
 * prioritised, or the lead set how queues are made: assigned only, a shuffle, a quota, the lease time), or records
 * are assigned to the caller. A dataset nobody has assigned or configured behaves as Argilla's does, so there the
 * Pending view stays Argilla's search: each annotator's own pseudo-random order, and nothing reserved (the queue
 * reserves each page's pool records, so two annotators of a `min_submitted` 1 dataset would no longer see the same
 * pending records). Once one record is assigned to anyone, everyone's Pending view is the queue: the others' queues
 * must leave out what is assigned to someone else.
 */
export const queueApplies = (settings: QueueSettings, assignedToMe: number): boolean => settings.in_use || assignedToMe > 0

export const REASON_TEXT: Record<QueueReason, string> = { assigned: "Assigned to you", pool: "From the pool" }

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()

/** "14:32" today, "30 Nov, 14:32" on another day (leases may last up to 30 days), in the user's time zone. */
export const clockTime = (at: Date, now: Date = new Date()): string => {
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
  return sameDay(at, now) ? time : `${at.toLocaleDateString([], { day: "numeric", month: "short" })}, ${time}`
}
