/**
 * `gloss migrate from-argilla --argilla-api-url`: a real Argilla 2.8.0 (test/support/argillaServer.ts) on SQLite,
 * filled through its SDK, read over its REST API (src/migrate/fromApi.ts) and, for comparison, from its database
 * (fromDatabase.ts): both must give the same rows, but for what the API does not carry (password hashes) or does not
 * keep as rows (the ids and times of memberships, vectors and dataset users, compared by their other columns). Then
 * the command itself copies the server into a fresh Gloss and verifies the copy.
 *
 * Registered by migrate-from-argilla.test.ts, on the SQLite server its migrations read (these tests only read it).
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { Cause, Chunk, Effect, Exit, Option, Stream } from "effect"
import { expect, it } from "vitest"
import type { MigrationError } from "../../src/migrate/errors.js"
import { fromApi } from "../../src/migrate/fromApi.js"
import { fromDatabase } from "../../src/migrate/fromDatabase.js"
import type * as M from "../../src/migrate/model.js"
import type { ArgillaSource } from "../../src/migrate/source.js"
import type { ArgillaFill, ArgillaServer } from "../support/argillaServer.js"
import { buildCli, ROOT } from "../support/glossBundle.js"

interface Everything {
  readonly users: ReadonlyArray<M.UserRow>
  readonly workspaces: ReadonlyArray<M.WorkspaceRow>
  readonly memberships: ReadonlyArray<M.MembershipRow>
  readonly datasets: ReadonlyArray<M.DatasetRow>
  readonly webhooks: ReadonlyArray<M.WebhookRow>
  readonly perDataset: ReadonlyArray<{
    readonly id: string
    readonly settings: M.DatasetSettings
    readonly datasetUsers: ReadonlyArray<M.DatasetUserRow>
    readonly count: number
    readonly pages: ReadonlyArray<M.RecordPage>
    readonly ids: Readonly<Record<"records" | M.RecordChild, ReadonlySet<string>>>
  }>
}

/** Everything a source gives, read the way the migration reads it. */
const readAll = (source: ArgillaSource, pageSize: number) =>
  Effect.gen(function*() {
    const datasets = yield* source.datasets
    const perDataset = []
    for (const dataset of datasets) {
      const pages = Chunk.toReadonlyArray(yield* Stream.runCollect(source.recordPages(dataset.id, { since: undefined, pageSize })))
      perDataset.push({
        id: dataset.id,
        settings: yield* source.settings(dataset.id),
        datasetUsers: yield* source.datasetUsers(dataset.id),
        count: yield* source.recordCount(dataset.id),
        pages,
        ids: {
          records: yield* source.ids(dataset.id, "records"),
          responses: yield* source.ids(dataset.id, "responses"),
          suggestions: yield* source.ids(dataset.id, "suggestions"),
          vectors: yield* source.ids(dataset.id, "vectors")
        }
      })
    }
    return {
      users: yield* source.users,
      workspaces: yield* source.workspaces,
      memberships: yield* source.memberships,
      datasets,
      webhooks: yield* source.webhooks,
      perDataset
    } satisfies Everything
  })

const read = (open: Effect.Effect<ArgillaSource, MigrationError>, pageSize: number) =>
  Effect.runPromise(Effect.acquireUseRelease(open, (source) => readAll(source, pageSize), (source) => source.close))

/** The error a source fails to open with, as its message. */
const openError = async (open: Effect.Effect<ArgillaSource, MigrationError>) => {
  const exit = await Effect.runPromiseExit(open)
  if (Exit.isSuccess(exit)) throw new Error("the source opened")
  const failure = Cause.failureOption(exit.cause)
  if (Option.isNone(failure)) throw new Error(`not a MigrationError: ${Cause.pretty(exit.cause)}`)
  return failure.value.message
}

