/**
 * `gloss migrate from-argilla` against the real thing: an argilla-server 2.8.0 (test/support/argillaServer.ts) filled
 * through the real Argilla SDK, copied into Gloss from its database, on SQLite (Argilla's and Gloss's) and on
 * PostgreSQL (both), then checked from outside: every user signs in with the same password and API key, an
 * annotator sees exactly their own responses with their statuses, the SDK reads every dataset from Gloss, a
 * similarity search finds the same neighbours as Argilla, a webhook delivery verifies with the old secret; and on
 * SQLite, a run killed half way and started again, and a re-sync after changes made in Argilla.
 */
import * as http from "node:http"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { spawnSync } from "node:child_process"
import { Effect, Exit, Scope } from "effect"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type ArgillaFill,
  argillaServerProblem,
  type ArgillaServer,
  changeArgilla,
  fillArgilla,
  startArgillaServer
} from "../support/argillaServer.js"
import { freshDatabase } from "../support/databases.js"
import { exited, listening, ROOT, spawnGloss, stop, waitFor, type GlossProcess } from "../support/processes.js"

const problem = argillaServerProblem()
if (problem !== undefined) {
  if (process.env["CI"] === "true") throw new Error(`the migration tests need argilla-server: ${problem}`)
  console.warn(`skipping the migration tests: ${problem}`)
}

const RECORDS = 300
const PYTHON = path.join(ROOT, ".venv", "bin", "python")

/** Runs `gloss migrate from-argilla …` to the end; its exit code and output. */
const migrateCli = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const proc = spawnGloss(["migrate", "from-argilla", ...args], env)
  const code = await exited(proc.child)
  return { code, output: proc.output() }
}

const json = async (response: Response) => {
  const text = await response.text()
  if (!response.ok) throw new Error(`${response.status} ${response.url}: ${text}`)
  return JSON.parse(text)
}
const get = (base: string, route: string, apiKey: string) => fetch(`${base}${route}`, { headers: { "X-Argilla-Api-Key": apiKey } }).then(json)
const post = (base: string, route: string, apiKey: string, body: unknown) =>
  fetch(`${base}${route}`, {
    method: "POST",
    headers: { "X-Argilla-Api-Key": apiKey, "content-type": "application/json" },
    body: JSON.stringify(body)
  }).then(json)

/** A user's responses as they see them through the API: record id → [response id, status, values]. */
const ownResponses = async (base: string, apiKey: string, datasetId: string) => {
  const seen = new Map<string, unknown>()
  for (let offset = 0; ; offset += 500) {
    const page = await post(base, `/api/v1/me/datasets/${datasetId}/records/search?include=responses&offset=${offset}&limit=500`, apiKey, {})
    for (const { record } of page.items) {
      seen.set(record.id, (record.responses ?? []).map((r: { id: string; status: string; values: unknown; user_id: string }) => [r.id, r.user_id, r.status, r.values]))
    }
    if (page.items.length < 500) return seen
  }
}

const neighbours = async (base: string, apiKey: string, datasetId: string, recordId: string) => {
  const page = await post(base, `/api/v1/me/datasets/${datasetId}/records/search?limit=10`, apiKey, {
    query: { vector: { name: "embedding", record_id: recordId } }
  })
  return page.items.map((item: { record: { id: string } }) => item.record.id) as Array<string>
}

