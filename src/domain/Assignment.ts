/**
 * Who annotates what, a Gloss extension under `/api/gloss`: records assigned to annotators, the queue each annotator
 * works through (their assigned records, then the shared pool), leases on pool records, per-user quotas, a priority
 * per record, and blind mode. A dataset nobody has assigned or configured behaves as Argilla's does: its queue holds
 * the records the caller has not answered that the task distribution (`min_submitted`) still needs.
 */
import { Schema } from "effect"
import { RecordId, UserId } from "./Ids.js"
import { DatasetRecord } from "./Record.js"
import { SearchRecordsQuery } from "./Search.js"
import { Timestamp } from "./Timestamp.js"

// --- Settings ----------------------------------------------------------------------------------------------------

/**
 * - `first`: a user's queue holds their assigned records first, then records from the pool (records assigned to
 *   nobody);
 * - `only`: a user's queue holds their assigned records only.
 */
export const AssignedMode = Schema.Literal("first", "only")
export type AssignedMode = typeof AssignedMode.Type

/**
 * The order within each part of a queue (assigned, pool), after priority (higher first):
 * - `inserted`: the order the records were added in;
 * - `shuffled`: a shuffle of its own for each user, the same in every session (a hash of the user and the record).
 */
export const QueueOrder = Schema.Literal("inserted", "shuffled")
export type QueueOrder = typeof QueueOrder.Type

const LeaseMinutes = Schema.Int.pipe(Schema.between(1, 60 * 24 * 30))
const Quota = Schema.Int.pipe(Schema.between(1, 10_000_000))

export const QueueSettings = Schema.Struct({
  assigned: AssignedMode,
  order: QueueOrder,
  /** How long a pool record handed to a user stays reserved for them while they have not answered it. */
  lease_minutes: Schema.Int,
  /** Annotators see neither the suggestions nor anyone else's answers to a record until they have submitted theirs. */
  blind: Schema.Boolean,
  /** The most records one user takes from the pool (answered or reserved); null for no limit. */
  quota: Schema.NullOr(Schema.Int),
  /** The distribution's `min_submitted`: how many users answer each pool record (set on the dataset). */
  min_submitted: Schema.Int,
  /**
   * Whether the dataset's queue is in use: records are assigned or prioritised, or a lead changed how queues are made
   * (assigned only, shuffled, a quota, the lease time). Until then every client, Gloss's web UI included, shows the
   * pending records as Argilla does, and nothing is reserved; blind mode alone does not put the queue in use.
   */
  in_use: Schema.Boolean
}).annotations({ identifier: "QueueSettings" })
export type QueueSettings = typeof QueueSettings.Type

export const QueueSettingsUpdate = Schema.Struct({
  assigned: Schema.optional(AssignedMode),
  order: Schema.optional(QueueOrder),
  lease_minutes: Schema.optional(LeaseMinutes),
  blind: Schema.optional(Schema.Boolean),
  quota: Schema.optional(Schema.NullOr(Quota))
}).annotations({ identifier: "QueueSettingsUpdate" })
export type QueueSettingsUpdate = typeof QueueSettingsUpdate.Type

// --- Which records -----------------------------------------------------------------------------------------------

/** Records named by id, or every record a search matches (as `POST /me/datasets/{id}/records/search` reads it). */
export const RecordSelection = Schema.Struct({
  record_ids: Schema.optional(Schema.Array(RecordId).pipe(Schema.maxItems(10_000))),
  query: Schema.optional(SearchRecordsQuery)
})
export type RecordSelection = typeof RecordSelection.Type

// --- Assignments -------------------------------------------------------------------------------------------------

export const AssignRequest = Schema.Struct({
  ...RecordSelection.fields,
  /** The users (one, or a group) the records go to; each must be a member of the dataset's workspace. */
  users: Schema.NonEmptyArray(UserId).pipe(Schema.maxItems(1000)),
  /**
   * How many of `users` get each record (the assignment's overlap); by default all of them. Records go to the users
   * with the fewest assigned records in this dataset first, so a group shares the work evenly.
   */
  per_record: Schema.optional(Schema.Int.pipe(Schema.between(1, 1000)))
}).annotations({ identifier: "AssignRequest" })
export type AssignRequest = typeof AssignRequest.Type

export const AssignResult = Schema.Struct({
  /** The records selected. */
  records: Schema.Int,
  /** The assignments made (record × user); those that existed already are not counted. */
  assigned: Schema.Int
}).annotations({ identifier: "AssignResult" })
export type AssignResult = typeof AssignResult.Type

export const UnassignRequest = Schema.Struct({
  ...RecordSelection.fields,
  /** Whose assignments go; everybody's when left out. */
  users: Schema.optional(Schema.Array(UserId))
}).annotations({ identifier: "UnassignRequest" })
export type UnassignRequest = typeof UnassignRequest.Type

