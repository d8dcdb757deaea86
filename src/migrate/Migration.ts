/**
 * `gloss migrate from-argilla`: copies an Argilla deployment into Gloss's database with every id kept, then brings
 * the search index up to date and verifies. In order: users, workspaces and memberships (conflicts decided first,
 * see plan.ts), each dataset with its settings and its records page by page (a page and everything hanging off it
 * in one transaction), webhooks, then what Argilla no longer has, then the index, then the verification.
 *
 * Idempotent and resumable: every write is an upsert by id, so a run stopped half way and started again ends in
 * the same state. Incremental: a completed run leaves a watermark, and the next one reads only the records that
 * changed since then (less SAFETY_MARGIN), while the small kinds are compared whole every time.
 */
import * as crypto from "node:crypto"
import { Effect, Stream } from "effect"
import { GlossConfig } from "../Config.js"
import type { DatasetId, RecordId } from "../domain/Ids.js"
import { SearchIndex } from "../services/records/SearchIndex.js"
import { SearchEngine } from "../services/search/SearchEngine.js"
import { apiKeySealingKey } from "../services/secrets/apiKeys.js"
import { Passwords } from "../services/users/Passwords.js"
import { type Canonical, fingerprint, fromSource, fromTarget } from "./canonical.js"
import { MigrationError } from "./errors.js"
import type * as M from "./model.js"
import { decide, type OnConflict, unholdable, visibilityNotes } from "./plan.js"
import { Report } from "./report.js"
import { digestPage, newRecordDigests, type RecordDigests, verify } from "./verify.js"
import type { ArgillaSource } from "./source.js"
import { Target, toGloss } from "./target.js"

/** Re-read this much before the last run's watermark: a write committed late with an earlier timestamp is not missed. */
const SAFETY_MARGIN_MS = 5 * 60_000

export interface MigrateOptions {
  /** Names the source in Gloss's memory of past runs (its database location or API URL). */
  readonly sourceKey: string
  readonly dryRun: boolean
  /** Read only records changed since then; default: since the last completed run (none: everything). */
  readonly since: Date | undefined
  /** Ignore the last run's watermark and read everything. */
  readonly full: boolean
  readonly onConflict: OnConflict
  readonly pageSize: number
  readonly progress: Progress
}

/** Where a run tells how far it is (a bar on a terminal, lines otherwise: see cli/MigrateCommand.ts). */
export interface Progress {
  readonly step: (message: string) => Effect.Effect<void>
  readonly records: (dataset: string, done: number, total: number) => Effect.Effect<void>
}

interface State {
  readonly users: ReadonlyArray<string>
  readonly workspaces: ReadonlyArray<string>
  readonly memberships: ReadonlyArray<string>
  readonly datasets: ReadonlyArray<string>
  readonly webhooks: ReadonlyArray<string>
}
const EMPTY_STATE: State = { users: [], workspaces: [], memberships: [], datasets: [], webhooks: [] }

const idOf = (row: Readonly<Record<string, unknown>>) => String(row["id"])
const same = (a: Canonical, b: Canonical) => fingerprint(a).equals(fingerprint(b))