describe.skipIf(problem !== undefined).each([
  { argilla: "sqlite", gloss: "sqlite" },
  { argilla: "postgresql", gloss: "postgres" }
] as const)("from Argilla on $argilla into Gloss on $gloss", ({ argilla: argillaDb, gloss: glossDb }) => {
  const scope = Effect.runSync(Scope.make())
  let argilla: ArgillaServer
  let filled: ArgillaFill
  let env: Record<string, string>
  let server: GlossProcess | undefined
  let base: string
  const deliveries: Array<{ headers: http.IncomingHttpHeaders; body: string }> = []
  const receiver = http.createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => (body += chunk.toString()))
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body })
      res.writeHead(200).end()
    })
  })

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
    argilla = await startArgillaServer({ database: argillaDb })
    filled = await fillArgilla(argilla, { records: RECORDS, webhookUrl: hook })
    const database = await Effect.runPromise(Scope.extend(freshDatabase(glossDb), scope))
    env = { ...database.env, GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1" }
  }, 600_000)

  afterAll(async () => {
    if (server !== undefined) await stop(server)
    await argilla?.stop()
    receiver.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }, 120_000)

  it("copies everything and verifies it", async () => {
    const dry = await migrateCli(["--argilla-database-url", argilla.databaseUrl, "--dry-run"], env)
    expect(dry.code, dry.output).toBe(0)
    expect(dry.output).toMatch(new RegExp(`records +would be created ${filled.counts.records},`))
    expect(dry.output).not.toContain("Verification")

    const run = await migrateCli(["--argilla-database-url", argilla.databaseUrl], env)
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain("Argilla and Gloss hold the same data.")
    const responses = Object.values(filled.counts.responses).reduce((a, b) => a + b, 0)
    expect(run.output).toMatch(new RegExp(`records +created ${filled.counts.records},`))
    expect(run.output).toMatch(new RegExp(`responses +created ${responses},`))
    expect(run.output).toMatch(new RegExp(`users +created ${filled.users.length},`))
    expect(run.output).toMatch(/webhooks +created 1,/)
  }, 300_000)

  it("lets every user sign in with the same password and the same API key", async () => {
    server = spawnGloss(["server"], { ...env, GLOSS_PORT: "0" })
    base = await listening(server)
    for (const user of filled.users) {
      const token = await fetch(`${base}/api/v1/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: user.username, password: user.password })
      })
      expect(token.status, user.username).toBe(201)
      const me = await get(base, "/api/v1/me", user.api_key)
      expect([me.id, me.username, me.role]).toEqual([user.id, user.username, user.role])
    }
  }, 120_000)

  it("shows an annotator exactly their own responses with their statuses, as Argilla does", async () => {
    const annotator = filled.users.find((user) => user.username === "annotator1")!
    for (const dataset of filled.datasets) {
      const [inArgilla, inGloss] = await Promise.all([
        ownResponses(argilla.url, annotator.api_key, dataset.id),
        ownResponses(base, annotator.api_key, dataset.id)
      ])
      expect(inGloss.size).toBe(dataset.records)
      expect(Object.fromEntries(inGloss)).toEqual(Object.fromEntries(inArgilla))
      for (const list of inGloss.values()) for (const [, userId] of list as Array<[string, string]>) expect(userId).toBe(annotator.id)
    }
  }, 120_000)

  it("finds the same neighbours in a similarity search", async () => {
    const owner = filled.users.find((user) => user.role === "owner")!
    const dataset = filled.datasets.find((d) => d.name === "everything")!
    const page = await post(base, `/api/v1/me/datasets/${dataset.id}/records/search?include=vectors&limit=50`, owner.api_key, {})
    const withVector = page.items.map((item: { record: { id: string; vectors?: Record<string, unknown> } }) => item.record)
      .filter((record: { vectors?: Record<string, unknown> }) => record.vectors?.["embedding"] !== undefined)
      .slice(0, 3)
    expect(withVector.length).toBeGreaterThan(0)
    for (const record of withVector) {
      const [fromArgilla, fromGloss] = await Promise.all([
        neighbours(argilla.url, owner.api_key, dataset.id, record.id),
        neighbours(base, owner.api_key, dataset.id, record.id)
      ])
      expect(fromGloss.length).toBe(fromArgilla.length)
      // Argilla's index is approximate (HNSW); at this size it finds the exact neighbours, as Gloss does.
      expect(new Set(fromGloss)).toEqual(new Set(fromArgilla))
    }
  }, 120_000)

  it("serves every migrated dataset to the Argilla SDK", () => {
    const owner = filled.users.find((user) => user.role === "owner")!
    const script = `
import json, sys, argilla as rg
client = rg.Argilla(api_url=sys.argv[1], api_key=sys.argv[2])
out = {}
for ds in client.datasets:
    records = list(ds.records(with_responses=True, with_suggestions=True, with_vectors=True))
    out[ds.name] = {
        "records": len(records),
        "responses": sum(len(r.responses) for r in records),
        "suggestions": sum(len(r.suggestions) for r in records),
        "vectors": sum(len(r.vectors) for r in records),
    }
print(json.dumps(out))
`
    const run = spawnSync(PYTHON, ["-c", script, base, owner.api_key], { encoding: "utf8", timeout: 120_000 })
    expect(run.status, run.stderr).toBe(0)
    const read = JSON.parse(run.stdout.trim().split("\n").at(-1)!)
    for (const dataset of filled.datasets) {
      expect(read[dataset.name].records).toBe(dataset.records)
      expect(read[dataset.name].suggestions).toBe(dataset.counts.suggestions)
      expect(read[dataset.name].vectors).toBe(dataset.counts.vectors)
      expect(read[dataset.name].responses).toBe(Object.values(dataset.counts.responses).reduce((a, b) => a + b, 0))
    }
  }, 180_000)

  it("delivers webhooks signed with Argilla's secret", async () => {
    const owner = filled.users.find((user) => user.role === "owner")!
    const dataset = filled.datasets.find((d) => d.name === "second")!
    const before = deliveries.length
    await post(base, `/api/v1/datasets/${dataset.id}/records/bulk`, owner.api_key, {
      items: [{ external_id: "made-in-gloss", fields: { text: "a record written after the move" } }]
    })
    const until = Date.now() + 60_000
    while (!deliveries.slice(before).some((d) => d.body.includes("made-in-gloss")) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const delivery = deliveries.slice(before).find((d) => d.body.includes("made-in-gloss"))
    expect(delivery, "no delivery of the new record arrived").toBeDefined()
    const verified = new Webhook(filled.webhook.secret).verify(delivery!.body, delivery!.headers as Record<string, string>)
    expect(verified).toMatchObject({ type: "record.created" })
  }, 120_000)

  it.runIf(argillaDb === "sqlite")("finishes a run killed half way when started again", async () => {
    // A copy into another Gloss database, killed after its first pages of records.
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-migrate-kill-"))
    const killEnv = { GLOSS_HOME_PATH: home }
    const proc = spawnGloss(["migrate", "from-argilla", "--argilla-database-url", argilla.databaseUrl, "--batch-size", "10"], killEnv)
    await waitFor(proc, /everything: [1-9]\d*\/\d+ records/, 120_000)
    await stop(proc, "SIGKILL")
    const again = await migrateCli(["--argilla-database-url", argilla.databaseUrl], killEnv)
    expect(again.code, again.output).toBe(0)
    expect(again.output).toContain("Argilla and Gloss hold the same data.")
    expect(again.output).toMatch(new RegExp(`records +created \\d+, updated [1-9]\\d*,`))
    fs.rmSync(home, { recursive: true, force: true })
  }, 300_000)

  it.runIf(argillaDb === "sqlite")("re-syncs what changed in Argilla since the last run", async () => {
    const dataset = filled.datasets.find((d) => d.name === "everything")!
    const changed = await changeArgilla(argilla, dataset.id)
    const run = await migrateCli(["--argilla-database-url", argilla.databaseUrl], env)
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain("Argilla and Gloss hold the same data.")
    expect(run.output).toMatch(/records +created 5,/)
    expect(run.output).toMatch(/records .*deleted 1$/m)
    expect(run.output).toMatch(/users +created 1,/)
    const owner = filled.users.find((user) => user.role === "owner")!
    const gone = await fetch(`${base}/api/v1/records/${changed.deleted_record.id}`, { headers: { "X-Argilla-Api-Key": owner.api_key } })
    expect(gone.status).toBe(404)
    const record = await get(base, `/api/v1/records/${changed.changed_response.record_id}?include=responses`, owner.api_key)
    const response = record.responses.find((r: { id: string }) => r.id === changed.changed_response.id)
    expect(response.status).toBe(changed.changed_response.status.to)
    const me = await get(base, "/api/v1/me", changed.added_user.api_key)
    expect(me.username).toBe(changed.added_user.username)
  }, 300_000)
})