export const UnassignResult = Schema.Struct({ removed: Schema.Int }).annotations({ identifier: "UnassignResult" })
export type UnassignResult = typeof UnassignResult.Type

/** Moves `from`'s assignments that they have not answered (or those of the selection) to `to`. */
export const MoveRequest = Schema.Struct({
  ...RecordSelection.fields,
  from: UserId,
  to: Schema.NonEmptyArray(UserId).pipe(Schema.maxItems(1000))
}).annotations({ identifier: "MoveRequest" })
export type MoveRequest = typeof MoveRequest.Type

export const MoveResult = Schema.Struct({ removed: Schema.Int, assigned: Schema.Int })
  .annotations({ identifier: "MoveResult" })
export type MoveResult = typeof MoveResult.Type

/** One user's share of a dataset's work. */
export const AssigneeSummary = Schema.Struct({
  user_id: UserId,
  username: Schema.String,
  /** Records assigned to this user. */
  assigned: Schema.Int,
  /** Of those, the ones they have submitted or discarded. */
  assigned_done: Schema.Int,
  /** Every record they have submitted or discarded in the dataset, assigned or not. */
  done: Schema.Int,
  /** Pool records reserved for them now (leases not yet expired). */
  leased: Schema.Int,
  /** The quota that applies to them: their own where one is set, else the dataset's. */
  quota: Schema.NullOr(Schema.Int),
  /** Their own quota; null where the dataset's applies. */
  own_quota: Schema.NullOr(Schema.Int),
  /**
   * Whether they are a member of the workspace. Others are listed when they hold reservations or have answered
   * here: an owner who annotates without being a member, a former member whose answers remain.
   */
  member: Schema.Boolean,
  /** Records waiting in their queue now. */
  pending: Schema.Int
}).annotations({ identifier: "AssigneeSummary" })
export type AssigneeSummary = typeof AssigneeSummary.Type

export const AssignmentSummary = Schema.Struct({
  settings: QueueSettings,
  records: Schema.Int,
  /** Records assigned to at least one user. */
  assigned_records: Schema.Int,
  /** One row per member of the workspace, and per other user who holds reservations or has answered here. */
  users: Schema.Array(AssigneeSummary)
}).annotations({ identifier: "AssignmentSummary" })
export type AssignmentSummary = typeof AssignmentSummary.Type

export const QuotaUpdate = Schema.Struct({
  user_id: UserId,
  /** Null takes the user's own quota away (the dataset's applies again). */
  quota: Schema.NullOr(Quota)
}).annotations({ identifier: "QuotaUpdate" })
export type QuotaUpdate = typeof QuotaUpdate.Type

export const PriorityRequest = Schema.Struct({
  ...RecordSelection.fields,
  /** Higher comes first in every queue; 0 is every record's priority until one is set. */
  priority: Schema.Int.pipe(Schema.between(-1_000_000, 1_000_000))
}).annotations({ identifier: "PriorityRequest" })
export type PriorityRequest = typeof PriorityRequest.Type

export const PriorityResult = Schema.Struct({ records: Schema.Int }).annotations({ identifier: "PriorityResult" })
export type PriorityResult = typeof PriorityResult.Type

// --- The caller's queue ------------------------------------------------------------------------------------------

/** Why a record is in the caller's queue: assigned to them, or taken from the pool. */
export const QueueReason = Schema.Literal("assigned", "pool")
export type QueueReason = typeof QueueReason.Type

export const QueueRequest = Schema.Struct({
  /** Narrows the queue to the records a search matches (its order stays the queue's). */
  query: Schema.optional(SearchRecordsQuery),
  /** Whether the page's pool records are reserved for the caller (a lease); false only looks. Default true. */
  reserve: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "QueueRequest" })
export type QueueRequest = typeof QueueRequest.Type

export const QueueItem = Schema.Struct({
  record: DatasetRecord,
  reason: QueueReason,
  /** 1-based, in the caller's whole queue: "record `position` of `total`". */
  position: Schema.Int,
  priority: Schema.Int,
  /** Until when this pool record is reserved for the caller; null for assigned records. */
  lease_expires_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "QueueItem" })
export type QueueItem = typeof QueueItem.Type

export const QueuePage = Schema.Struct({
  items: Schema.Array(QueueItem),
  /** Every record in the caller's queue (what the Pending count shows). */
  total: Schema.Int,
  assigned: Schema.Int,
  pool: Schema.Int,
  /** Pool records the caller may still take under their quota; null without a quota. */
  quota_left: Schema.NullOr(Schema.Int)
}).annotations({ identifier: "QueuePage" })
export type QueuePage = typeof QueuePage.Type

export const LeaseRelease = Schema.Struct({ released: Schema.Int }).annotations({ identifier: "LeaseRelease" })
export type LeaseRelease = typeof LeaseRelease.Type
