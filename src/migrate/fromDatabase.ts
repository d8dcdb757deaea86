/**
 * Reads an Argilla 2.x deployment from its database. The schema is Alembic's: the revision in `alembic_version` says
 * which tables and columns exist, and a revision this reader does not know stops the migration before anything is
 * read (a newer Argilla may store what Gloss cannot hold; an older one is upgraded by Argilla's own
 * `python -m argilla_server database migrate`).
 */
import { Effect, Stream } from "effect"
import { timestampOf } from "../codecs/columns.js"
import { MigrationError } from "./errors.js"
import type {
  DatasetRow,
  DatasetUserRow,
  MembershipRow,
  RecordChild,
  RecordPage,
  RecordRow,
  ResponseRow,
  Role,
  SuggestionRow,
  UserRow,
  VectorRow,
  WebhookRow,
  WorkspaceRow
} from "./model.js"
import type { ArgillaSource } from "./source.js"
import { openSourceDatabase, type SourceDatabase, type SourceValue } from "./sourceDatabase.js"

/**
 * The Alembic revisions of Argilla 2.x, oldest first, and what each added that this reader uses. 2.0 made the
 * distribution and records' status; later 2.x releases added datasets' metadata, webhooks and `datasets_users`.
 */
export const KNOWN_REVISIONS = ["237f7c674d74", "660d6c6b3360", "6ed1b8bf8e08", "580a6553186f"] as const
const DATASET_METADATA = 1
const WEBHOOKS = 2
const DATASETS_USERS = 3

type Row = Record<string, SourceValue>

const uuid = (value: SourceValue): string => {
  const text = String(value).toLowerCase()
  return text.length === 32
    ? `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`
    : text
}
const nullableUuid = (value: SourceValue) => value === null ? null : uuid(value)
/** Argilla's naive UTC `YYYY-MM-DD HH:MM:SS[.ffffff]`, read field by field (several per row, a million rows a run). */
const ARGILLA_TIME = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/
const timestamp = (value: SourceValue): Date => {
  const match = typeof value === "string" ? ARGILLA_TIME.exec(value) : null
  if (match !== null) {
    const [, y, mo, d, h, mi, sec, fraction] = match
    return new Date(Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +sec!, fraction === undefined ? 0 : Math.floor(+fraction.padEnd(6, "0") / 1000)))
  }
  const date = value === null ? undefined : timestampOf(String(value))
  if (date === undefined) throw new Error(`not a timestamp: ${String(value)}`)
  return date
}
const json = (value: SourceValue): unknown => value === null ? null : typeof value === "string" ? JSON.parse(value) : value
const bool = (value: SourceValue): boolean => value === true || value === 1 || value === "1" || value === "t"
const text = (value: SourceValue): string => String(value)
const nullableText = (value: SourceValue): string | null => value === null ? null : String(value)
const stamps = (row: Row) => ({ id: uuid(row["id"]!), inserted_at: timestamp(row["inserted_at"]!), updated_at: timestamp(row["updated_at"]!) })

/** A time as Argilla's naive UTC timestamps are written (compares as text on SQLite, parses on PostgreSQL). */
export const sourceTime = (date: Date): string => date.toISOString().replace("T", " ").replace("Z", "")

export const toUser = (row: Row): UserRow => ({
  ...stamps(row),
  username: text(row["username"]!),
  first_name: text(row["first_name"]!),
  last_name: nullableText(row["last_name"]!),
  role: text(row["role"]!) as Role,
  password_hash: text(row["password_hash"]!),
  api_key: text(row["api_key"]!)
})

const toRecord = (row: Row): RecordRow => ({
  ...stamps(row),
  dataset_id: uuid(row["dataset_id"]!),
  external_id: nullableText(row["external_id"]!),
  fields: json(row["fields"]!),
  metadata: json(row["metadata"]!),
  status: text(row["status"]!) as RecordRow["status"]
})
const toResponse = (row: Row): ResponseRow => ({
  ...stamps(row),
  record_id: uuid(row["record_id"]!),
  user_id: uuid(row["user_id"]!),
  values: json(row["values"]!),
  status: text(row["status"]!) as ResponseRow["status"]
})
const toSuggestion = (row: Row): SuggestionRow => ({
  ...stamps(row),
  record_id: uuid(row["record_id"]!),
  question_id: uuid(row["question_id"]!),
  value: json(row["value"]!),
  score: json(row["score"]!),
  agent: nullableText(row["agent"]!),
  type: nullableText(row["type"]!) as SuggestionRow["type"]
})
const toVector = (row: Row): VectorRow => ({
  ...stamps(row),
  record_id: uuid(row["record_id"]!),
  vector_settings_id: uuid(row["vector_settings_id"]!),
  value: json(row["value"]!) as ReadonlyArray<number>
})

