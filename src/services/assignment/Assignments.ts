/**
 * What a lead does with a dataset's work (owners, and the workspace's admins: Policy's `assignment.manage`): the
 * queue settings, assigning records to users or a group, removing and moving assignments, quotas, priorities, and
 * everyone's share. Reading the settings is open to every member (an annotator's client needs to know blind mode).
 */
import { Effect } from "effect"
import type {
  AssigneeSummary,
  AssignmentSummary,
  AssignRequest,
  MoveRequest,
  PriorityRequest,
  QueueSettings,
  QueueSettingsUpdate,
  QuotaUpdate,
  UnassignRequest
} from "../../domain/Assignment.js"
import { Unprocessable } from "../../domain/Errors.js"
import type { DatasetId, UserId } from "../../domain/Ids.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { Datasets } from "../datasets/Datasets.js"
import type { DatasetRow } from "../datasets/rows.js"
import { AssignmentsRepo } from "./AssignmentsRepo.js"
import { Queues } from "./Queues.js"
import { DEFAULT_QUEUE_SETTINGS, QueueSettingsRepo, type QueueSettingsValues } from "../datasets/QueueSettingsRepo.js"
import { distribute } from "./distribute.js"
import { Selections } from "./selection.js"

const invalid = (detail: string) => new Unprocessable({ detail })

/** Whether settings put the queue in use by themselves (blind mode does not: it changes what is shown, not the queue). */
export const settingsInUse = (values: QueueSettingsValues): boolean =>
  values.assigned !== DEFAULT_QUEUE_SETTINGS.assigned || values.queue_order !== DEFAULT_QUEUE_SETTINGS.queue_order ||
  values.quota !== null || values.lease_minutes !== DEFAULT_QUEUE_SETTINGS.lease_minutes

export const settingsOf = (dataset: DatasetRow, values: QueueSettingsValues, assignedOrPrioritised: boolean): QueueSettings => ({
  assigned: values.assigned,
  order: values.queue_order,
  lease_minutes: values.lease_minutes,
  blind: values.blind,
  quota: values.quota,
  min_submitted: dataset.distribution.min_submitted,
  in_use: assignedOrPrioritised || settingsInUse(values)
})