const byId = <A extends { readonly id: string }>(rows: ReadonlyArray<A>) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
const pairs = <A>(rows: ReadonlyArray<A>, key: (row: A) => string) => rows.map(key).sort()
const all = <K extends keyof M.RecordPage>(pages: ReadonlyArray<M.RecordPage>, kind: K): Array<M.RecordPage[K][number]> =>
  pages.flatMap((page): ReadonlyArray<M.RecordPage[K][number]> => page[kind])

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

const runCli = (cli: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...env } })
    let out = ""
    let err = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
    child.on("close", (code) => resolve({ code, out, err }))
  })

/** The tests, in the calling suite, on the server and fill `filled` gives once the suite's hooks have run. */
export const fromApiTests = (filled: () => { readonly server: ArgillaServer; readonly fill: ArgillaFill }) => {
  it("gives the rows the database gives, but password hashes and the ids and times the API does not keep", async () => {
    const { server, fill } = filled()
    // A page size that does not divide the records, so pages end mid-way and the last is short.
    const api = await read(fromApi(server.url, server.ownerApiKey), 37)
    const db = await read(fromDatabase(server.sqlitePath ?? ""), 1000)

    expect(api.users.length).toBe(fill.users.length)
    expect(byId(api.users)).toEqual(byId(db.users.map((user) => ({ ...user, password_hash: null }))))
    expect(byId(api.workspaces)).toEqual(byId(db.workspaces))
    expect(byId(api.datasets)).toEqual(byId(db.datasets))
    expect(byId(api.webhooks)).toEqual(byId(db.webhooks))
    expect(api.webhooks.map((webhook) => webhook.secret)).toEqual([fill.webhook.secret])

    // Memberships: the same pairs; ids of their own (one per pair, the same on every read), times the later of the
    // user's and the workspace's creation.
    const member = (row: M.MembershipRow) => `${row.workspace_id}:${row.user_id}`
    expect(pairs(api.memberships, member)).toEqual(pairs(db.memberships, member))
    expect(new Set(api.memberships.map((row) => row.id)).size).toBe(api.memberships.length)
    const again = await Effect.runPromise(Effect.flatMap(fromApi(server.url, server.ownerApiKey), (source) => source.memberships))
    expect(byId(again)).toEqual(byId(api.memberships))
    const created = new Map([...api.users, ...api.workspaces].map((row) => [row.id, row.inserted_at.getTime()]))
    for (const row of api.memberships) {
      expect(row.inserted_at.getTime()).toBe(Math.max(created.get(row.user_id) ?? NaN, created.get(row.workspace_id) ?? NaN))
    }

    expect(api.perDataset.map((d) => d.id).sort()).toEqual(db.perDataset.map((d) => d.id).sort())
    for (const fromDb of db.perDataset) {
      const fromWeb = api.perDataset.find((d) => d.id === fromDb.id)!
      const expected = fill.datasets.find((d) => d.id === fromDb.id)!
      expect(byId(fromWeb.settings.fields)).toEqual(byId(fromDb.settings.fields))
      expect(byId(fromWeb.settings.questions)).toEqual(byId(fromDb.settings.questions))
      expect(byId(fromWeb.settings.metadataProperties)).toEqual(byId(fromDb.settings.metadataProperties))
      expect(byId(fromWeb.settings.vectorSettings)).toEqual(byId(fromDb.settings.vectorSettings))

      expect(fromWeb.count).toBe(expected.records)
      expect(fromDb.count).toBe(expected.records)
      const records = all(fromWeb.pages, "records")
      expect(records.length).toBe(expected.records)
      expect(fromWeb.pages.every((page) => page.records.length <= 37)).toBe(true)
      // In Argilla's order (insertion), each once.
      expect(new Set(records.map((r) => r.id)).size).toBe(records.length)
      expect(records.map((r) => r.inserted_at.getTime())).toEqual(records.map((r) => r.inserted_at.getTime()).sort((a, b) => a - b))
      expect(byId(records)).toEqual(byId(all(fromDb.pages, "records")))
      expect(byId(all(fromWeb.pages, "responses"))).toEqual(byId(all(fromDb.pages, "responses")))
      expect(byId(all(fromWeb.pages, "suggestions"))).toEqual(byId(all(fromDb.pages, "suggestions")))
      const responses = expected.counts.responses
      expect(all(fromWeb.pages, "responses").length).toBe(responses.submitted + responses.draft + responses.discarded)
      expect(all(fromWeb.pages, "suggestions").length).toBe(expected.counts.suggestions)

      // Vectors: by record, settings and value; their ids and times are the reader's.
      const vector = (row: M.VectorRow) => `${row.record_id}:${row.vector_settings_id}:${JSON.stringify(row.value)}`
      const webVectors = all(fromWeb.pages, "vectors")
      expect(pairs(webVectors, vector)).toEqual(pairs(all(fromDb.pages, "vectors"), vector))
      expect(webVectors.length).toBe(expected.counts.vectors)
      const recordById = new Map(records.map((r) => [r.id, r]))
      for (const row of webVectors) expect(row.updated_at).toEqual(recordById.get(row.record_id)?.updated_at)

      for (const kind of ["records", "responses", "suggestions"] as const) expect([...fromWeb.ids[kind]].sort()).toEqual([...fromDb.ids[kind]].sort())
      expect([...fromWeb.ids.vectors].sort()).toEqual(webVectors.map((row) => row.id).sort())
      expect(fromWeb.ids.vectors.size).toBe(fromDb.ids.vectors.size)

      // Dataset users: the same users; times of each one's first response.
      const datasetUser = (row: M.DatasetUserRow) => `${row.dataset_id}:${row.user_id}`
      expect(fromWeb.datasetUsers.length).toBeGreaterThan(0)
      expect(pairs(fromWeb.datasetUsers, datasetUser)).toEqual(pairs(fromDb.datasetUsers, datasetUser))
      const webResponses = all(fromWeb.pages, "responses")
      for (const row of fromWeb.datasetUsers) {
        const first = Math.min(...webResponses.filter((r) => r.user_id === row.user_id).map((r) => r.inserted_at.getTime()))
        expect(row.inserted_at.getTime()).toBe(first)
      }
    }

    // Another page size (several requests of Argilla's 1 000 at most make one page) reads the same records.
    const big = await Effect.runPromise(Effect.flatMap(fromApi(server.url, server.ownerApiKey), (source) =>
      Stream.runCollect(source.recordPages(fill.datasets[0]!.id, { since: undefined, pageSize: 5000 }))))
    expect(Chunk.size(big)).toBe(1)
    expect(byId(Chunk.toReadonlyArray(big).flatMap((page) => page.records))).toEqual(
      byId(api.perDataset.find((d) => d.id === fill.datasets[0]!.id)!.pages.flatMap((page) => page.records))
    )
  }, 300_000)

  it("says in one sentence why it cannot read: a wrong key, a key that is not an owner's, no server, not Argilla", async () => {
    const { server, fill } = filled()
    expect(await openError(fromApi(server.url, "not-a-key"))).toMatch(/^Argilla at http:\/\/127\.0\.0\.1:\d+ refused the API key \(401\): give an owner's API key/)

    const annotator = fill.users.find((user) => user.role === "annotator")!
    expect(await openError(fromApi(server.url, annotator.api_key))).toBe(
      `The API key is ${annotator.username}'s, an annotator of Argilla at ${server.url}: reading a whole deployment takes an owner's API key`
    )
    const admin = fill.users.find((user) => user.role === "admin")!
    expect(await openError(fromApi(`${server.url}/api/v1/`, admin.api_key))).toContain(`The API key is ${admin.username}'s, an admin of`)

    // A port nothing listens on (one just freed): refused at once, retried, then said.
    const closed = await freePort()
    expect(await openError(fromApi(`http://127.0.0.1:${closed}`, server.ownerApiKey))).toMatch(
      new RegExp(`^Argilla cannot be reached at http://127\\.0\\.0\\.1:${closed}: .*ECONNREFUSED.*\\(tried 5 times\\)$`)
    )

    expect(await openError(fromApi("ftp://example.org", server.ownerApiKey))).toMatch(/is not an http\(s\) URL/)

    // A web server that is not Argilla.
    const other = http.createServer((_, response) => response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not here</h1>"))
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve))
    const address = other.address()
    const otherUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
    try {
      expect(await openError(fromApi(otherUrl, server.ownerApiKey))).toBe(
        `${otherUrl} does not answer like an Argilla 2.x server (GET /api/v1/version gave status 404): give the address Argilla's web app is served at`
      )
    } finally {
      await new Promise((resolve) => other.close(resolve))
    }
  }, 120_000)

  it("retries a 5xx and goes on", async () => {
    const { server, fill } = filled()
    // A proxy in front of Argilla that fails each path's first request with a 503.
    const seen = new Set<string>()
    const proxy = http.createServer((request, response) => {
      const key = request.url ?? ""
      if (!seen.has(key)) {
        seen.add(key)
        response.writeHead(503).end("busy")
        return
      }
      fetch(`${server.url}${key}`, { headers: { "X-Argilla-Api-Key": String(request.headers["x-argilla-api-key"] ?? "") } })
        .then(async (answer) => response.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text()))
        .catch(() => response.writeHead(502).end())
    })
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
    const address = proxy.address()
    const proxyUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
    try {
      const users = await Effect.runPromise(Effect.flatMap(fromApi(proxyUrl, server.ownerApiKey), (source) => source.users))
      expect(users.map((user) => user.username).sort()).toEqual(fill.users.map((user) => user.username).sort())
      expect(seen.size).toBeGreaterThanOrEqual(3)
    } finally {
      await new Promise((resolve) => proxy.close(resolve))
    }
  }, 120_000)

  it("gloss migrate from-argilla --argilla-api-url copies the server into a fresh Gloss and verifies it", async () => {
    const { server, fill } = filled()
    const cli = await buildCli("fast")
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-from-api-"))
    const passwords = path.join(home, "passwords.txt")
    try {
      const run = await runCli(
        cli,
        ["migrate", "from-argilla", "--argilla-api-url", server.url, "--argilla-api-key", server.ownerApiKey, "--passwords-file", passwords],
        { GLOSS_HOME_PATH: home, HOME: home }
      )
      const said = `exit ${run.code}\n--- stdout:\n${run.out}\n--- stderr:\n${run.err.slice(-4000)}`
      expect(run.code, said).toBe(0)
      expect(run.out, said).toContain(`Reading Argilla's REST API (${server.url}, Argilla 2.8.0)`)
      expect(run.out, said).toContain("Argilla and Gloss hold the same data.")
      const lines = fs.readFileSync(passwords, "utf8").trim().split("\n")
      expect(lines.map((line) => line.split("\t")[0]).sort()).toEqual(fill.users.map((user) => user.username).sort())
      expect(lines.every((line) => /^\S+\t\S{12,}$/.test(line))).toBe(true)
      expect(fs.statSync(passwords).mode & 0o777).toBe(0o600)

      // A second run finds everything in place (its own ids for memberships, vectors and dataset users included).
      const rerun = await runCli(
        cli,
        ["migrate", "from-argilla", "--argilla-api-url", server.url, "--argilla-api-key", server.ownerApiKey, "--passwords-file", passwords],
        { GLOSS_HOME_PATH: home, HOME: home }
      )
      const saidAgain = `exit ${rerun.code}\n--- stdout:\n${rerun.out}\n--- stderr:\n${rerun.err.slice(-4000)}`
      expect(rerun.code, saidAgain).toBe(0)
      expect(rerun.out, saidAgain).toContain("Argilla and Gloss hold the same data.")
      expect(rerun.out, saidAgain).not.toMatch(/one-time password/)
    } finally {
      fs.rmSync(home, { recursive: true, force: true })
    }
  }, 600_000)
}
