/**
 * A user's queue, from what the database holds, as a pure function (no I/O, so the rules are tested on their own,
 * with fast-check among others):
 *
 * 1. Their **assigned** records they have not answered, whatever the record's status: an assignment is the lead's
 *    explicit word that this user answers this record.
 * 2. Unless the dataset's queues hold assigned records only, records from the **pool** (assigned to nobody) that they
 *    have not answered and that still need answers: fewer than `min_submitted` other users hold a claim on them (a
 *    submitted answer, a draft, or a live lease). A record they reserved themselves stays theirs while the lease
 *    lives. With a quota, at most `quota` pool records in all: those they answered, those they hold, and new ones.
 *
 * Each part is ordered by priority (higher first), then by the dataset's order: insertion, or a shuffle of the
 * user's own (the FNV-1a hash of `userId:recordId`, the same on every server and in every session), insertion order
 * breaking ties. The Pending count is the length of this list and a record's position is its index in it, so the
 * two always agree.
 */
import type { QueueOrder, QueueReason } from "../../domain/Assignment.js"
import { fnv1a32 } from "../review/sample.js"

/** A record that may be in a queue: its id, its place in insertion order, its priority. */
export interface Candidate {
  readonly id: string
  readonly seq: number
  readonly priority: number
}

/** What the whole dataset holds, the same for every user. */
export interface PoolState {
  /** Pending records that nobody is assigned, in any order. */
  readonly pool: ReadonlyArray<Candidate>
  /** Per pool record: the users with a submitted answer or a draft. */
  readonly answeredBy: ReadonlyMap<string, ReadonlyArray<string>>
  /** Per pool record: the users holding a live lease who have not answered it. */
  readonly leasedBy: ReadonlyMap<string, ReadonlyArray<string>>
}

/** What one user holds. */
export interface UserState {
  readonly userId: string
  /** Every record assigned to the user, answered or not. */
  readonly assigned: ReadonlyArray<Candidate>
  /** Every record the user has answered, in any status. */
  readonly answered: ReadonlySet<string>
}

export interface QueueRules {
  readonly assigned: "first" | "only"
  readonly order: QueueOrder
  readonly minSubmitted: number
  /** The user's quota of pool records; undefined for none. */
  readonly quota: number | undefined
}

export interface QueueEntry {
  readonly id: string
  readonly reason: QueueReason
  readonly priority: number
  /** Whether the user holds a live lease on it (pool records only). */
  readonly leased: boolean
}

export interface Queue {
  readonly entries: ReadonlyArray<QueueEntry>
  readonly assigned: number
  readonly pool: number
  /** Pool records the user may still take beyond those they hold; undefined without a quota. */
  readonly quotaLeft: number | undefined
}

/** The comparison of the queue's order for one user. */
export const orderFor = (userId: string, order: QueueOrder) => {
  // Each record's key is computed once, not once per comparison: a shuffled pool of 100 000 is sorted on every page.
  const keys = new Map<string, number>()
  const key = order === "shuffled"
    ? (candidate: Candidate) => {
      let value = keys.get(candidate.id)
      if (value === undefined) keys.set(candidate.id, value = fnv1a32(`${userId}:${candidate.id}`))
      return value
    }
    : (candidate: Candidate) => candidate.seq
  return (a: Candidate, b: Candidate): number =>
    b.priority - a.priority || key(a) - key(b) || a.seq - b.seq
}

const sorted = (candidates: ReadonlyArray<Candidate>, compare: (a: Candidate, b: Candidate) => number) =>
  [...candidates].sort(compare)

export const makeQueue = (pool: PoolState, user: UserState, rules: QueueRules): Queue => {
  const compare = orderFor(user.userId, rules.order)
  const assignedIds = new Set(user.assigned.map((c) => c.id))
  const assigned: Array<QueueEntry> = sorted(user.assigned.filter((c) => !user.answered.has(c.id)), compare)
    .map((c) => ({ id: c.id, reason: "assigned", priority: c.priority, leased: false }))
  if (rules.assigned === "only") return { entries: assigned, assigned: assigned.length, pool: 0, quotaLeft: undefined }

  // Pool records the user answered count against the quota, as do those they hold now.
  let answeredFromPool = 0
  for (const id of user.answered) if (!assignedIds.has(id)) answeredFromPool++
  const open: Array<{ readonly candidate: Candidate; readonly leased: boolean }> = []
  let held = 0
  for (const candidate of pool.pool) {
    if (user.answered.has(candidate.id) || assignedIds.has(candidate.id)) continue
    const leasers = pool.leasedBy.get(candidate.id) ?? []
    const leased = leasers.includes(user.userId)
    if (leased) {
      held++
      open.push({ candidate, leased })
      continue
    }
    const claims = (pool.answeredBy.get(candidate.id)?.length ?? 0) + leasers.length
    if (claims < rules.minSubmitted) open.push({ candidate, leased })
  }
  open.sort((a, b) => compare(a.candidate, b.candidate))
  const quotaLeft = rules.quota === undefined ? undefined : Math.max(0, rules.quota - answeredFromPool - held)
  let taken = 0
  const fromPool: Array<QueueEntry> = []
  for (const { candidate, leased } of open) {
    if (!leased) {
      if (quotaLeft !== undefined && taken >= quotaLeft) continue
      taken++
    }
    fromPool.push({ id: candidate.id, reason: "pool", priority: candidate.priority, leased })
  }
  return {
    entries: [...assigned, ...fromPool],
    assigned: assigned.length,
    pool: fromPool.length,
    quotaLeft
  }
}
