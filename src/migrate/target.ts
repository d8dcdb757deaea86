/**
 * Gloss's side of a migration: its tables read and written directly, in Argilla's own layout (the ids, timestamps
 * and values the source had), not through the services, which would make new ids and times. Every write is an
 * upsert keyed by id, so running a migration again, or after one was stopped half way, ends in the same rows.
 */
import { Effect } from "effect"
import { Database } from "../services/database/Database.js"
import { insertionOrder } from "../services/database/ddl.js"
import { isoString } from "../domain/Timestamp.js"
import { apiKeyDigest } from "../services/secrets/apiKeys.js"
import { seal } from "../services/secrets/sealing.js"
import type * as M from "./model.js"

type DbRow = Readonly<Record<string, unknown>>
export type RecordKind = "records" | M.RecordChild

/** SQLite binds at most 32 766 parameters a statement; rows are written in chunks well below that. */
const MAX_PARAMETERS = 20_000

const json = (value: unknown) => JSON.stringify(value ?? null)
const nullableJson = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))
const stamps = (row: M.Stamped) => ({ id: row.id, inserted_at: isoString(row.inserted_at), updated_at: isoString(row.updated_at) })

/** Each kind's row as Gloss stores it. */
export const toGloss = {
  users: (row: M.UserRow, sealingKey: Buffer, passwordHash: string) => ({
    ...stamps(row),
    first_name: row.first_name,
    last_name: row.last_name,
    username: row.username,
    role: row.role,
    api_key_digest: apiKeyDigest(row.api_key),
    api_key_sealed: seal(sealingKey, row.api_key),
    password_hash: passwordHash
  }),
  workspaces: (row: M.WorkspaceRow) => ({ ...stamps(row), name: row.name }),
  memberships: (row: M.MembershipRow) => ({ ...stamps(row), workspace_id: row.workspace_id, user_id: row.user_id }),
  datasets: (row: M.DatasetRow) => ({
    ...stamps(row),
    name: row.name,
    guidelines: row.guidelines,
    allow_extra_metadata: row.allow_extra_metadata ? 1 : 0,
    status: row.status,
    distribution: json(row.distribution),
    metadata: nullableJson(row.metadata),
    workspace_id: row.workspace_id,
    last_activity_at: isoString(row.last_activity_at)
  }),
  fields: (row: M.FieldRow) => ({
    ...stamps(row), dataset_id: row.dataset_id, name: row.name, title: row.title, required: row.required ? 1 : 0, settings: json(row.settings)
  }),
  questions: (row: M.QuestionRow) => ({ ...toGloss.fields(row), description: row.description }),
  metadataProperties: (row: M.MetadataPropertyRow) => ({
    ...stamps(row),
    dataset_id: row.dataset_id,
    name: row.name,
    title: row.title,
    settings: json(row.settings),
    visible_for_annotators: row.allowed_roles.includes("annotator") ? 1 : 0
  }),
  vectorSettings: (row: M.VectorSettingsRow) => ({
    ...stamps(row), dataset_id: row.dataset_id, name: row.name, title: row.title, dimensions: row.dimensions
  }),
  records: (row: M.RecordRow) => ({
    ...stamps(row),
    dataset_id: row.dataset_id,
    external_id: row.external_id,
    fields: json(row.fields),
    metadata: nullableJson(row.metadata),
    status: row.status
  }),
  responses: (row: M.ResponseRow) => ({
    ...stamps(row), record_id: row.record_id, user_id: row.user_id, values: nullableJson(row.values), status: row.status
  }),
  suggestions: (row: M.SuggestionRow) => ({
    ...stamps(row),
    record_id: row.record_id,
    question_id: row.question_id,
    value: json(row.value),
    score: nullableJson(row.score),
    agent: row.agent,
    type: row.type
  }),
  vectors: (row: M.VectorRow) => ({
    ...stamps(row),
    record_id: row.record_id,
    vector_settings_id: row.vector_settings_id,
    value: new Uint8Array(Float64Array.from(row.value).buffer)
  }),
  datasetUsers: (row: M.DatasetUserRow) => ({
    dataset_id: row.dataset_id,
    user_id: row.user_id,
    inserted_at: isoString(row.inserted_at),
    updated_at: isoString(row.updated_at)
  }),
  webhooks: (row: M.WebhookRow) => ({
    ...stamps(row),
    url: row.url,
    secret: row.secret,
    events: json(row.events),
    enabled: row.enabled ? 1 : 0,
    description: row.description
  })
}

const CHILD_KEYS: Record<M.RecordChild, string> = {
  responses: "user_id",
  suggestions: "question_id",
  vectors: "vector_settings_id"
}