export const migrate = (source: ArgillaSource, options: MigrateOptions) =>
  Effect.gen(function*() {
    const target = yield* Target
    const index = yield* SearchIndex
    const engine = yield* SearchEngine
    const config = yield* GlossConfig
    const passwords = yield* Passwords
    const sealingKey = yield* apiKeySealingKey(config)
    const report = new Report()
    const { dryRun, onConflict, progress } = options
    const write = <A, E, R>(effect: Effect.Effect<A, E, R>) => (dryRun ? Effect.void : Effect.asVoid(effect))

    const stored = yield* target.loadState(options.sourceKey)
    const state: State = stored === undefined ? EMPTY_STATE : { ...EMPTY_STATE, ...(parseJson(stored.state) as Partial<State>) }
    const lastWatermark = stored?.watermark === undefined || stored.watermark === null ? undefined : new Date(String(stored.watermark).replace(" ", "T").replace(/(\d)$/, "$1Z"))
    const since = !source.readsChangesOnly || options.full
      ? undefined
      : options.since ?? (lastWatermark === undefined || Number.isNaN(lastWatermark.getTime()) ? undefined : new Date(lastWatermark.getTime() - SAFETY_MARGIN_MS))
    let watermark = lastWatermark !== undefined && !Number.isNaN(lastWatermark.getTime()) ? lastWatermark.getTime() : 0
    const saw = (row: M.Stamped) => {
      if (row.updated_at.getTime() > watermark) watermark = row.updated_at.getTime()
    }
    report.notes.push(...source.warnings)
    if (since !== undefined) yield* progress.step(`Reading records changed since ${since.toISOString()}`)

    // ---- Users ----------------------------------------------------------------------------------------------
    yield* progress.step("Users")
    const users = yield* source.users
    users.forEach(saw)
    const glossUsers = yield* target.all("users")
    const glossUserById = new Map(glossUsers.map((row) => [idOf(row), row]))
    const usernames = new Map(glossUsers.map((row) => [String(row["username"]), idOf(row)]))
    const keptUsers = new Map<string, M.UserRow>()
    const userRows: Array<Record<string, unknown>> = []
    for (const user of users) {
      const decision = decide("user", user.id, user.username, usernames, onConflict, report.conflicts)
      if (decision._tag === "skip") {
        report.skip("users", decision.reason)
        continue
      }
      if (decision.name !== user.username) report.notes.push(`users: '${user.username}' becomes '${decision.name}' (--on-conflict rename)`)
      usernames.set(decision.name, user.id)
      const row = { ...user, username: decision.name }
      keptUsers.set(user.id, row)
      const existing = glossUserById.get(user.id)
      const withPassword = source.readsPasswords
      if (existing !== undefined && same(fromSource.users(row, withPassword), fromTarget.users(existing, withPassword))) {
        report.add("users", "unchanged")
        continue
      }
      report.add("users", existing === undefined ? "created" : "updated")
      let hash = user.password_hash
      if (hash === null) {
        if (existing !== undefined) hash = String(existing["password_hash"])
        else {
          // The REST API gives no password hashes: a random one-time password, handed to the operator.
          const password = crypto.randomBytes(12).toString("base64url")
          hash = dryRun ? "" : yield* passwords.hash(password)
          report.passwordLinks.push({ username: decision.name, link: password })
        }
      }
      userRows.push(toGloss.users(row, sealingKey, hash))
    }

    // ---- Workspaces and memberships --------------------------------------------------------------------------
    yield* progress.step("Workspaces")
    const workspaces = yield* source.workspaces
    workspaces.forEach(saw)
    const glossWorkspaces = yield* target.all("workspaces")
    const glossWorkspaceById = new Map(glossWorkspaces.map((row) => [idOf(row), row]))
    const workspaceNames = new Map(glossWorkspaces.map((row) => [String(row["name"]), idOf(row)]))
    const keptWorkspaces = new Map<string, M.WorkspaceRow>()
    const workspaceRows: Array<Record<string, unknown>> = []
    for (const workspace of workspaces) {
      const decision = decide("workspace", workspace.id, workspace.name, workspaceNames, onConflict, report.conflicts)
      if (decision._tag === "skip") {
        report.skip("workspaces", decision.reason)
        continue
      }
      if (decision.name !== workspace.name) report.notes.push(`workspaces: '${workspace.name}' becomes '${decision.name}' (--on-conflict rename)`)
      workspaceNames.set(decision.name, workspace.id)
      const row = { ...workspace, name: decision.name }
      keptWorkspaces.set(workspace.id, row)
      const existing = glossWorkspaceById.get(workspace.id)
      if (existing !== undefined && same(fromSource.workspaces(row), fromTarget.workspaces(existing))) {
        report.add("workspaces", "unchanged")
        continue
      }
      report.add("workspaces", existing === undefined ? "created" : "updated")
      workspaceRows.push(toGloss.workspaces(row))
    }

    const memberships = yield* source.memberships
    memberships.forEach(saw)
    const glossMemberships = yield* target.all("workspaces_users")
    const glossMembershipById = new Map(glossMemberships.map((row) => [idOf(row), row]))
    const membershipPairs = new Map(glossMemberships.map((row) => [`${String(row["workspace_id"])}:${String(row["user_id"])}`, idOf(row)]))
    const keptMemberships: Array<M.MembershipRow> = []
    const membershipRows: Array<Record<string, unknown>> = []
    for (const membership of memberships) {
      if (!keptUsers.has(membership.user_id) || !keptWorkspaces.has(membership.workspace_id)) {
        report.skip("memberships", "their user or workspace was skipped")
        continue
      }
      const holder = membershipPairs.get(`${membership.workspace_id}:${membership.user_id}`)
      if (holder !== undefined && holder !== membership.id) {
        // Made a member in Gloss already: the membership is there, under Gloss's id.
        report.add("memberships", "unchanged")
        continue
      }
      keptMemberships.push(membership)
      const existing = glossMembershipById.get(membership.id)
      if (existing !== undefined && same(fromSource.memberships(membership), fromTarget.memberships(existing))) {
        report.add("memberships", "unchanged")
        continue
      }
      report.add("memberships", existing === undefined ? "created" : "updated")
      membershipRows.push(toGloss.memberships(membership))
    }

    // ---- Datasets: conflicts and what Gloss cannot hold, decided before any write --------------------------
    yield* progress.step("Datasets")
    const datasets = yield* source.datasets
    datasets.forEach(saw)
    const glossDatasets = yield* target.all("datasets")
    const glossDatasetById = new Map(glossDatasets.map((row) => [idOf(row), row]))
    const datasetNames = new Map(glossDatasets.map((row) => [`${String(row["workspace_id"])}/${String(row["name"])}`, idOf(row)]))
    const plannedDatasets: Array<{ readonly row: M.DatasetRow; readonly settings: M.DatasetSettings; readonly existed: boolean }> = []
    for (const dataset of datasets) {
      if (!keptWorkspaces.has(dataset.workspace_id)) {
        report.skip("datasets", `'${dataset.name}': its workspace was skipped`)
        continue
      }
      const settings = yield* source.settings(dataset.id)
      const cannot = unholdable(settings)
      if (cannot.length > 0) {
        report.skip("datasets", `'${dataset.name}' cannot be held by Gloss: ${cannot.join("; ")}`)
        continue
      }
      report.notes.push(...visibilityNotes(settings).map((note) => `datasets: '${dataset.name}': ${note}`))
      const names = new Map([...datasetNames].filter(([key]) => key.startsWith(`${dataset.workspace_id}/`)).map(([key, id]) => [key.slice(dataset.workspace_id.length + 1), id]))
      const decision = decide("dataset", dataset.id, dataset.name, names, onConflict, report.conflicts)
      if (decision._tag === "skip") {
        report.skip("datasets", decision.reason)
        continue
      }
      if (decision.name !== dataset.name) report.notes.push(`datasets: '${dataset.name}' becomes '${decision.name}' (--on-conflict rename)`)
      datasetNames.set(`${dataset.workspace_id}/${decision.name}`, dataset.id)
      plannedDatasets.push({ row: { ...dataset, name: decision.name }, settings, existed: glossDatasetById.has(dataset.id) })
    }
    if (report.conflicts.length > 0) return yield* conflictError(report)

    yield* write(target.transaction(Effect.all([
      target.upsert("users", userRows),
      target.upsert("workspaces", workspaceRows),
      target.upsert("workspaces_users", membershipRows)
    ])))

    // ---- Each dataset: its row and settings, then its records page by page ---------------------------------
    // A dataset read whole (its first copy, or --full) is digested on the way, so the verification reads back only
    // Gloss's side of it (`npm run bench -- migrate`: the second read of the source was a third of a first run).
    const sourceDigests = new Map<string, RecordDigests>()
    const indexing: Array<{ readonly datasetId: string; readonly rebuild: boolean; readonly touched: Array<string>; readonly deleted: Array<string> }> = []
    for (const { existed, row: dataset, settings } of plannedDatasets) {
      const existing = glossDatasetById.get(dataset.id)
      const datasetChanged = existing === undefined || !same(fromSource.datasets(dataset), fromTarget.datasets(existing))
      report.add("datasets", existing === undefined ? "created" : datasetChanged ? "updated" : "unchanged")
      yield* write(target.upsert("datasets", [toGloss.datasets(dataset)]))
      const settingsChanged = yield* syncSettings(target, report, dataset.id, settings, write, saw)

      // A dataset that is new, or whose settings changed, gets its index rebuilt; otherwise only the records this run
      // wrote are re-indexed (so their ids are kept, and only then).
      // (A dataset published in Argilla since the last run has no index in Gloss yet.)
      const rebuild = !existed || settingsChanged || existing?.["status"] !== "ready"
      const total = yield* source.recordCount(dataset.id)
      const touched: Array<string> = []
      let done = 0
      yield* progress.records(dataset.name, 0, total)
      const readSince = existed ? since : undefined
      const digests = readSince === undefined ? newRecordDigests() : undefined
      if (digests !== undefined && !dryRun) sourceDigests.set(dataset.id, digests)
      yield* source.recordPages(dataset.id, { since: readSince, pageSize: options.pageSize }).pipe(
        Stream.runForEach((page) =>
          Effect.gen(function*() {
            page.records.forEach(saw)
            const responses = page.responses.filter((response) => keptUsers.has(response.user_id))
            if (digests !== undefined) digestPage(digests, { ...page, responses })
            report.skip("responses", "their user was skipped", page.responses.length - responses.length)
            const kinds = [
              ["records", page.records, toGloss.records],
              ["responses", responses, toGloss.responses],
              ["suggestions", page.suggestions, toGloss.suggestions],
              ["vectors", page.vectors, toGloss.vectors]
            ] as const
            // A dataset Gloss did not have before this run has nothing to look up or to delete.
            for (const [kind, rows] of kinds) {
              rows.forEach(saw)
              const known = existed ? (yield* target.existingIds(kind, rows.map((row) => row.id))).size : 0
              report.add(kind, "created", rows.length - known)
              report.add(kind, "updated", known)
            }
            const recordIds = page.records.map((record) => record.id)
            if (!rebuild) touched.push(...recordIds)
            if (!dryRun) {
              yield* target.transaction(Effect.gen(function*() {
                if (existed) {
                  for (const [kind, rows] of [["responses", responses], ["suggestions", page.suggestions], ["vectors", page.vectors]] as const) {
                    report.add(kind, "deleted", yield* target.deleteChildrenExcept(kind, recordIds, new Set(rows.map((row) => row.id))))
                  }
                }
                yield* target.upsert("records", page.records.map(toGloss.records))
                yield* target.upsert("responses", responses.map(toGloss.responses))
                yield* target.upsert("suggestions", page.suggestions.map(toGloss.suggestions))
                yield* target.upsert("vectors", page.vectors.map(toGloss.vectors))
              }))
            }
            done += page.records.length
            yield* progress.records(dataset.name, done, total)
          })
        )
      )

      // What Argilla deleted since the last run: records, and answers of records that did not change otherwise.
      const deleted: Array<string> = []
      if (existed) {
        for (const kind of ["records", "responses", "suggestions", "vectors"] as const) {
          const [have, want] = yield* Effect.all([target.idsOfDataset(dataset.id, kind), source.ids(dataset.id, kind)])
          const gone = [...have].filter((id) => !want.has(id))
          report.add(kind, "deleted", gone.length)
          if (kind === "records") deleted.push(...gone)
          yield* write(target.deleteIds(kind, gone))
        }
      }

      const datasetUsers = (yield* source.datasetUsers(dataset.id)).filter((row) => keptUsers.has(row.user_id))
      datasetUsers.forEach(saw)
      const glossDatasetUsers = new Map((yield* target.ofDataset("datasets_users", dataset.id)).map((row) => [`${String(row["dataset_id"])}:${String(row["user_id"])}`, row]))
      for (const row of datasetUsers) {
        const have = glossDatasetUsers.get(row.id)
        report.add("dataset users", have === undefined ? "created" : same(fromSource.datasetUsers(row), fromTarget.datasetUsers(have)) ? "unchanged" : "updated")
      }
      yield* write(target.upsert("datasets_users", datasetUsers.map(toGloss.datasetUsers), "dataset_id, user_id"))
      if (existed) {
        const removed = dryRun
          ? [...glossDatasetUsers.values()].filter((row) => !datasetUsers.some((u) => u.user_id === String(row["user_id"]))).length
          : yield* target.deleteDatasetUsers(dataset.id, new Set(datasetUsers.map((row) => row.user_id)))
        report.add("dataset users", "deleted", removed)
      }
      if (dataset.status === "ready") indexing.push({ datasetId: dataset.id, rebuild, touched, deleted })
    }

    // ---- Webhooks ----------------------------------------------------------------------------------------
    yield* progress.step("Webhooks")
    const webhooks = yield* source.webhooks
    webhooks.forEach(saw)
    const glossWebhookById = new Map((yield* target.all("webhooks")).map((row) => [idOf(row), row]))
    const webhookRows: Array<Record<string, unknown>> = []
    for (const webhook of webhooks) {
      const existing = glossWebhookById.get(webhook.id)
      if (existing !== undefined && same(fromSource.webhooks(webhook), fromTarget.webhooks(existing))) {
        report.add("webhooks", "unchanged")
        continue
      }
      report.add("webhooks", existing === undefined ? "created" : "updated")
      webhookRows.push(toGloss.webhooks(webhook))
    }
    yield* write(target.upsert("webhooks", webhookRows))

    // ---- What Argilla no longer has, of what an earlier run brought -----------------------------------------
    const gone = (previous: ReadonlyArray<string>, now: ReadonlyArray<{ readonly id: string }>) => {
      const present = new Set(now.map((row) => row.id))
      return previous.filter((id) => !present.has(id))
    }
    const goneDatasets = gone(state.datasets, plannedDatasets.map((d) => d.row)).filter((id) => glossDatasetById.has(id))
    for (const [kind, table, ids] of [
      ["webhooks", "webhooks", gone(state.webhooks, webhooks)],
      ["datasets", "datasets", goneDatasets],
      ["memberships", "workspaces_users", gone(state.memberships, keptMemberships)],
      ["workspaces", "workspaces", gone(state.workspaces, [...keptWorkspaces.values()])],
      ["users", "users", gone(state.users, [...keptUsers.values()])]
    ] as const) {
      const present = yield* target.existingIds(table, ids)
      report.add(kind, "deleted", present.size)
      yield* write(target.deleteIds(table, [...present]))
    }

    if (dryRun) return report

    // ---- The search index ----------------------------------------------------------------------------------
    yield* progress.step("Search index")
    for (const id of goneDatasets) yield* engine.deleteIndex(id as DatasetId)
    for (const { datasetId, deleted, rebuild, touched } of indexing) {
      if (rebuild) yield* index.reindex(datasetId as DatasetId)
      else {
        if (deleted.length > 0) yield* engine.deleteRecords(datasetId as DatasetId, deleted as Array<RecordId>)
        yield* index.records(datasetId as DatasetId, touched as Array<RecordId>)
      }
    }

    yield* target.saveState(options.sourceKey, watermark === 0 ? undefined : new Date(watermark), {
      users: [...keptUsers.keys()],
      workspaces: [...keptWorkspaces.keys()],
      memberships: keptMemberships.map((row) => row.id),
      datasets: plannedDatasets.map((d) => d.row.id),
      webhooks: webhooks.map((row) => row.id)
    } satisfies State, new Date())

    // ---- Verification: every kind digested on both sides ----------------------------------------------------
    yield* progress.step("Verifying")
    report.verified = yield* verify(source, target, {
      users: [...keptUsers.values()],
      workspaces: [...keptWorkspaces.values()],
      memberships: keptMemberships,
      datasets: plannedDatasets.map((d) => d.row),
      webhooks,
      pageSize: options.pageSize
    }, sourceDigests)
    return report
  })

