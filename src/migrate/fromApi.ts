/**
 * Reads an Argilla 2.x deployment over its REST API (`/api/v1`, as Argilla 2.8.0 serves it) with an owner's API
 * key, for a deployment whose database cannot be reached. It gives what `fromDatabase.ts` gives for the same
 * deployment, except:
 * - password hashes: the API has none (`readsPasswords: false`; the migration hands out one-time passwords);
 * - what the API does not keep as rows, made up the same way on every run so a re-run finds its own rows again:
 *   memberships and vectors have no id (a UUID v5 of what identifies them) and no timestamps (see `membershipOf`
 *   and `vectorsOf`), and `datasets_users` is not served at all (derived from the responses: `datasetUsersOf`);
 * - changes only: the API cannot list what changed since a time, so every run reads every record
 *   (`readsChangesOnly: false`, `since` ignored).
 *
 * Argilla writes its timestamps naive, in UTC, and the API sends them so (`2026-01-31T12:00:00.123456`): they are
 * parsed as UTC. Records come `pageSize` at a time (Argilla serves at most 1 000 per request), so memory follows the
 * page size, not the dataset.
 */
import { Data, Duration, Effect, Either, Option, ParseResult, Schedule, Schema, Stream } from "effect"
import { v5 } from "uuid"
import { DbTimestamp } from "../codecs/columns.js"
import { MigrationError } from "./errors.js"
import type {
  DatasetRow,
  DatasetSettings,
  DatasetUserRow,
  MembershipRow,
  RecordPage,
  RecordRow,
  ResponseRow,
  Role,
  SuggestionRow,
  UserRow,
  VectorRow,
  VectorSettingsRow,
  WebhookRow,
  WorkspaceRow
} from "./model.js"
import type { ArgillaSource } from "./source.js"

/** The namespace of the UUID v5 ids this reader makes for rows the API serves without one. */
const ID_NAMESPACE = "576e5185-23d1-413e-a1da-4b3f7c6b5deb"

/** Argilla's most records per `GET /datasets/{id}/records` (LIST_DATASET_RECORDS_LIMIT_LE). */
const RECORDS_PER_REQUEST = 1000
/** A request that hangs this long is given up (and retried like a network error). */
const REQUEST_TIMEOUT = Duration.seconds(60)
/** A 5xx or a network error is retried this many times, waiting 0.5 s, 1 s, 2 s, 4 s. */
const RETRIES = 4

// ---- What Argilla 2.8 sends (only what this reader uses; extra keys are ignored) --------------------------------

const Id = Schema.transform(Schema.String, Schema.String, { strict: true, decode: (id) => id.toLowerCase(), encode: (id) => id })
const Time = DbTimestamp
const NullableString = Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
const Json = Schema.optionalWith(Schema.Unknown, { default: () => null })
const Stamps = { id: Id, inserted_at: Time, updated_at: Time }

