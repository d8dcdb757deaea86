/**
 * The tables behind queues (migration 0018_assignment): `record_assignments`, `record_leases`, `record_priorities`,
 * and the reads a queue is made from (see queueOrder.ts). Ids in `in (…)` lists go in chunks of `CHUNK`, under
 * SQLite's limit on bound parameters.
 */
import { SqlSchema } from "@effect/sql"
import { Array as Arr, Effect, Schema } from "effect"
import { DatasetId, RecordId, UserId, WorkspaceId } from "../../domain/Ids.js"
import { type CandidateRow, decodeCandidates } from "../../codecs/candidateRows.js"
import { intOf } from "../../codecs/plainRows.js"
import { DbInt, DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"
import { columnTypes, insertionOrder } from "../database/ddl.js"
import type { Candidate } from "./queueOrder.js"

const CHUNK = 500

const PairRow = Schema.Struct({ record_id: RecordId, user_id: UserId })
const LeaseRow = Schema.Struct({ record_id: RecordId, user_id: UserId, expires_at: DbTimestamp })
export type LeaseRow = typeof LeaseRow.Type
const IdRow = Schema.Struct({ record_id: RecordId })
const CountRow = Schema.Struct({ user_id: UserId, n: DbInt })
/** A lease (with its expiry) or a claim (without) as `queueState` reads them (the union names its columns). */
const decodeClaimsAndLeases = Schema.decodeUnknown(Schema.Array(Schema.Struct({
  id: RecordId,
  user_id: UserId,
  expires_at: Schema.NullOr(DbTimestamp)
})))

export interface AssignmentRow {
  readonly record_id: RecordId
  readonly user_id: UserId
  readonly dataset_id: DatasetId
  readonly workspace_id: WorkspaceId
  readonly assigned_by: UserId | null
  readonly inserted_at: Date
}

const toCandidate = (row: CandidateRow): Candidate => ({ id: row.id, seq: row.seq, priority: row.priority })

export class AssignmentsRepo extends Effect.Service<AssignmentsRepo>()("Gloss/AssignmentsRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database
    const seq = insertionOrder(sql)
    const t = columnTypes(sql)
    const orDie = Effect.orDie

    // --- what a queue is made from -------------------------------------------------------------------------

    /**
     * Live leases whose user has not answered the record and may still annotate it: a member of the workspace, or an
     * owner. A member who leaves holds nothing from then on, as their assignments go with the membership.
     */
    const liveLeases = (datasetId: string, now: string | Date) =>
      sql`from record_leases l join datasets d on d.id = l.dataset_id join users u on u.id = l.user_id
        where l.dataset_id = ${datasetId} and l.expires_at > ${now}
        and not exists (select 1 from responses s where s.record_id = l.record_id and s.user_id = l.user_id)
        and (u.role = 'owner' or exists (select 1 from workspaces_users m
          where m.workspace_id = d.workspace_id and m.user_id = l.user_id))`
    const leases = SqlSchema.findAll({
      Request: Schema.Struct({ datasetId: DatasetId, now: DbTimestamp }),
      Result: LeaseRow,
      execute: ({ datasetId, now }) => sql`select l.record_id, l.user_id, l.expires_at ${liveLeases(datasetId, now)}`
    })
    /**
     * What every queue of the dataset is made from, in one statement: the pool (pending records assigned to nobody,
     * with their priority), the claims on it (a submitted answer or a draft on a pending record) and the live leases
     * (`liveLeases`, as `leases` reads them). Under PostgreSQL's read committed each statement reads its own snapshot, and a status
     * that changes between two reads (an answer completing a record; the status job setting one back to pending)
     * would make a record's claims and its place in the pool disagree, so that a queue drawn meanwhile saw it one
     * claim short and handed it out beyond its overlap. One statement reads them all as of one moment.
     *
     * `kind` tells the rows apart (0 pool, 1 lease, 2 claim); the columns a kind does not have are typed nulls, so
     * that PostgreSQL can match the branches' types. The pool's rows are every page's largest read, so they are
     * decoded by hand (`decodeCandidates`).
     */
    const queueState = (datasetId: DatasetId, now: Date) =>
      sql`select 0 as kind, r.id, cast(null as ${sql.literal(t.uuid)}) as user_id, r.${sql.literal(seq)} as seq,
          coalesce(p.priority, 0) as priority, cast(null as ${sql.literal(t.timestamp)}) as expires_at
        from records r left join record_priorities p on p.record_id = r.id
        where r.dataset_id = ${datasetId} and r.status = 'pending'
        and not exists (select 1 from record_assignments a where a.record_id = r.id)
        union all
        select 1, l.record_id, l.user_id, cast(null as ${sql.literal(t.bigint)}), cast(null as integer), l.expires_at
        ${liveLeases(datasetId, now.toISOString())}
        union all
        select 2, s.record_id, s.user_id, cast(null as ${sql.literal(t.bigint)}), cast(null as integer),
          cast(null as ${sql.literal(t.timestamp)})
        from responses s join records r on r.id = s.record_id
        where r.dataset_id = ${datasetId} and r.status = 'pending' and s.status in ('submitted', 'draft')
        order by kind, priority desc, seq`.pipe(
        Effect.flatMap((rows) => {
          const pool: Array<unknown> = []
          const others: Array<unknown> = []
          for (const row of rows) (intOf(row.kind) === 0 ? pool : others).push(row)
          return Effect.zip(decodeCandidates(pool), decodeClaimsAndLeases(others))
        }),
        Effect.map(([pool, rows]) => {
          const claims: Array<{ readonly record_id: RecordId; readonly user_id: UserId }> = []
          const leases: Array<LeaseRow> = []
          for (const row of rows) {
            if (row.expires_at === null) claims.push({ record_id: row.id, user_id: row.user_id })
            else leases.push({ record_id: row.id, user_id: row.user_id, expires_at: row.expires_at })
          }
          return { pool: pool.map(toCandidate), claims, leases }
        })
      )
    /** A user's assigned records (decoded by hand as the pool's: a user may be assigned most of a dataset). */
    const assignedTo = ({ datasetId, userId }: { readonly datasetId: DatasetId; readonly userId: UserId }) =>
      Effect.flatMap(
        sql`select r.id, r.${sql.literal(seq)} as seq, coalesce(p.priority, 0) as priority
          from record_assignments a join records r on r.id = a.record_id
          left join record_priorities p on p.record_id = r.id
          where a.dataset_id = ${datasetId} and a.user_id = ${userId}`,
        decodeCandidates
      )
    const answeredBy = SqlSchema.findAll({
      Request: Schema.Struct({ datasetId: DatasetId, userId: UserId }),
      Result: IdRow,
      execute: ({ datasetId, userId }) =>
        sql`select s.record_id from responses s join records r on r.id = s.record_id
          where s.user_id = ${userId} and r.dataset_id = ${datasetId}`
    })

    // --- assignments -----------------------------------------------------------------------------------------

    const assignmentsOn = (ids: ReadonlyArray<string>) =>
      Effect.map(
        Effect.forEach(Arr.chunksOf(ids, CHUNK), (chunk) =>
          SqlSchema.findAll({
            Request: Schema.Void,
            Result: PairRow,
            execute: () => sql`select record_id, user_id from record_assignments where ${sql.in("record_id", chunk)}`
          })(undefined)),
        (chunks) => chunks.flat()
      )
    const loads = SqlSchema.findAll({
      Request: DatasetId,
      Result: CountRow,
      execute: (datasetId) =>
        sql`select user_id, count(*) as n from record_assignments where dataset_id = ${datasetId} group by user_id`
    })
    const assignedDone = SqlSchema.findAll({
      Request: DatasetId,
      Result: CountRow,
      execute: (datasetId) =>
        sql`select a.user_id, count(*) as n from record_assignments a
          join responses s on s.record_id = a.record_id and s.user_id = a.user_id
          where a.dataset_id = ${datasetId} and s.status in ('submitted', 'discarded') group by a.user_id`
    })
    const done = SqlSchema.findAll({
      Request: DatasetId,
      Result: CountRow,
      execute: (datasetId) =>
        sql`select s.user_id, count(*) as n from responses s join records r on r.id = s.record_id
          where r.dataset_id = ${datasetId} and s.status in ('submitted', 'discarded') group by s.user_id`
    })
    const assignedRecords = SqlSchema.single({
      Request: DatasetId,
      Result: Schema.Struct({ n: DbInt }),
      execute: (datasetId) =>
        sql`select count(distinct record_id) as n from record_assignments where dataset_id = ${datasetId}`
    })
    const insertAssignments = (rows: ReadonlyArray<AssignmentRow>) =>
      Effect.forEach(Arr.chunksOf(rows, Math.floor(CHUNK / 2)), (chunk) =>
        Effect.map(
          sql`insert into record_assignments ${
            sql.insert(chunk.map((row) => ({ ...row, inserted_at: row.inserted_at.toISOString() })))
          } on conflict (record_id, user_id) do nothing returning record_id`,
          (inserted) => inserted.length
        )).pipe(Effect.map((counts) => counts.reduce((a, b) => a + b, 0)))

    /** Removes the assignments of `users` (everybody's when undefined) on `records` (every record when undefined). */
    const removeAssignments = (
      datasetId: DatasetId,
      users: ReadonlyArray<UserId> | undefined,
      records: ReadonlyArray<RecordId> | undefined,
      unansweredOnly: boolean
    ) => {
      const who = users === undefined ? sql`1 = 1` : users.length === 0 ? sql`1 = 0` : sql.in("user_id", users)
      const unanswered = unansweredOnly
        ? sql`not exists (select 1 from responses s where s.record_id = record_assignments.record_id
            and s.user_id = record_assignments.user_id and s.status in ('submitted', 'discarded'))`
        : sql`1 = 1`
      const remove = (chunk: ReadonlyArray<RecordId> | undefined) =>
        sql`delete from record_assignments where dataset_id = ${datasetId} and ${who}
          and ${chunk === undefined ? sql`1 = 1` : sql.in("record_id", chunk)} and ${unanswered}
          returning record_id, user_id`
      const removed = records === undefined
        ? remove(undefined)
        : Effect.map(Effect.forEach(Arr.chunksOf(records, CHUNK), remove), (chunks) => chunks.flat())
      return Effect.flatMap(removed, Schema.decodeUnknown(Schema.Array(PairRow)))
    }

    /** Every record of the dataset, in insertion order (a selection that names none). */
    const recordIds = SqlSchema.findAll({
      Request: DatasetId,
      Result: Schema.Struct({ id: RecordId }),
      execute: (datasetId) => sql`select id from records where dataset_id = ${datasetId} order by ${sql.literal(seq)}`
    })
    /** Whether any record of the dataset is assigned or has a priority. */
    const assignedOrPrioritised = (datasetId: DatasetId) =>
      Effect.map(
        sql`select 1 as found from record_assignments where dataset_id = ${datasetId}
          union all select 1 as found from record_priorities where dataset_id = ${datasetId} limit 1`,
        (rows) => rows.length > 0
      )
    const recordCount = SqlSchema.single({
      Request: DatasetId,
      Result: Schema.Struct({ n: DbInt }),
      execute: (datasetId) => sql`select count(*) as n from records where dataset_id = ${datasetId}`
    })
    /** Users' names and roles, by id. */
    const usersNamed = (ids: ReadonlyArray<UserId>) =>
      ids.length === 0
        ? Effect.succeed([])
        : Effect.flatMap(
          sql`select id as user_id, username, role from users where ${sql.in("id", ids)} order by username`,
          Schema.decodeUnknown(Schema.Array(Schema.Struct({ user_id: UserId, username: Schema.String, role: Schema.String })))
        )
    /** The members of a workspace, with their names and roles. */
    const members = SqlSchema.findAll({
      Request: WorkspaceId,
      Result: Schema.Struct({ user_id: UserId, username: Schema.String, role: Schema.String }),
      execute: (workspaceId) =>
        sql`select u.id as user_id, u.username, u.role from workspaces_users w join users u on u.id = w.user_id
          where w.workspace_id = ${workspaceId} order by u.username`
    })

    // --- leases and priorities ---------------------------------------------------------------------------------

    const upsertLeases = (datasetId: DatasetId, userId: UserId, ids: ReadonlyArray<RecordId>, expiresAt: Date) =>
      ids.length === 0 ? Effect.void : Effect.forEach(Arr.chunksOf(ids, Math.floor(CHUNK / 2)), (chunk) =>
        sql`insert into record_leases ${
          sql.insert(chunk.map((id) => ({
            record_id: id,
            user_id: userId,
            dataset_id: datasetId,
            expires_at: expiresAt.toISOString()
          })))
        } on conflict (record_id, user_id) do update set expires_at = excluded.expires_at`, { discard: true })
    /** Expired leases, and those of users who have answered since: what no queue counts any more. */
    const dropStaleLeases = (datasetId: DatasetId, now: Date) =>
      sql`delete from record_leases where dataset_id = ${datasetId} and (expires_at <= ${now.toISOString()}
        or exists (select 1 from responses s where s.record_id = record_leases.record_id
          and s.user_id = record_leases.user_id))`
    const release = (datasetId: DatasetId, userId: UserId) =>
      Effect.map(
        sql`delete from record_leases where dataset_id = ${datasetId} and user_id = ${userId} returning record_id`,
        (rows) => rows.length
      )
    const setPriorities = (datasetId: DatasetId, ids: ReadonlyArray<RecordId>, priority: number) =>
      Effect.forEach(Arr.chunksOf(ids, Math.floor(CHUNK / 3)), (chunk) =>
        priority === 0
          ? sql`delete from record_priorities where ${sql.in("record_id", chunk)}`
          : sql`insert into record_priorities ${
            sql.insert(chunk.map((id) => ({ record_id: id, dataset_id: datasetId, priority })))
          } on conflict (record_id) do update set priority = excluded.priority`, { discard: true })

    return {
      recordIds: (datasetId: DatasetId) =>
        Effect.map(recordIds(datasetId), (rows) => rows.map((row) => row.id)).pipe(orDie),
      members: (workspaceId: WorkspaceId) => members(workspaceId).pipe(orDie),
      usersNamed: (ids: ReadonlyArray<UserId>) => usersNamed(ids).pipe(orDie),
      assignedOrPrioritised: (datasetId: DatasetId) => assignedOrPrioritised(datasetId).pipe(orDie),
      recordCount: (datasetId: DatasetId) => Effect.map(recordCount(datasetId), (row) => row.n).pipe(orDie),
      leases: (datasetId: DatasetId, now: Date) => leases({ datasetId, now }).pipe(orDie),
      /** The pool, its claims and the live leases, as of one moment (see `queueState`). */
      queueState: (datasetId: DatasetId, now: Date) => queueState(datasetId, now).pipe(orDie),
      assignedTo: (datasetId: DatasetId, userId: UserId) =>
        Effect.map(assignedTo({ datasetId, userId }), (rows) => rows.map(toCandidate)).pipe(orDie),
      answeredBy: (datasetId: DatasetId, userId: UserId) =>
        Effect.map(answeredBy({ datasetId, userId }), (rows) => new Set<string>(rows.map((row) => row.record_id))).pipe(orDie),
      assignmentsOn: (ids: ReadonlyArray<string>) => assignmentsOn(ids).pipe(orDie),
      loads: (datasetId: DatasetId) => loads(datasetId).pipe(orDie),
      assignedDone: (datasetId: DatasetId) => assignedDone(datasetId).pipe(orDie),
      done: (datasetId: DatasetId) => done(datasetId).pipe(orDie),
      assignedRecords: (datasetId: DatasetId) => Effect.map(assignedRecords(datasetId), (row) => row.n).pipe(orDie),
      insertAssignments: (rows: ReadonlyArray<AssignmentRow>) => insertAssignments(rows).pipe(orDie),
      removeAssignments: (
        datasetId: DatasetId,
        users: ReadonlyArray<UserId> | undefined,
        records: ReadonlyArray<RecordId> | undefined,
        unansweredOnly = false
      ) => removeAssignments(datasetId, users, records, unansweredOnly).pipe(orDie),
      upsertLeases: (datasetId: DatasetId, userId: UserId, ids: ReadonlyArray<RecordId>, expiresAt: Date) =>
        upsertLeases(datasetId, userId, ids, expiresAt).pipe(Effect.asVoid, orDie),
      dropStaleLeases: (datasetId: DatasetId, now: Date) => dropStaleLeases(datasetId, now).pipe(Effect.asVoid, orDie),
      release: (datasetId: DatasetId, userId: UserId) => release(datasetId, userId).pipe(orDie),
      setPriorities: (datasetId: DatasetId, ids: ReadonlyArray<RecordId>, priority: number) =>
        setPriorities(datasetId, ids, priority).pipe(Effect.asVoid, orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