export class Assignments extends Effect.Service<Assignments>()("Gloss/Assignments", {
  effect: Effect.gen(function*() {
    const db = yield* Database
    const datasets = yield* Datasets
    const repo = yield* AssignmentsRepo
    const settingsRepo = yield* QueueSettingsRepo
    const selections = yield* Selections
    const queues = yield* Queues

    const managed = (actor: User, id: DatasetId) => datasets.access(actor, id, "assignment.manage")

    const settings = Effect.fn("Assignments.settings")(function*(actor: User, id: DatasetId) {
      const dataset = yield* datasets.access(actor, id, "datasets.read")
      return settingsOf(dataset, yield* settingsRepo.of(id), yield* repo.assignedOrPrioritised(id))
    })

    const updateSettings = Effect.fn("Assignments.updateSettings")(
      function*(actor: User, id: DatasetId, update: QueueSettingsUpdate) {
        const dataset = yield* managed(actor, id)
        const current = yield* settingsRepo.of(id)
        const next: QueueSettingsValues = {
          assigned: update.assigned ?? current.assigned,
          queue_order: update.order ?? current.queue_order,
          lease_minutes: update.lease_minutes ?? current.lease_minutes,
          blind: update.blind ?? current.blind,
          quota: update.quota === undefined ? current.quota : update.quota
        }
        yield* settingsRepo.upsert({ ...next, dataset_id: id, updated_at: yield* now })
        return settingsOf(dataset, next, yield* repo.assignedOrPrioritised(id))
      }
    )

    /** Fails with 422 unless every user is a member of the dataset's workspace. */
    const requireMembers = (dataset: DatasetRow, users: ReadonlyArray<UserId>) =>
      Effect.gen(function*() {
        const members = new Set<string>((yield* repo.members(dataset.workspace_id)).map((m) => m.user_id))
        const outsiders = [...new Set(users)].filter((user) => !members.has(user))
        if (outsiders.length > 0) {
          return yield* invalid(
            `${outsiders.length === 1 ? "This user is" : "These users are"} not members of the dataset's workspace: ${
              outsiders.join(", ")
            }`
          )
        }
      })

    const assignIn = (actor: User, dataset: DatasetRow, recordIds: ReadonlyArray<string>, users: ReadonlyArray<UserId>, perRecord: number) =>
      Effect.gen(function*() {
        const [loads, existing] = yield* Effect.all([repo.loads(dataset.id), repo.assignmentsOn(recordIds)])
        const has = new Map<string, Set<string>>()
        for (const pair of existing) {
          const set = has.get(pair.record_id) ?? new Set<string>()
          set.add(pair.user_id)
          has.set(pair.record_id, set)
        }
        const { pairs } = distribute(recordIds, users, perRecord, new Map(loads.map((row) => [row.user_id, row.n])), has)
        const at = yield* now
        return yield* repo.insertAssignments(pairs.map(([recordId, userId]) => ({
          record_id: recordId as never,
          user_id: userId as UserId,
          dataset_id: dataset.id,
          workspace_id: dataset.workspace_id,
          assigned_by: actor.id,
          inserted_at: at
        })))
      })

    const assign = Effect.fn("Assignments.assign")(function*(actor: User, id: DatasetId, request: AssignRequest) {
      const dataset = yield* managed(actor, id)
      yield* requireMembers(dataset, request.users)
      const recordIds = yield* selections.select(actor, id, request)
      const perRecord = request.per_record ?? request.users.length
      const assigned = yield* db.transaction(assignIn(actor, dataset, recordIds, request.users, perRecord))
      return { records: recordIds.length, assigned }
    })

    const unassign = Effect.fn("Assignments.unassign")(function*(actor: User, id: DatasetId, request: UnassignRequest) {
      yield* managed(actor, id)
      const named = request.record_ids !== undefined || request.query !== undefined
      const recordIds = named ? yield* selections.select(actor, id, request) : undefined
      const removed = yield* db.transaction(repo.removeAssignments(id, request.users, recordIds))
      return { removed: removed.length }
    })

    const move = Effect.fn("Assignments.move")(function*(actor: User, id: DatasetId, request: MoveRequest) {
      const dataset = yield* managed(actor, id)
      yield* requireMembers(dataset, request.to)
      const named = request.record_ids !== undefined || request.query !== undefined
      const recordIds = named ? yield* selections.select(actor, id, request) : undefined
      return yield* db.transaction(Effect.gen(function*() {
        // Only what `from` has not answered moves: their finished work stays theirs.
        const removed = yield* repo.removeAssignments(id, [request.from], recordIds, true)
        const moved = removed.map((pair) => pair.record_id as string)
        const assigned = yield* assignIn(actor, dataset, moved, request.to, 1)
        return { removed: removed.length, assigned }
      }))
    })

    const summaryOf = (dataset: DatasetRow) =>
      Effect.gen(function*() {
        const at = yield* now
        const values = yield* settingsRepo.of(dataset.id)
        const [members, loads, assignedDone, done, leases, quotas, assignedRecords, records] = yield* Effect.all([
          repo.members(dataset.workspace_id),
          repo.loads(dataset.id),
          repo.assignedDone(dataset.id),
          repo.done(dataset.id),
          repo.leases(dataset.id, at),
          settingsRepo.quotas(dataset.id),
          repo.assignedRecords(dataset.id),
          repo.recordCount(dataset.id)
        ])
        const count = (rows: ReadonlyArray<{ readonly user_id: string; readonly n: number }>) =>
          new Map(rows.map((row) => [row.user_id, row.n]))
        const [assigned, assignedDoneBy, doneBy] = [count(loads), count(assignedDone), count(done)]
        const leased = new Map<string, number>()
        for (const lease of leases) leased.set(lease.user_id, (leased.get(lease.user_id) ?? 0) + 1)
        const memberIds = new Set<string>(members.map((m) => m.user_id))
        const others = [...new Set([...leased.keys(), ...doneBy.keys()])].filter((id) => !memberIds.has(id)) as Array<UserId>
        const listed = [
          ...members.map((m) => ({ ...m, member: true })),
          ...(yield* repo.usersNamed(others)).map((u) => ({ ...u, member: false }))
        ]
        const pending = yield* queues.pendingCounts(dataset, values, listed.filter((u) => u.member || u.role === "owner").map((u) => u.user_id))
        const users: Array<AssigneeSummary> = listed.map((user) => ({
          user_id: user.user_id,
          username: user.username,
          assigned: assigned.get(user.user_id) ?? 0,
          assigned_done: assignedDoneBy.get(user.user_id) ?? 0,
          done: doneBy.get(user.user_id) ?? 0,
          leased: leased.get(user.user_id) ?? 0,
          quota: quotas.get(user.user_id) ?? values.quota,
          own_quota: quotas.get(user.user_id) ?? null,
          member: user.member,
          pending: pending.get(user.user_id) ?? 0
        }))
        const summary: AssignmentSummary = {
          settings: settingsOf(dataset, values, assignedRecords > 0 || (yield* repo.assignedOrPrioritised(dataset.id))),
          records,
          assigned_records: assignedRecords,
          users
        }
        return summary
      })

    const summary = Effect.fn("Assignments.summary")(function*(actor: User, id: DatasetId) {
      return yield* summaryOf(yield* managed(actor, id))
    })

    const setQuota = Effect.fn("Assignments.setQuota")(function*(actor: User, id: DatasetId, update: QuotaUpdate) {
      const dataset = yield* managed(actor, id)
      yield* requireMembers(dataset, [update.user_id])
      yield* update.quota === null
        ? settingsRepo.clearQuota(id, update.user_id)
        : settingsRepo.setQuota({ dataset_id: id, user_id: update.user_id, quota: update.quota })
      return yield* summaryOf(dataset)
    })

    const prioritize = Effect.fn("Assignments.prioritize")(function*(actor: User, id: DatasetId, request: PriorityRequest) {
      yield* managed(actor, id)
      const recordIds = yield* selections.select(actor, id, request)
      yield* db.transaction(repo.setPriorities(id, recordIds, request.priority))
      return { records: recordIds.length }
    })

    return { settings, updateSettings, assign, unassign, move, summary, setQuota, prioritize } as const
  }),
  dependencies: [
    Database.Default,
    Datasets.Default,
    AssignmentsRepo.Default,
    QueueSettingsRepo.Default,
    Selections.Default,
    Queues.Default
  ]
}) {}