const ApiVersion = Schema.Struct({ version: Schema.String })
const ApiUser = Schema.Struct({
  ...Stamps,
  username: Schema.String,
  first_name: Schema.String,
  last_name: NullableString,
  role: Schema.Literal("owner", "admin", "annotator"),
  api_key: Schema.String
})
const ApiUsers = Schema.Struct({ items: Schema.Array(ApiUser) })
const ApiWorkspaces = Schema.Struct({ items: Schema.Array(Schema.Struct({ ...Stamps, name: Schema.String })) })
const ApiDatasets = Schema.Struct({
  items: Schema.Array(Schema.Struct({
    ...Stamps,
    name: Schema.String,
    guidelines: NullableString,
    allow_extra_metadata: Schema.Boolean,
    status: Schema.Literal("draft", "ready"),
    distribution: Json,
    metadata: Json,
    workspace_id: Id,
    last_activity_at: Time
  }))
})
const Owned = { ...Stamps, dataset_id: Id, name: Schema.String, title: Schema.String }
const ApiFields = Schema.Struct({
  items: Schema.Array(Schema.Struct({ ...Owned, required: Schema.Boolean, settings: Schema.Unknown }))
})
const ApiQuestions = Schema.Struct({
  items: Schema.Array(Schema.Struct({ ...Owned, required: Schema.Boolean, settings: Schema.Unknown, description: NullableString }))
})
const ApiMetadataProperties = Schema.Struct({
  items: Schema.Array(Schema.Struct({ ...Owned, settings: Schema.Unknown, visible_for_annotators: Schema.Boolean }))
})
const ApiVectorSettings = Schema.Struct({ items: Schema.Array(Schema.Struct({ ...Owned, dimensions: Schema.Number })) })
const ApiResponse = Schema.Struct({
  ...Stamps,
  record_id: Id,
  user_id: Id,
  values: Json,
  status: Schema.Literal("draft", "submitted", "discarded")
})
const ApiSuggestion = Schema.Struct({
  ...Stamps,
  question_id: Id,
  value: Json,
  score: Json,
  agent: NullableString,
  type: Schema.optionalWith(Schema.NullOr(Schema.Literal("model", "human")), { default: () => null })
})
const ApiRecord = Schema.Struct({
  ...Stamps,
  dataset_id: Id,
  external_id: NullableString,
  fields: Schema.Unknown,
  metadata: Json,
  status: Schema.Literal("pending", "completed"),
  responses: Schema.optionalWith(Schema.Array(ApiResponse), { default: () => [] }),
  suggestions: Schema.optionalWith(Schema.Array(ApiSuggestion), { default: () => [] }),
  vectors: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Array(Schema.Number) }), { default: () => ({}) })
})
/** The records list: each record is decoded apart, so its `inserted_at` can be kept as sent too (see `pagesOf`). */
const ApiRecordList = Schema.Struct({ items: Schema.Array(Schema.Unknown), total: Schema.Number })
const decodeRecord = Schema.decodeUnknown(ApiRecord)
const RawInsertedAt = Schema.Struct({ inserted_at: Schema.String })
type ListedRecord = { readonly record: typeof ApiRecord.Type; readonly inserted: string }

const ApiWebhooks = Schema.Struct({
  items: Schema.Array(Schema.Struct({
    ...Stamps,
    url: Schema.String,
    secret: Schema.String,
    events: Schema.Array(Schema.String),
    enabled: Schema.Boolean,
    description: NullableString
  }))
})

// ---- Requests ------------------------------------------------------------------------------------------------

/** A failure worth another try: a network error, a timeout or a 5xx. */
class Transient extends Data.TaggedError("Transient")<{ readonly message: string }> {}

/** Argilla's `detail`, which it sends as a string or as `{ code, params }`, shortened for a message. */
const detailOf = (body: string): string => {
  try {
    const detail: unknown = (JSON.parse(body) as { detail?: unknown }).detail
    const text = typeof detail === "string" ? detail : JSON.stringify(detail ?? body)
    return text.length > 300 ? `${text.slice(0, 300)}…` : text
  } catch {
    return body.length > 300 ? `${body.slice(0, 300)}…` : body
  }
}

/** `http://host:6900`, `…/`, `…/api` and `…/api/v1` all name the same server. */
const baseOf = (url: string): Effect.Effect<string, MigrationError> =>
  Effect.try({
    try: () => {
      const parsed = new URL(url)
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)")
      return parsed.toString().replace(/\/+$/, "").replace(/\/api(\/v1)?$/, "")
    },
    catch: () => new MigrationError({ message: `--argilla-api-url ${url} is not an http(s) URL: give Argilla's address, e.g. http://localhost:6900` })
  })

