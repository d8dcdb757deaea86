/**
 * The verification at the end of a run: every kind digested on both sides (see canonical.ts) and compared by count
 * and digest. Records digested while they were copied (a dataset read whole) are not read from the source again.
 */
import { Effect, Stream } from "effect"
import { Digest, fromSource, fromTarget } from "./canonical.js"
import type * as M from "./model.js"
import type { ArgillaSource } from "./source.js"
import type { Target } from "./target.js"

const idOf = (row: Readonly<Record<string, unknown>>) => String(row["id"])

export interface Scope {
  readonly users: ReadonlyArray<M.UserRow>
  readonly workspaces: ReadonlyArray<M.WorkspaceRow>
  readonly memberships: ReadonlyArray<M.MembershipRow>
  readonly datasets: ReadonlyArray<M.DatasetRow>
  readonly webhooks: ReadonlyArray<M.WebhookRow>
  readonly pageSize: number
}

/**
 * Digests every kind on both sides: what was migrated as read from Argilla (renames applied) against the rows of the
 * same ids in Gloss. Records are read again from the source in full, not only the changed ones: the verification
 * holds for the whole copy, whatever the earlier runs did.
 */
/** The digests of a dataset's records and what hangs off them, on one side. */
export type RecordDigests = Record<"records" | M.RecordChild, Digest>
export const newRecordDigests = (): RecordDigests => ({ records: new Digest(), responses: new Digest(), suggestions: new Digest(), vectors: new Digest() })
export const digestPage = (digests: RecordDigests, page: M.RecordPage) => {
  for (const row of page.records) digests.records.add(fromSource.records(row))
  for (const row of page.responses) digests.responses.add(fromSource.responses(row))
  for (const row of page.suggestions) digests.suggestions.add(fromSource.suggestions(row))
  for (const row of page.vectors) digests.vectors.add(fromSource.vectors(row))
}

export const verify = (source: ArgillaSource, target: Target, scope: Scope, digestedWhileCopying: ReadonlyMap<string, RecordDigests>) =>
  Effect.gen(function*() {
    const digests = new Map<M.Kind, { source: Digest; target: Digest }>()
    const pair = (kind: M.Kind) => {
      let entry = digests.get(kind)
      if (entry === undefined) digests.set(kind, entry = { source: new Digest(), target: new Digest() })
      return entry
    }
    const withPassword = source.readsPasswords
    const small = [
      ["users", "users", scope.users.map((row) => fromSource.users(row, withPassword)), (row: Readonly<Record<string, unknown>>) => fromTarget.users(row, withPassword)],
      ["workspaces", "workspaces", scope.workspaces.map(fromSource.workspaces), fromTarget.workspaces],
      ["memberships", "workspaces_users", scope.memberships.map(fromSource.memberships), fromTarget.memberships],
      ["datasets", "datasets", scope.datasets.map(fromSource.datasets), fromTarget.datasets],
      ["webhooks", "webhooks", scope.webhooks.map(fromSource.webhooks), fromTarget.webhooks]
    ] as const
    for (const [kind, table, rows, canon] of small) {
      const ids = new Set(rows.map((row) => String(row["id"])))
      const digest = pair(kind)
      rows.forEach((row) => digest.source.add(row))
      for (const row of yield* target.all(table)) if (ids.has(idOf(row))) digest.target.add(canon(row))
    }
    const keptUsers = new Set(scope.users.map((user) => user.id))
    for (const dataset of scope.datasets) {
      const settings = yield* source.settings(dataset.id)
      const settingKinds = [
        ["fields", "fields", settings.fields.map(fromSource.fields), fromTarget.fields],
        ["questions", "questions", settings.questions.map(fromSource.questions), fromTarget.questions],
        ["metadata properties", "metadata_properties", settings.metadataProperties.map(fromSource.metadataProperties), fromTarget.metadataProperties],
        ["vector settings", "vectors_settings", settings.vectorSettings.map(fromSource.vectorSettings), fromTarget.vectorSettings],
        ["dataset users", "datasets_users", (yield* source.datasetUsers(dataset.id)).filter((row) => keptUsers.has(row.user_id)).map(fromSource.datasetUsers), fromTarget.datasetUsers]
      ] as const
      for (const [kind, table, rows, canon] of settingKinds) {
        const digest = pair(kind)
        rows.forEach((row) => digest.source.add(row))
        for (const row of yield* target.ofDataset(table, dataset.id)) digest.target.add(canon(row))
      }
      let digests = digestedWhileCopying.get(dataset.id)
      if (digests === undefined) {
        const read = newRecordDigests()
        yield* source.recordPages(dataset.id, { since: undefined, pageSize: scope.pageSize }).pipe(
          Stream.runForEach((page) =>
            Effect.sync(() => digestPage(read, { ...page, responses: page.responses.filter((row) => keptUsers.has(row.user_id)) }))
          )
        )
        digests = read
      }
      for (const kind of ["records", "responses", "suggestions", "vectors"] as const) pair(kind).source.merge(digests[kind])
      for (let after: number | undefined, more = true; more;) {
        const page = yield* target.recordPage(dataset.id, after, scope.pageSize)
        page.records.forEach((row) => pair("records").target.add(fromTarget.records(row)))
        page.responses.forEach((row) => pair("responses").target.add(fromTarget.responses(row)))
        page.suggestions.forEach((row) => pair("suggestions").target.add(fromTarget.suggestions(row)))
        page.vectors.forEach((row) => pair("vectors").target.add(fromTarget.vectors(row)))
        after = page.last
        more = page.records.length === scope.pageSize
      }
    }
    return [...digests].map(([kind, { source: s, target: t }]) => ({
      kind,
      source: s.count,
      target: t.count,
      sourceDigest: s.hex,
      targetDigest: t.hex,
      equal: s.equals(t)
    }))
  })