const parseJson = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value)

/** `--on-conflict fail` met a conflict: nothing has been written yet (conflicts are decided before any write). */
const conflictError = (report: Report) =>
  new MigrationError({
    message: `${report.conflicts.length} conflict(s) with data already in Gloss, and nothing was written: ` +
      `${report.conflicts.join("; ")}. Choose what to do with --on-conflict skip or --on-conflict rename`
  })

/** Writes a dataset's fields, questions, metadata properties and vector settings; says whether any changed. */
const syncSettings = (
  target: Target,
  report: Report,
  datasetId: string,
  settings: M.DatasetSettings,
  write: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<void, E, R>,
  saw: (row: M.Stamped) => void
) =>
  Effect.gen(function*() {
    let changed = false
    const kinds = [
      ["fields", "fields", settings.fields, fromSource.fields, fromTarget.fields, toGloss.fields],
      ["questions", "questions", settings.questions, fromSource.questions, fromTarget.questions, toGloss.questions],
      ["metadata properties", "metadata_properties", settings.metadataProperties, fromSource.metadataProperties, fromTarget.metadataProperties, toGloss.metadataProperties],
      ["vector settings", "vectors_settings", settings.vectorSettings, fromSource.vectorSettings, fromTarget.vectorSettings, toGloss.vectorSettings]
    ] as const
    const writes: Array<Effect.Effect<void>> = []
    for (const [kind, table, rows, canonSource, canonTarget, toRow] of kinds) {
      const have = new Map((yield* target.ofDataset(table, datasetId)).map((row) => [idOf(row), row]))
      const changedRows: Array<Record<string, unknown>> = []
      for (const row of rows as ReadonlyArray<never>) {
        saw(row)
        const existing = have.get((row as M.Stamped).id)
        if (existing !== undefined && same((canonSource as (r: never) => Canonical)(row), canonTarget(existing))) {
          report.add(kind, "unchanged")
          continue
        }
        report.add(kind, existing === undefined ? "created" : "updated")
        changedRows.push((toRow as (r: never) => Record<string, unknown>)(row))
      }
      const present = new Set((rows as ReadonlyArray<M.Stamped>).map((row) => row.id))
      const gone = [...have.keys()].filter((id) => !present.has(id))
      report.add(kind, "deleted", gone.length)
      if (changedRows.length > 0 || gone.length > 0) changed = true
      writes.push(target.deleteIds(table, gone), target.upsert(table, changedRows))
    }
    yield* write(target.transaction(Effect.all(writes, { discard: true })))
    return changed
  })
