/**
 * The caller's queue (`POST /api/gloss/me/datasets/{id}/queue`): their assigned records, then the pool's, made by
 * queueOrder.ts from what the database holds. Asking for a page reserves its pool records for the caller (a lease
 * of the dataset's `lease_minutes`, renewed each time the record is handed out again): taking the reservation is
 * one transaction behind a lock per dataset (PostgreSQL: an advisory lock, so servers sharing a database queue one
 * behind the other; SQLite: the database's one writer lock), so annotators drawing at once never hold one pool
 * record beyond its overlap.
 */
import { Effect } from "effect"
import type { QueueItem, QueuePage, QueueRequest } from "../../domain/Assignment.js"
import type { DatasetId, RecordId, UserId } from "../../domain/Ids.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { Datasets } from "../datasets/Datasets.js"
import type { DatasetRow } from "../datasets/rows.js"
import { Viewers } from "../datasets/viewer.js"
import { includeOrFail } from "../records/Records.js"
import { RecordsRepo } from "../records/RecordsRepo.js"
import { RecordViews } from "../records/views.js"
import { AssignmentsRepo, type LeaseRow } from "./AssignmentsRepo.js"
import { makeQueue, type PoolState, type Queue } from "./queueOrder.js"
import { QueueSettingsRepo, type QueueSettingsValues } from "../datasets/QueueSettingsRepo.js"
import { Selections } from "./selection.js"

/** A key of PostgreSQL's advisory locks that only queues take ("queu"); the second key is the dataset's hash. */
const QUEUE_LOCK = 0x71756575

export interface QueueParams {
  readonly offset?: number | undefined
  readonly limit?: number | undefined
  readonly include?: ReadonlyArray<string> | undefined
}

const poolStateOf = (
  pool: PoolState["pool"],
  claims: ReadonlyArray<{ readonly record_id: string; readonly user_id: string }>,
  leases: ReadonlyArray<LeaseRow>
): PoolState => {
  const group = (rows: ReadonlyArray<{ readonly record_id: string; readonly user_id: string }>) => {
    const map = new Map<string, Array<string>>()
    for (const row of rows) {
      const users = map.get(row.record_id)
      if (users === undefined) map.set(row.record_id, [row.user_id])
      else users.push(row.user_id)
    }
    return map
  }
  return { pool, answeredBy: group(claims), leasedBy: group(leases) }
}