export class Target extends Effect.Service<Target>()("Gloss/migrate/Target", {
  effect: Effect.gen(function*() {
    const db = yield* Database
    const { sql } = db
    const orDie = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.orDie(effect)

    /** Inserts or, by `key`, updates: the columns of the first row (every row has the same). */
    const upsert = (table: string, rows: ReadonlyArray<Record<string, unknown>>, key = "id") => {
      if (rows.length === 0) return Effect.void
      const columns = Object.keys(rows[0]!)
      const keys = key.split(",").map((part) => part.trim())
      const set = columns.filter((column) => !keys.includes(column)).map((column) => `"${column}" = excluded."${column}"`).join(", ")
      const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length))
      return Effect.forEach(chunks(rows, perStatement), (chunk) =>
        orDie(sql`insert into ${sql(table)} ${sql.insert(chunk as Array<Record<string, unknown>>)}
                  on conflict (${sql.unsafe(key)}) do update set ${sql.unsafe(set)}`), { discard: true })
    }

    const all = (table: string) => orDie(sql<DbRow>`select * from ${sql(table)}`)
    const ofDataset = (table: string, datasetId: string) =>
      orDie(sql<DbRow>`select * from ${sql(table)} where dataset_id = ${datasetId}`)

    const existingIds = (table: string, ids: ReadonlyArray<string>) =>
      ids.length === 0
        ? Effect.succeed(new Set<string>())
        : Effect.map(
          Effect.forEach(chunks(ids, 5000), (chunk) => orDie(sql<{ id: string }>`select id from ${sql(table)} where ${sql.in("id", chunk)}`)),
          (pages) => new Set(pages.flat().map((row) => String(row.id)))
        )

    const deleteIds = (table: string, ids: ReadonlyArray<string>) =>
      Effect.forEach(chunks(ids, 5000), (chunk) => orDie(sql`delete from ${sql(table)} where ${sql.in("id", chunk)}`), { discard: true })

    /** Every id of a kind in one dataset. */
    const idsOfDataset = (datasetId: string, kind: RecordKind) =>
      Effect.map(
        orDie(kind === "records"
          ? sql<{ id: string }>`select id from records where dataset_id = ${datasetId}`
          : sql<{ id: string }>`select c.id from ${sql(kind)} c join records r on r.id = c.record_id where r.dataset_id = ${datasetId}`),
        (rows) => new Set(rows.map((row) => String(row.id)))
      )

    /**
     * The records' children that the source no longer has: deleted before the upsert, which could otherwise meet
     * a row of the same record and user (or question, or vector settings) under another id.
     */
    const deleteChildrenExcept = (kind: M.RecordChild, recordIds: ReadonlyArray<string>, keep: ReadonlySet<string>) =>
      Effect.gen(function*() {
        if (recordIds.length === 0) return 0
        const rows = (yield* Effect.forEach(chunks(recordIds, 5000), (chunk) =>
          orDie(sql<{ id: string }>`select id from ${sql(kind)} where ${sql.in("record_id", chunk)}`))).flat()
        const gone = rows.map((row) => String(row.id)).filter((id) => !keep.has(id))
        yield* deleteIds(kind, gone)
        return gone.length
      })

    /**
     * A dataset's records a page at a time in insertion order (rowid on SQLite, seq on PostgreSQL: both indexed, so a
     * page costs its own rows; `order by id` within a dataset sorted the whole dataset once per page), with their
     * children: what the verifier reads back.
     */
    const order = insertionOrder(sql)
    const recordPage = (datasetId: string, after: number | undefined, size: number) =>
      Effect.gen(function*() {
        const rows = yield* orDie(sql<DbRow>`select ${sql.unsafe(order)} as page_key, r.* from records r
          where ${sql.unsafe(order)} > ${after ?? -1} and dataset_id = ${datasetId}
          order by ${sql.unsafe(order)} limit ${size}`)
        const records = rows.map(({ page_key: _key, ...row }) => row)
        const ids = records.map((row) => String(row["id"]))
        const children = (kind: M.RecordChild) =>
          ids.length === 0 ? Effect.succeed([] as ReadonlyArray<DbRow>) : orDie(sql<DbRow>`select * from ${sql(kind)} where ${sql.in("record_id", ids)}`)
        const last = rows.at(-1)?.["page_key"]
        return {
          records,
          responses: yield* children("responses"),
          suggestions: yield* children("suggestions"),
          vectors: yield* children("vectors"),
          last: last === undefined ? undefined : Number(last)
        }
      })

    const loadState = (source: string) =>
      Effect.map(
        orDie(sql<{ watermark: unknown; state: unknown }>`select watermark, state from argilla_migrations where source = ${source}`),
        (rows) => rows[0]
      )
    const saveState = (source: string, watermark: Date | undefined, state: unknown, at: Date) =>
      upsert("argilla_migrations", [{
        source,
        watermark: watermark === undefined ? null : isoString(watermark),
        state: JSON.stringify(state),
        updated_at: isoString(at)
      }], "source")

    return {
      dialect: db.dialect,
      transaction: db.transaction,
      upsert,
      all,
      ofDataset,
      existingIds,
      deleteIds,
      idsOfDataset,
      deleteChildrenExcept,
      childKey: (kind: M.RecordChild) => CHILD_KEYS[kind],
      recordPage,
      loadState,
      saveState,
      deleteDatasetUsers: (datasetId: string, keepUsers: ReadonlySet<string>) =>
        Effect.gen(function*() {
          const rows = yield* orDie(sql<{ user_id: string }>`select user_id from datasets_users where dataset_id = ${datasetId}`)
          const gone = rows.map((row) => String(row.user_id)).filter((id) => !keepUsers.has(id))
          if (gone.length > 0) yield* orDie(sql`delete from datasets_users where dataset_id = ${datasetId} and ${sql.in("user_id", gone)}`)
          return gone.length
        })
    } as const
  }),
  dependencies: [Database.Default]
}) {}

export const chunks = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let from = 0; from < items.length; from += size) out.push(items.slice(from, from + size))
  return out
}
