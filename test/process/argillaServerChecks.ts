/**
 * What the test support for `gloss migrate from-argilla` promises, checked on a real argilla-server 2.8.0
 * (test/support/argillaServer.ts) filled through the real Argilla SDK (test/support/argilla_fill.py), over Argilla's
 * own REST API: it answers what the filler says it made — users, workspaces, datasets with their settings, records,
 * responses in every status, suggestions, vectors, a webhook — lets an annotator sign in with their password and
 * their API key, and carries the filler's `change`.
 *
 * Called by migrate-from-argilla.test.ts on the SQLite server its migrations read, before they read it and after the
 * change, so the support is checked on the server the migration tests trust, without a start and fill of its own.
 */
import { expect } from "vitest"
import type { ArgillaChange, ArgillaFill, ArgillaServer } from "../support/argillaServer.js"

interface Reply {
  readonly status: number
  readonly body: any
}

const call = async (server: ArgillaServer, path: string, init: { method?: string; apiKey?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> => {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      ...(init.apiKey === undefined ? {} : { "X-Argilla-Api-Key": init.apiKey }),
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? null : JSON.parse(text) }
}

/** Every record of a dataset with its responses, suggestions and vectors (search pages of 1 000). */
const allRecords = async (server: ArgillaServer, datasetId: string) => {
  const records: Array<any> = []
  for (let offset = 0; ; offset += 1000) {
    const page = await call(server, `/api/v1/datasets/${datasetId}/records/search?include=responses&include=suggestions&include=vectors&limit=1000&offset=${offset}`, {
      method: "POST",
      apiKey: server.ownerApiKey,
      body: {}
    })
    expect(page.status).toBe(200)
    records.push(...page.body.items.map((item: { record: unknown }) => item.record))
    if (page.body.items.length < 1000) return records
  }
}

const tally = (records: ReadonlyArray<any>) => {
  const responses = { submitted: 0, draft: 0, discarded: 0 }
  for (const record of records) for (const response of record.responses ?? []) responses[response.status as keyof typeof responses] += 1
  return {
    records: records.length,
    responses,
    suggestions: records.reduce((n, record) => n + (record.suggestions ?? []).length, 0),
    vectors: records.reduce((n, record) => n + Object.keys(record.vectors ?? {}).length, 0),
    completed: records.filter((record) => record.status === "completed").length
  }
}

const user = (fill: ArgillaFill, username: string) => {
  const found = fill.users.find((candidate) => candidate.username === username)
  if (found === undefined) throw new Error(`the filler printed no user ${username}`)
  return found
}

/** The server answers what the filler printed (it was filled with `records` records and `webhookUrl`). */
export const checkFilled = async (server: ArgillaServer, fill: ArgillaFill, asked: { readonly records: number; readonly webhookUrl: string }) => {
  expect(server.databaseUrl).toMatch(server.database === "sqlite" ? /argilla\.db$/ : /^postgres:\/\/.+\/argilla_[0-9a-f]{12}$/)
  const owner = server.ownerApiKey

  // Users and workspaces.
  expect(fill.users.map((u) => [u.username, u.role])).toEqual([
    ["owner", "owner"], ["admin", "admin"], ["annotator1", "annotator"], ["annotator2", "annotator"], ["annotator3", "annotator"]
  ])
  const users = await call(server, "/api/v1/users", { apiKey: owner })
  expect(users.body.items.map((u: any) => ({ id: u.id, username: u.username, role: u.role, api_key: u.api_key })).sort((a: any, b: any) => a.username.localeCompare(b.username)))
    .toEqual(fill.users.map(({ id, username, role, api_key }) => ({ id, username, role, api_key })).sort((a, b) => a.username.localeCompare(b.username)))
  const workspaces = await call(server, "/api/v1/me/workspaces", { apiKey: owner })
  expect(workspaces.body.items.map((w: any) => ({ id: w.id, name: w.name }))).toEqual(expect.arrayContaining(fill.workspaces.map((w) => ({ ...w }))))
  expect(workspaces.body.items).toHaveLength(2)
  const onlyFirst = await call(server, "/api/v1/me/workspaces", { apiKey: user(fill, "annotator3").api_key })
  expect(onlyFirst.body.items.map((w: any) => w.name)).toEqual(["team-one"])

  // Datasets, their settings, and their content counted by the server.
  const datasets = await call(server, "/api/v1/me/datasets", { apiKey: owner })
  expect(datasets.body.items.map((d: any) => d.name).sort()).toEqual(["everything", "second"])
  expect(fill.datasets.map((d) => [d.name, d.workspace, d.records])).toEqual([["everything", "team-one", asked.records], ["second", "team-two", asked.records / 4]])
  const [everything] = fill.datasets
  if (everything === undefined) throw new Error("the filler printed no dataset")

  const settings = await call(server, `/api/v1/datasets/${everything.id}`, { apiKey: owner })
  expect(settings.body.distribution).toEqual({ strategy: "overlap", min_submitted: 2 })
  expect(settings.body.guidelines).toBeTruthy()
  const questions = await call(server, `/api/v1/datasets/${everything.id}/questions`, { apiKey: owner })
  expect(questions.body.items.map((q: any) => q.settings.type).sort()).toEqual(
    ["label_selection", "multi_label_selection", "ranking", "rating", "span", "text"]
  )
  const fields = await call(server, `/api/v1/datasets/${everything.id}/fields`, { apiKey: owner })
  expect(fields.body.items.map((f: any) => [f.name, f.settings.use_markdown])).toEqual([["text", false], ["context", true]])
  const metadata = await call(server, `/api/v1/me/datasets/${everything.id}/metadata-properties`, { apiKey: owner })
  expect(metadata.body.items.map((m: any) => [m.settings.type, m.visible_for_annotators]).sort()).toEqual(
    [["float", false], ["integer", true], ["terms", true]]
  )
  const vectors = await call(server, `/api/v1/datasets/${everything.id}/vectors-settings`, { apiKey: owner })
  expect(vectors.body.items.map((v: any) => v.dimensions)).toEqual([8])

  for (const dataset of fill.datasets) {
    const records = await allRecords(server, dataset.id)
    expect(tally(records), dataset.name).toEqual(dataset.counts)
    const progress = await call(server, `/api/v1/datasets/${dataset.id}/progress`, { apiKey: owner })
    expect(progress.body).toMatchObject({ total: dataset.records, completed: dataset.counts.completed })
    expect(new Set(records.map((record) => record.external_id)).size).toBe(dataset.records)
  }
  const all = fill.datasets.map((d) => d.counts)
  expect(fill.counts.records).toBe(all.reduce((n, c) => n + c.records, 0))
  // Every status is there, and some records have two submitted responses.
  expect(Math.min(...Object.values(fill.counts.responses))).toBeGreaterThan(0)
  expect(everything.counts.completed).toBeGreaterThan(0)
  expect(everything.counts.suggestions).toBeGreaterThan(0)
  expect(everything.counts.vectors).toBeGreaterThan(0)

  // The webhook.
  const webhooks = await call(server, "/api/v1/webhooks", { apiKey: owner })
  expect(webhooks.body.items.map((w: any) => ({ id: w.id, url: w.url, secret: w.secret, enabled: w.enabled, events: [...w.events].sort() })))
    .toEqual([{ ...fill.webhook, events: [...fill.webhook.events].sort() }])
  expect(fill.webhook).toMatchObject({ url: asked.webhookUrl, enabled: true })

  // An annotator signs in with the password the filler printed, and their API key works.
  const annotator = user(fill, "annotator1")
  const signIn = async (password: string) =>
    fetch(`${server.url}/api/v1/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: annotator.username, password }).toString()
    })
  const token = await signIn(annotator.password)
  expect(token.status).toBe(201)
  const { access_token } = (await token.json()) as { access_token: string }
  const meByToken = await call(server, "/api/v1/me", { headers: { authorization: `Bearer ${access_token}` } })
  expect(meByToken.body).toMatchObject({ id: annotator.id, username: "annotator1", role: "annotator" })
  expect((await signIn("not-the-password")).status).toBe(401)
  const meByKey = await call(server, "/api/v1/me", { apiKey: annotator.api_key })
  expect(meByKey.body).toMatchObject({ id: annotator.id, username: "annotator1", role: "annotator" })
}

/** The filler's `change` shows in Argilla, in the dataset "everything". */
export const checkChange = async (server: ArgillaServer, fill: ArgillaFill, change: ArgillaChange) => {
  const everything = fill.datasets.find((d) => d.name === "everything")
  if (everything === undefined) throw new Error("the filler printed no dataset \"everything\"")
  expect(change.added_records).toHaveLength(5)
  const after = await allRecords(server, everything.id)
  expect(after).toHaveLength(everything.records + 5 - 1)
  const externalIds = new Set(after.map((record) => record.external_id))
  for (const added of change.added_records) expect(externalIds).toContain(added)
  expect(externalIds).not.toContain(change.deleted_record.external_id)
  const changed = after.find((record) => record.id === change.changed_response.record_id)
  const response = changed?.responses.find((r: any) => r.id === change.changed_response.id)
  expect(response).toMatchObject({ status: "draft", user_id: change.changed_response.user_id, values: { label: { value: change.changed_response.label.to } } })
  expect(change.changed_response.label.to).not.toBe(change.changed_response.label.from)
  const usersAfter = await call(server, "/api/v1/users", { apiKey: server.ownerApiKey })
  expect(usersAfter.body.items.map((u: any) => u.username)).toContain(change.added_user.username)
  expect(usersAfter.body.items).toHaveLength(fill.users.length + 1)
}