export class Queues extends Effect.Service<Queues>()("Gloss/Queues", {
  effect: Effect.gen(function*() {
    const db = yield* Database
    const datasets = yield* Datasets
    const repo = yield* AssignmentsRepo
    const settingsRepo = yield* QueueSettingsRepo
    const records = yield* RecordsRepo
    const views = yield* RecordViews
    const viewers = yield* Viewers
    const selections = yield* Selections

    const lock = (datasetId: DatasetId) =>
      Effect.orDie(
        db.dialect === "Postgres"
          ? db.sql`select pg_advisory_xact_lock(${QUEUE_LOCK}, hashtext(${datasetId}))`
          : db.sql`update queue_settings set quota = quota where 1 = 0`
      )

    /** What the whole dataset holds now, the same for every user. */
    const poolState = (datasetId: DatasetId, at: Date, values: QueueSettingsValues) =>
      Effect.gen(function*() {
        if (values.assigned === "only") {
          return { state: poolStateOf([], [], []), leases: yield* repo.leases(datasetId, at) }
        }
        // One read, so the pool and its claims are of one moment (see AssignmentsRepo's `queueState`).
        const { claims, leases, pool } = yield* repo.queueState(datasetId, at)
        return { state: poolStateOf(pool, claims, leases), leases }
      })

    const queueOf = (dataset: DatasetRow, values: QueueSettingsValues, state: PoolState, userId: UserId, quota: number | null) =>
      Effect.gen(function*() {
        const [assigned, answered] = yield* Effect.all([repo.assignedTo(dataset.id, userId), repo.answeredBy(dataset.id, userId)])
        return makeQueue(state, { userId, assigned, answered }, {
          assigned: values.assigned,
          order: values.queue_order,
          minSubmitted: dataset.distribution.min_submitted,
          quota: quota ?? undefined
        })
      })

    /** How many records wait in each user's queue (the lead's summary). */
    const pendingCounts = (dataset: DatasetRow, values: QueueSettingsValues, userIds: ReadonlyArray<UserId>) =>
      Effect.gen(function*() {
        if (dataset.status !== "ready") return new Map<string, number>()
        const { state } = yield* poolState(dataset.id, yield* now, values)
        const quotas = yield* settingsRepo.quotas(dataset.id)
        const counts = new Map<string, number>()
        for (const userId of userIds) {
          const queue = yield* queueOf(dataset, values, state, userId, quotas.get(userId) ?? values.quota)
          counts.set(userId, queue.entries.length)
        }
        return counts
      })

    const page = Effect.fn("Queues.page")(
      function*(actor: User, datasetId: DatasetId, request: QueueRequest, params: QueueParams) {
        const include = yield* includeOrFail(params.include)
        const dataset = yield* datasets.access(actor, datasetId, "records.searchOwn")
        const empty: QueuePage = { items: [], total: 0, assigned: 0, pool: 0, quota_left: null }
        if (dataset.status !== "ready") return empty
        const offset = params.offset ?? 0
        const limit = params.limit ?? 50
        const values = yield* settingsRepo.of(datasetId)
        const quota = (yield* settingsRepo.quotas(datasetId)).get(actor.id) ?? values.quota
        const narrowed = request.query === undefined
          ? undefined
          : new Set<string>(yield* selections.select(actor, datasetId, { query: request.query }))
        const reserve = request.reserve ?? true

        const draw = Effect.gen(function*() {
          const at = yield* now
          if (reserve) yield* repo.dropStaleLeases(datasetId, at)
          const { leases, state } = yield* poolState(datasetId, at, values)
          const queue: Queue = yield* queueOf(dataset, values, state, actor.id, quota)
          const entries = narrowed === undefined ? queue.entries : queue.entries.filter((e) => narrowed.has(e.id))
          const shown = entries.slice(offset, offset + limit)
          const expiry = new Map<string, Date>()
          for (const lease of leases) if (lease.user_id === actor.id) expiry.set(lease.record_id, lease.expires_at)
          if (reserve) {
            const expiresAt = new Date(at.getTime() + values.lease_minutes * 60_000)
            const taken = shown.filter((entry) => entry.reason === "pool").map((entry) => entry.id as RecordId)
            yield* repo.upsertLeases(datasetId, actor.id, taken, expiresAt)
            for (const id of taken) expiry.set(id, expiresAt)
          }
          return { queue, entries, shown, expiry }
        })
        const { entries, expiry, queue, shown } = reserve
          ? yield* db.transaction(Effect.zipRight(lock(datasetId), draw))
          : yield* draw

        const rows = new Map((yield* records.findByIds(datasetId, shown.map((e) => e.id))).map((row) => [row.id as string, row]))
        const found = shown.flatMap((entry, i) => {
          const row = rows.get(entry.id)
          return row === undefined ? [] : [{ entry, row, position: offset + i + 1 }]
        })
        const viewer = yield* viewers.of(actor, dataset, true)
        const records_ = yield* views.show(found.map((f) => f.row), include, viewer)
        const items: Array<QueueItem> = found.map(({ entry, position }, i) => ({
          record: records_[i]!,
          reason: entry.reason,
          position,
          priority: entry.priority,
          lease_expires_at: entry.reason === "pool" ? expiry.get(entry.id) ?? null : null
        }))
        const assignedCount = entries.filter((e) => e.reason === "assigned").length
        const result: QueuePage = {
          items,
          total: entries.length,
          assigned: assignedCount,
          pool: entries.length - assignedCount,
          quota_left: queue.quotaLeft === undefined ? null : queue.quotaLeft
        }
        return result
      }
    )

    const release = Effect.fn("Queues.release")(function*(actor: User, datasetId: DatasetId) {
      yield* datasets.access(actor, datasetId, "records.searchOwn")
      return { released: yield* db.transaction(repo.release(datasetId, actor.id)) }
    })

    return { page, release, pendingCounts } as const
  }),
  dependencies: [
    Database.Default,
    Datasets.Default,
    AssignmentsRepo.Default,
    QueueSettingsRepo.Default,
    RecordsRepo.Default,
    RecordViews.Default,
    Viewers.Default,
    Selections.Default
  ]
}) {}