/** Rows mapped by `to`; a row that does not map (a corrupt value) fails the read with the table's name. */
const mapped = <A>(table: string, to: (row: Row) => A) => (rows: ReadonlyArray<Row>) =>
  Effect.try({
    try: () => rows.map(to),
    catch: (cause) => new MigrationError({ message: `A row of Argilla's ${table} table cannot be read: ${String(cause)}` })
  })

const chunked = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let from = 0; from < items.length; from += size) out.push(items.slice(from, from + size))
  return out
}

const CHILD_TABLES: Record<RecordChild, string> = { responses: "responses", suggestions: "suggestions", vectors: "vectors" }

export const fromDatabase = (url: string): Effect.Effect<ArgillaSource, MigrationError> =>
  Effect.gen(function*() {
    const db = yield* openSourceDatabase(url)
    const revision = yield* readRevision(db).pipe(Effect.tapError(() => db.close))
    const level = KNOWN_REVISIONS.indexOf(revision as typeof KNOWN_REVISIONS[number])
    const select = <A>(table: string, to: (row: Row) => A, query: string, params: ReadonlyArray<unknown> = []) =>
      Effect.flatMap(db.all(query, params), mapped(table, to))

    const childrenOf = (ids: ReadonlyArray<string>) => {
      const { clause, params } = db.inIds("record_id", ids)
      return Effect.all({
        responses: select("responses", toResponse, `select * from responses where ${clause}`, params),
        suggestions: select("suggestions", toSuggestion, `select * from suggestions where ${clause}`, params),
        vectors: select("vectors", toVector, `select * from vectors where ${clause}`, params)
      })
    }

    const changedSince = (since: Date) => {
      const at = sourceTime(since)
      const child = (table: string) => `exists (select 1 from ${table} c where c.record_id = r.id and c.updated_at >= ?)`
      return {
        clause: `and (r.updated_at >= ? or ${child("responses")} or ${child("suggestions")} or ${child("vectors")})`,
        params: [at, at, at, at]
      }
    }

    /**
     * The dataset's record ids in Argilla's order are read once (a few megabytes at 100 000 records), then the pages
     * by id: Argilla indexes records by dataset but not by insertion time, so a keyset page `order by inserted_at`
     * would sort the whole dataset once per page.
     */
    const recordPages: ArgillaSource["recordPages"] = (datasetId, { pageSize, since }) => {
      const filter = since === undefined ? { clause: "", params: [] } : changedSince(since)
      const order = db.all(
        `select r.id from records r where r.dataset_id = ? ${filter.clause} order by r.inserted_at, r.id`,
        [db.idParam(datasetId), ...filter.params]
      )
      const page = (ids: ReadonlyArray<SourceValue>) =>
        Effect.gen(function*() {
          const placeholders = db.dialect === "sqlite" ? ids.map(() => "?").join(", ") : ""
          const raw = yield* (db.dialect === "sqlite"
            ? db.all(`select * from records where id in (${placeholders})`, ids)
            : db.all("select * from records where id = any(?::uuid[])", [ids]))
          const byId = new Map(raw.map((row) => [String(row["id"]), row]))
          // In Argilla's order (the `in` list comes back in the index's); a record deleted since the ids were read is
          // left out, and the next run's id comparison deletes it.
          const ordered = ids.flatMap((id): Array<Row> => {
            const row = byId.get(String(id))
            return row === undefined ? [] : [row]
          })
          const records = yield* mapped("records", toRecord)(ordered)
          const children = yield* childrenOf(records.map((record) => record.id))
          return { records, ...children } satisfies RecordPage
        })
      return Stream.fromIterableEffect(Effect.map(order, (rows) => chunked(rows.map((row) => row["id"]!), pageSize))).pipe(
        Stream.mapEffect(page),
        Stream.filter((p) => p.records.length > 0)
      )
    }

    const source: ArgillaSource = {
      description: `Argilla's database (${db.dialect === "sqlite" ? "SQLite" : "PostgreSQL"} at ${db.location}, schema revision ${revision})`,
      readsPasswords: true,
      readsChangesOnly: true,
      warnings: [],
      users: select("users", toUser, "select * from users order by inserted_at, id"),
      workspaces: select("workspaces", (row): WorkspaceRow => ({ ...stamps(row), name: text(row["name"]!) }),
        "select * from workspaces order by inserted_at, id"),
      memberships: select("workspaces_users", (row): MembershipRow => ({
        ...stamps(row),
        workspace_id: uuid(row["workspace_id"]!),
        user_id: uuid(row["user_id"]!)
      }), "select * from workspaces_users order by inserted_at, id"),
      datasets: select("datasets", (row): DatasetRow => ({
        ...stamps(row),
        name: text(row["name"]!),
        guidelines: nullableText(row["guidelines"]!),
        allow_extra_metadata: bool(row["allow_extra_metadata"]!),
        status: text(row["status"]!) as DatasetRow["status"],
        distribution: json(row["distribution"]!),
        metadata: level >= DATASET_METADATA ? json(row["metadata"] ?? null) : null,
        workspace_id: uuid(row["workspace_id"]!),
        last_activity_at: timestamp(row["last_activity_at"]!)
      }), "select * from datasets order by inserted_at, id"),
      settings: (datasetId) => {
        const params = [db.idParam(datasetId)]
        const owned = (table: string) => `select * from ${table} where dataset_id = ? order by inserted_at, id`
        const base = (row: Row) => ({ ...stamps(row), dataset_id: uuid(row["dataset_id"]!), name: text(row["name"]!), title: text(row["title"]!) })
        return Effect.all({
          fields: select("fields", (row) => ({ ...base(row), required: bool(row["required"]!), settings: json(row["settings"]!) }),
            owned("fields"), params),
          questions: select("questions", (row) => ({
            ...base(row),
            required: bool(row["required"]!),
            settings: json(row["settings"]!),
            description: nullableText(row["description"]!)
          }), owned("questions"), params),
          metadataProperties: select("metadata_properties", (row) => ({
            ...base(row),
            settings: json(row["settings"]!),
            allowed_roles: (json(row["allowed_roles"] ?? "[]") ?? []) as ReadonlyArray<string>
          }), owned("metadata_properties"), params),
          vectorSettings: select("vectors_settings", (row) => ({ ...base(row), dimensions: Number(row["dimensions"]) }),
            owned("vectors_settings"), params)
        })
      },
      datasetUsers: (datasetId) =>
        level >= DATASETS_USERS
          ? select("datasets_users", (row): DatasetUserRow => ({
            id: `${uuid(row["dataset_id"]!)}:${uuid(row["user_id"]!)}`,
            dataset_id: uuid(row["dataset_id"]!),
            user_id: uuid(row["user_id"]!),
            inserted_at: timestamp(row["inserted_at"]!),
            updated_at: timestamp(row["updated_at"]!)
          }), "select * from datasets_users where dataset_id = ? order by inserted_at, user_id", [db.idParam(datasetId)])
          : Effect.succeed([]),
      webhooks: level >= WEBHOOKS
        ? select("webhooks", (row): WebhookRow => ({
          ...stamps(row),
          url: text(row["url"]!),
          secret: text(row["secret"]!),
          events: json(row["events"]!) as ReadonlyArray<string>,
          enabled: bool(row["enabled"]!),
          description: nullableText(row["description"]!)
        }), "select * from webhooks order by inserted_at, id")
        : Effect.succeed([]),
      recordPages,
      recordCount: (datasetId) =>
        Effect.map(db.all("select count(*) as n from records where dataset_id = ?", [db.idParam(datasetId)]), (rows) => Number(rows[0]?.["n"] ?? 0)),
      ids: (datasetId, kind) =>
        Effect.map(
          db.all(
            kind === "records"
              ? "select id from records where dataset_id = ?"
              : `select c.id from ${CHILD_TABLES[kind]} c join records r on r.id = c.record_id where r.dataset_id = ?`,
            [db.idParam(datasetId)]
          ),
          (rows) => new Set(rows.map((row) => uuid(row["id"]!)))
        ),
      close: db.close
    }
    return source
  })

const readRevision = (db: SourceDatabase): Effect.Effect<string, MigrationError> =>
  Effect.gen(function*() {
    if (!(yield* db.tableExists("alembic_version"))) {
      return yield* new MigrationError({
        message: `${db.location} is not an Argilla database: it has no alembic_version table`
      })
    }
    const rows = yield* db.all("select version_num from alembic_version")
    const revision = rows[0]?.["version_num"]
    if (typeof revision !== "string") {
      return yield* new MigrationError({ message: `Argilla's database at ${db.location} has no schema revision: run Argilla once (it migrates its database) and try again` })
    }
    if (!(KNOWN_REVISIONS as ReadonlyArray<string>).includes(revision)) {
      return yield* new MigrationError({
        message: `Argilla's database at ${db.location} is at schema revision ${revision}, which this migration does not know: ` +
          `it reads Argilla 2.x (revisions ${KNOWN_REVISIONS.join(", ")}); upgrade an older Argilla to 2.8 first ` +
          `(python -m argilla_server database migrate)`
      })
    }
    return revision
  })