const makeClient = (base: string, apiKey: string) => {
  /** One GET, retried on a network error or a 5xx; any other answer than 200 fails with one sentence. */
  const getRaw = (path: string, query: ReadonlyArray<readonly [string, string]> = []) => {
    const search = query.length === 0 ? "" : `?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, v])).toString()}`
    const url = `${base}/api/v1${path}${search}`
    const attempt = Effect.tryPromise({
      try: (signal) =>
        fetch(url, {
          headers: { "X-Argilla-Api-Key": apiKey, accept: "application/json" },
          signal: AbortSignal.any([signal, AbortSignal.timeout(Duration.toMillis(REQUEST_TIMEOUT))])
        }).then(async (response) => ({ status: response.status, body: await response.text() })),
      catch: (cause) => new Transient({ message: `Argilla cannot be reached at ${base}: ${causeOf(cause)}` })
    }).pipe(
      Effect.flatMap((answer) =>
        answer.status >= 500
          ? Effect.fail(new Transient({ message: `Argilla at ${base} failed on GET /api/v1${path} (status ${answer.status}): ${detailOf(answer.body)}` }))
          : Effect.succeed(answer)
      )
    )
    return attempt.pipe(
      Effect.retry({ schedule: Schedule.exponential("500 millis"), times: RETRIES }),
      Effect.mapError((error) => new MigrationError({ message: `${error.message} (tried ${RETRIES + 1} times)` }))
    )
  }

  const get = <A, I>(schema: Schema.Schema<A, I>, path: string, query: ReadonlyArray<readonly [string, string]> = []) =>
    Effect.gen(function*() {
      const { body, status } = yield* getRaw(path, query)
      if (status === 401) {
        return yield* new MigrationError({ message: `Argilla at ${base} refused the API key (401): give an owner's API key with --argilla-api-key or ARGILLA_API_KEY` })
      }
      if (status === 403) {
        return yield* new MigrationError({ message: `Argilla at ${base} refused GET /api/v1${path} to this API key (403): reading a whole deployment takes an owner's API key` })
      }
      if (status !== 200) {
        return yield* new MigrationError({ message: `Argilla at ${base} answered GET /api/v1${path} with status ${status}: ${detailOf(body)}` })
      }
      const json = yield* Effect.try({
        try: (): unknown => JSON.parse(body),
        catch: () => new MigrationError({ message: `Argilla at ${base} answered GET /api/v1${path} with something that is not JSON` })
      })
      return yield* Schema.decodeUnknown(schema)(json).pipe(
        Effect.mapError((error) =>
          new MigrationError({
            message: `Argilla at ${base} answered GET /api/v1${path} with what Argilla 2.8 does not send: ${ParseResult.TreeFormatter.formatErrorSync(error).split("\n").slice(0, 6).join(" ")}`
          })
        )
      )
    })

  return { getRaw, get }
}

const causeOf = (cause: unknown): string => {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : ""
    return cause.name === "TimeoutError" ? `no answer in ${Duration.format(REQUEST_TIMEOUT)}` : `${cause.message}${inner}`
  }
  return String(cause)
}

// ---- Rows the API does not serve as rows ---------------------------------------------------------------------

const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b)

/**
 * A membership, which the API serves as the list of a workspace's users: no id and no timestamps of its own. Its id
 * is a UUID v5 of the workspace and the user, so every run makes the same one; its timestamps are the later of the
 * user's and the workspace's `inserted_at` (when the membership could first have been made, and a time that does
 * not move between runs).
 */
const membershipOf = (workspace: WorkspaceRow, user: { readonly id: string; readonly inserted_at: Date }): MembershipRow => {
  const at = later(workspace.inserted_at, user.inserted_at)
  return {
    id: v5(`membership:${workspace.id}:${user.id}`, ID_NAMESPACE),
    inserted_at: at,
    updated_at: at,
    workspace_id: workspace.id,
    user_id: user.id
  }
}

/**
 * A record's vectors, which the API serves as `{ settings name: values }`: no id and no timestamps. The id is a UUID
 * v5 of the record and the vector settings; the timestamps are the record's (a vector is written with its record).
 */
const vectorsOf = (
  record: { readonly id: string; readonly inserted_at: Date; readonly updated_at: Date; readonly vectors: Readonly<Record<string, ReadonlyArray<number>>> },
  settingsIdByName: ReadonlyMap<string, string>,
  datasetName: string
): Either.Either<ReadonlyArray<VectorRow>, MigrationError> => {
  const rows: Array<VectorRow> = []
  for (const [name, value] of Object.entries(record.vectors)) {
    const settingsId = settingsIdByName.get(name)
    if (settingsId === undefined) {
      return Either.left(new MigrationError({ message: `A record of dataset ${datasetName} has a vector '${name}' that its vector settings do not name` }))
    }
    rows.push({
      id: v5(`vector:${record.id}:${settingsId}`, ID_NAMESPACE),
      inserted_at: record.inserted_at,
      updated_at: record.updated_at,
      record_id: record.id,
      vector_settings_id: settingsId,
      value
    })
  }
  return Either.right(rows)
}

/**
 * Argilla 2.8 adds `allow_character_annotation: true` to a span question's settings when it serves them, a read-only
 * default it never stores: left out, the settings are what its database holds.
 */
const storedQuestionSettings = (settings: unknown): unknown => {
  if (settings === null || typeof settings !== "object" || Array.isArray(settings)) return settings
  const { allow_character_annotation, ...rest } = settings as Record<string, unknown>
  return (settings as Record<string, unknown>)["type"] === "span" && allow_character_annotation === true ? rest : settings
}

/**
 * `datasets_users` (who has answered in a dataset) is not served by Argilla 2.8's API: the progress endpoint names
 * those users but gives no ids or times. It is derived from the responses instead: one row per user with a
 * response, with the timestamps of their first response (Argilla adds the row when a user's first response is
 * written). A user whose responses were all deleted since is not in it, where Argilla keeps the row.
 */
class DatasetUsersCollector {
  private readonly first = new Map<string, ResponseRow>()
  add(responses: ReadonlyArray<ResponseRow>): void {
    for (const response of responses) {
      const seen = this.first.get(response.user_id)
      if (seen === undefined || response.inserted_at.getTime() < seen.inserted_at.getTime()) this.first.set(response.user_id, response)
    }
  }
  rows(datasetId: string): ReadonlyArray<DatasetUserRow> {
    return [...this.first.values()]
      .sort((a, b) => a.inserted_at.getTime() - b.inserted_at.getTime() || (a.user_id < b.user_id ? -1 : 1))
      .map((response) => ({
        id: `${datasetId}:${response.user_id}`,
        dataset_id: datasetId,
        user_id: response.user_id,
        inserted_at: response.inserted_at,
        updated_at: response.updated_at
      }))
  }
}

const byInsertion = <A extends { readonly id: string; readonly inserted_at: Date }>(rows: ReadonlyArray<A>): ReadonlyArray<A> =>
  [...rows].sort((a, b) => a.inserted_at.getTime() - b.inserted_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

// ---- The source --------------------------------------------------------------------------------------------------

export const fromApi = (url: string, apiKey: string): Effect.Effect<ArgillaSource, MigrationError> =>
  Effect.gen(function*() {
    const base = yield* baseOf(url)
    const { get, getRaw } = makeClient(base, apiKey)

    // Is it Argilla 2.x? `/api/v1/version` answers without a key, on every 2.x.
    const versionAnswer = yield* getRaw("/version")
    const version = versionAnswer.status === 200
      ? Either.getRight(Schema.decodeUnknownEither(Schema.parseJson(ApiVersion))(versionAnswer.body))
      : Option.none()
    if (Option.isNone(version)) {
      return yield* new MigrationError({
        message: `${base} does not answer like an Argilla 2.x server (GET /api/v1/version gave status ${versionAnswer.status}): give the address Argilla's web app is served at`
      })
    }
    const argillaVersion = version.value.version
    if (!argillaVersion.startsWith("2.")) {
      return yield* new MigrationError({ message: `${base} runs Argilla ${argillaVersion}: this migration reads Argilla 2.x; upgrade it to 2.8 first` })
    }
    const me = yield* get(ApiUser, "/me")
    if (me.role !== "owner") {
      return yield* new MigrationError({
        message: `The API key is ${me.username}'s, an ${me.role} of Argilla at ${base}: reading a whole deployment takes an owner's API key`
      })
    }
    const warnings = /^2\.8\./.test(argillaVersion)
      ? []
      : [`Argilla at ${base} is ${argillaVersion}; its REST API was read as Argilla 2.8's`]

    const users: Effect.Effect<ReadonlyArray<UserRow>, MigrationError> = Effect.map(get(ApiUsers, "/users"), ({ items }) =>
      byInsertion(items.map((user) => ({ ...user, role: user.role satisfies Role, password_hash: null }))))

    const workspaces: Effect.Effect<ReadonlyArray<WorkspaceRow>, MigrationError> = Effect.map(
      get(ApiWorkspaces, "/me/workspaces"),
      ({ items }) => byInsertion(items)
    )

    const memberships: Effect.Effect<ReadonlyArray<MembershipRow>, MigrationError> = Effect.gen(function*() {
      const rows: Array<MembershipRow> = []
      for (const workspace of yield* workspaces) {
        const { items } = yield* get(ApiUsers, `/workspaces/${workspace.id}/users`)
        for (const user of items) rows.push(membershipOf(workspace, user))
      }
      return byInsertion(rows)
    })

    const datasets: Effect.Effect<ReadonlyArray<DatasetRow>, MigrationError> = Effect.map(
      get(ApiDatasets, "/me/datasets"),
      ({ items }) => byInsertion(items)
    )

    const settings = (datasetId: string): Effect.Effect<DatasetSettings, MigrationError> =>
      Effect.all({
        fields: Effect.map(get(ApiFields, `/datasets/${datasetId}/fields`), ({ items }) => byInsertion(items)),
        questions: Effect.map(get(ApiQuestions, `/datasets/${datasetId}/questions`), ({ items }) =>
          byInsertion(items.map((question) => ({ ...question, settings: storedQuestionSettings(question.settings) })))),
        // Argilla keeps the roles that see a property: admins and annotators when visible, admins alone when not
        // (what its own writes store), so the rows are the database's.
        metadataProperties: Effect.map(get(ApiMetadataProperties, `/me/datasets/${datasetId}/metadata-properties`), ({ items }) =>
          byInsertion(items.map(({ visible_for_annotators, ...property }) => ({
            ...property,
            allowed_roles: visible_for_annotators ? ["admin", "annotator"] : ["admin"]
          })))),
        vectorSettings: Effect.map(get(ApiVectorSettings, `/datasets/${datasetId}/vectors-settings`), ({ items }) =>
          byInsertion(items.map((row): VectorSettingsRow => row)))
      })

    const datasetName = (datasetId: string) =>
      Effect.map(get(Schema.Struct({ name: Schema.String }), `/datasets/${datasetId}`), ({ name }) => `'${name}'`)

    /**
     * `limit` records from `offset`, in Argilla's order (by `inserted_at`), in requests of at most 1 000. The raw
     * `inserted_at` of each comes along, for telling a page boundary's ties apart.
     */
    const listRecords = (datasetId: string, include: ReadonlyArray<string>, offset: number, limit: number) =>
      Effect.gen(function*() {
        const items: Array<ListedRecord> = []
        let total = 0
        while (items.length < limit) {
          const want = Math.min(RECORDS_PER_REQUEST, limit - items.length)
          const query: Array<readonly [string, string]> = [
            ...include.map((key) => ["include", key] as const),
            ["offset", String(offset + items.length)],
            ["limit", String(want)]
          ]
          const path = `/datasets/${datasetId}/records`
          const page = yield* get(ApiRecordList, path, query)
          for (const item of page.items) {
            const decoded = yield* Effect.all({ record: decodeRecord(item), raw: Schema.decodeUnknown(RawInsertedAt)(item) }).pipe(
              Effect.mapError((error) =>
                new MigrationError({
                  message: `Argilla at ${base} answered GET /api/v1${path} with a record Argilla 2.8 does not send: ${ParseResult.TreeFormatter.formatErrorSync(error).split("\n").slice(0, 6).join(" ")}`
                })
              )
            )
            items.push({ record: decoded.record, inserted: decoded.raw.inserted_at })
          }
          total = page.total
          if (page.items.length < want) break
        }
        return { items, total }
      })

    /**
     * Every record of a dataset, a page at a time, by offset. Argilla orders by `inserted_at` alone, so records that
     * share one at a page boundary could come twice: the ids at the last page's last `inserted_at` are kept, and a
     * record already given is dropped. What changes while the pages are read (a record deleted moves the offsets)
     * is caught by the migration's verification, which reads them all again.
     */
    const pagesOf = (datasetId: string, include: ReadonlyArray<string>, pageSize: number) => {
      type Cursor = { readonly offset: number; readonly at: string; readonly ids: ReadonlySet<string>; readonly given: number }
      return Stream.paginateEffect({ offset: 0, at: "", ids: new Set<string>(), given: 0 } as Cursor, (cursor) =>
        Effect.gen(function*() {
          const { items, total } = yield* listRecords(datasetId, include, cursor.offset, pageSize)
          const fresh = items.filter(({ inserted, record }) => !(inserted === cursor.at && cursor.ids.has(record.id)))
          const lastAt = items.at(-1)?.inserted ?? cursor.at
          const ids = new Set(items.filter(({ inserted }) => inserted === lastAt).map(({ record }) => record.id))
          if (lastAt === cursor.at) for (const id of cursor.ids) ids.add(id)
          const given = cursor.given + fresh.length
          const next: Cursor = { offset: cursor.offset + items.length, at: lastAt, ids, given }
          const done = items.length < pageSize
          if (done && given < total) {
            return yield* new MigrationError({
              message: `Reading the records of dataset ${yield* datasetName(datasetId)} from Argilla gave ${given} of ${total}: ` +
                "records share insertion times across pages or changed while they were read; run the command again " +
                "(another --batch-size moves the page boundaries)"
            })
          }
          return [fresh.map(({ record }) => record), done ? Option.none() : Option.some(next)] as const
        })
      ).pipe(Stream.filter((records) => records.length > 0))
    }

    const datasetUsersCache = new Map<string, ReadonlyArray<DatasetUserRow>>()

    const recordPages: ArgillaSource["recordPages"] = (datasetId, { pageSize }) =>
      Stream.unwrap(Effect.gen(function*() {
        const vectorSettings = (yield* settings(datasetId)).vectorSettings
        const settingsIdByName = new Map(vectorSettings.map((row) => [row.name, row.id]))
        const name = yield* datasetName(datasetId)
        const collector = new DatasetUsersCollector()
        const include = ["responses", "suggestions", ...(vectorSettings.length > 0 ? ["vectors"] : [])]
        return pagesOf(datasetId, include, pageSize).pipe(
          Stream.mapEffect((apiRecords) =>
            Effect.gen(function*() {
              const records: Array<RecordRow> = []
              const responses: Array<ResponseRow> = []
              const suggestions: Array<SuggestionRow> = []
              const vectors: Array<VectorRow> = []
              for (const record of apiRecords) {
                records.push({
                  id: record.id,
                  inserted_at: record.inserted_at,
                  updated_at: record.updated_at,
                  dataset_id: record.dataset_id,
                  external_id: record.external_id,
                  fields: record.fields,
                  metadata: record.metadata,
                  status: record.status
                })
                responses.push(...record.responses)
                suggestions.push(...record.suggestions.map((suggestion) => ({ ...suggestion, record_id: record.id })))
                vectors.push(...yield* vectorsOf(record, settingsIdByName, name))
              }
              collector.add(responses)
              return { records, responses, suggestions, vectors } satisfies RecordPage
            })
          ),
          // A whole pass has seen every response: who answered is known without another read.
          Stream.onEnd(Effect.sync(() => datasetUsersCache.set(datasetId, collector.rows(datasetId))))
        )
      }))

    const datasetUsers = (datasetId: string): Effect.Effect<ReadonlyArray<DatasetUserRow>, MigrationError> =>
      Effect.suspend(() => {
        const cached = datasetUsersCache.get(datasetId)
        if (cached !== undefined) return Effect.succeed(cached)
        const collector = new DatasetUsersCollector()
        return pagesOf(datasetId, ["responses"], RECORDS_PER_REQUEST).pipe(
          Stream.runForEach((records) => Effect.sync(() => collector.add(records.flatMap((record) => record.responses)))),
          Effect.map(() => collector.rows(datasetId))
        )
      })

    const ids: ArgillaSource["ids"] = (datasetId, kind) =>
      Effect.gen(function*() {
        const found = new Set<string>()
        const settingsIdByName = kind === "vectors"
          ? new Map((yield* settings(datasetId)).vectorSettings.map((row) => [row.name, row.id]))
          : new Map<string, string>()
        const name = kind === "vectors" ? yield* datasetName(datasetId) : ""
        const include = kind === "records" ? [] : [kind]
        yield* pagesOf(datasetId, include, RECORDS_PER_REQUEST).pipe(
          Stream.runForEach((records) =>
            Effect.gen(function*() {
              for (const record of records) {
                if (kind === "records") found.add(record.id)
                else if (kind === "responses") record.responses.forEach((row) => found.add(row.id))
                else if (kind === "suggestions") record.suggestions.forEach((row) => found.add(row.id))
                else for (const vector of yield* vectorsOf(record, settingsIdByName, name)) found.add(vector.id)
              }
            })
          )
        )
        return found
      })

    const source: ArgillaSource = {
      description: `Argilla's REST API (${base}, Argilla ${argillaVersion})`,
      readsPasswords: false,
      readsChangesOnly: false,
      warnings,
      users,
      workspaces,
      memberships,
      datasets,
      settings,
      datasetUsers,
      webhooks: Effect.map(get(ApiWebhooks, "/webhooks"), ({ items }) => byInsertion(items)),
      recordPages,
      // The count of the records list (from Argilla's database): the progress endpoint's total comes from the
      // search index, which a draft dataset does not have.
      recordCount: (datasetId) => Effect.map(listRecords(datasetId, [], 0, 1), ({ total }) => total),
      ids,
      close: Effect.void
    }
    return source
  })
