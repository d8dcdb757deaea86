/**
 * `gloss migrate from-argilla` against the real thing: an argilla-server 2.8.0 (test/support/argillaServer.ts) filled
 * through the real Argilla SDK, copied into Gloss from its database, on SQLite (Argilla's and Gloss's) and on
 * PostgreSQL (both), then checked from outside: every user signs in with the same password and API key, an
 * annotator sees exactly their own responses with their statuses, the SDK reads every dataset from Gloss, a
 * similarity search finds the same neighbours as Argilla, a webhook delivery verifies with the old secret; and on
 * SQLite, a run killed half way and started again, and a re-sync after changes made in Argilla.
 *
 * Starting and filling an Argilla server is most of a minute of a loaded CI run, so each of the two is started and
 * filled once, here, for every suite that reads it: on SQLite, first the test support's own promises
 * (argillaServerChecks.ts), then the REST API read as the database is (migrateFromApiTests.ts), then the migration;
 * the filler's change, which only the re-sync needs, comes last. The PostgreSQL server starts beside the SQLite one.
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
  type ArgillaDatabase,
  type ArgillaFill,
  argillaServerProblem,
  type ArgillaServer,
  changeArgilla,
  fillArgilla,
  startArgillaServer
} from "../support/argillaServer.js"
import { freshDatabase } from "../support/databases.js"
import { exited, listening, ROOT, spawnGloss, stop, waitFor, type GlossProcess } from "../support/processes.js"
import { checkChange, checkFilled } from "./argillaServerChecks.js"
import { fromApiTests } from "./migrateFromApiTests.js"

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
/**
 * fetch, once more when a kept-alive connection turned out closed before the request went out (the server ends idle
 * connections, and a test that paused for a while may pick one it is closing).
 */
const request = (url: string, init: RequestInit): Promise<Response> =>
  fetch(url, init).catch((error: { cause?: { code?: string } }) => {
    if (error.cause?.code === "UND_ERR_SOCKET") return fetch(url, init)
    throw error
  })
const get = (base: string, route: string, apiKey: string) => request(`${base}${route}`, { headers: { "X-Argilla-Api-Key": apiKey } }).then(json)
const post = (base: string, route: string, apiKey: string, body: unknown) =>
  request(`${base}${route}`, {
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

/** A webhook receiver: what it was sent, headers and body. */
const receiver = async () => {
  const deliveries: Array<{ headers: http.IncomingHttpHeaders; body: string }> = []
  const server = http.createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => (body += chunk.toString()))
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** An Argilla server filled with RECORDS records, its webhook pointing at a receiver of ours. */
interface Filled {
  readonly argilla: ArgillaServer
  readonly filled: ArgillaFill
  readonly hook: Awaited<ReturnType<typeof receiver>>
}

const startFilled = async (database: ArgillaDatabase): Promise<Filled> => {
  const hook = await receiver()
  try {
    const argilla = await startArgillaServer({ database })
    try {
      return { argilla, filled: await fillArgilla(argilla, { records: RECORDS, webhookUrl: hook.url }), hook }
    } catch (error) {
      await argilla.stop()
      throw error
    }
  } catch (error) {
    await hook.close()
    throw error
  }
}

/** Each database's server, started on first use and stopped when the file ends. */
const servers = new Map<ArgillaDatabase, Promise<Filled>>()
const serverOn = (database: ArgillaDatabase): Promise<Filled> => {
  let started = servers.get(database)
  if (started === undefined) {
    started = startFilled(database)
    // Awaited by the suites that need it; a failure is theirs to report, not an unhandled rejection.
    started.catch(() => undefined)
    servers.set(database, started)
  }
  return started
}

afterAll(async () => {
  for (const started of servers.values()) {
    const server = await started.catch(() => undefined)
    await server?.argilla.stop()
    await server?.hook.close()
  }
}, 120_000)

/** The SQLite server, once the suites below have it. */
let onSqlite: Filled | undefined
const sqliteServer = (): Filled => {
  if (onSqlite === undefined) throw new Error("the Argilla server on SQLite did not start")
  return onSqlite
}

describe.skipIf(problem !== undefined)("a real Argilla server on SQLite, as the filler left it", () => {
  beforeAll(async () => {
    // The PostgreSQL server starts now, beside this one: its suite comes last.
    void serverOn("postgresql")
    onSqlite = await serverOn("sqlite")
  }, 600_000)

  it("answers what the filler printed: users, workspaces, datasets, records, responses, suggestions, vectors, the webhook; an annotator signs in", async () => {
    const { argilla, filled, hook } = sqliteServer()
    await checkFilled(argilla, filled, { records: RECORDS, webhookUrl: hook.url })
  }, 120_000)
})

describe.skipIf(problem !== undefined)("gloss migrate from-argilla --argilla-api-url (process)", () => {
  fromApiTests(() => ({ server: sqliteServer().argilla, fill: sqliteServer().filled }))
})

describe.skipIf(problem !== undefined).each([
  { argilla: "sqlite", gloss: "sqlite" },
  { argilla: "postgresql", gloss: "postgres" }
] as const)("from Argilla on $argilla into Gloss on $gloss", ({ argilla: argillaDb, gloss: glossDb }) => {
  const scope = Effect.runSync(Scope.make())
  let argilla: ArgillaServer
  let filled: ArgillaFill
  let deliveries: ReadonlyArray<{ headers: http.IncomingHttpHeaders; body: string }>
  let env: Record<string, string>
  let server: GlossProcess | undefined
  let base: string

  beforeAll(async () => {
    ;({ argilla, filled, hook: { deliveries } } = await serverOn(argillaDb))
    const database = await Effect.runPromise(Scope.extend(freshDatabase(glossDb), scope))
    env = { ...database.env, GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1" }
  }, 600_000)

  afterAll(async () => {
    if (server !== undefined) await stop(server)
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
    server = spawnGloss(["server"], { ...env, GLOSS_HOST: "127.0.0.1", GLOSS_PORT: "0" })
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
    // Every vector, as Gloss serves them, for the exact answer.
    const vectors = new Map<string, Array<number>>()
    for (let offset = 0; ; offset += 500) {
      const page = await post(base, `/api/v1/me/datasets/${dataset.id}/records/search?include=vectors&offset=${offset}&limit=500`, owner.api_key, {})
      for (const { record } of page.items) {
        const vector = record.vectors?.["embedding"]
        if (vector !== undefined) vectors.set(record.id, vector)
      }
      if (page.items.length < 500) break
    }
    expect(vectors.size).toBe(dataset.counts.vectors)
    const cosine = (a: Array<number>, b: Array<number>) => {
      let dot = 0, na = 0, nb = 0
      for (let i = 0; i < a.length; i++) {
        dot += a[i]! * b[i]!
        na += a[i]! * a[i]!
        nb += b[i]! * b[i]!
      }
      return dot / Math.sqrt(na * nb)
    }
    for (const [id, vector] of [...vectors].slice(0, 3)) {
      const exact = [...vectors].filter(([other]) => other !== id)
        .map(([other, v]) => [other, cosine(vector, v)] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([other]) => other)
      const [fromArgilla, fromGloss] = await Promise.all([
        neighbours(argilla.url, owner.api_key, dataset.id, id),
        neighbours(base, owner.api_key, dataset.id, id)
      ])
      // Gloss searches exactly at this size, so it finds every one of the true neighbours, in order. Argilla's index
      // (HNSW in Elasticsearch) is approximate: it finds most of them (7 to 10 of 10 in our runs).
      expect(fromGloss).toEqual(exact)
      expect(fromArgilla.filter((other) => exact.includes(other)).length).toBeGreaterThanOrEqual(5)
    }
  }, 120_000)

  it("serves every migrated dataset to the Argilla SDK as Argilla does", () => {
    const owner = filled.users.find((user) => user.role === "owner")!
    // What the SDK reads of every dataset: each record's fields, metadata, external id, responses, suggestions and
    // vectors, in a form that sorts; the same script against both servers must print the same.
    const script = `
import json, sys, argilla as rg
client = rg.Argilla(api_url=sys.argv[1], api_key=sys.argv[2])
out = {}
for ds in client.datasets:
    records = []
    for r in ds.records(with_responses=True, with_suggestions=True, with_vectors=True):
        records.append({
            "id": str(r.id), "fields": r.fields.to_dict(), "metadata": r.metadata.to_dict(), "status": r.status,
            "responses": sorted([[x.question_name, json.dumps(x.value, sort_keys=True), str(x.user_id), str(x.status)] for x in r.responses]),
            "suggestions": sorted([[x.question_name, json.dumps(x.value, sort_keys=True), json.dumps(x.score), x.agent] for x in r.suggestions]),
            "vectors": {k: v for k, v in r.vectors.to_dict().items()},
        })
    records.sort(key=lambda r: r["id"])
    out[f"{ds.workspace.name}/{ds.name}"] = records
print(json.dumps(out, sort_keys=True))
`
    const read = (url: string) => {
      const run = spawnSync(PYTHON, ["-c", script, url, owner.api_key], { encoding: "utf8", timeout: 120_000, maxBuffer: 64 * 1024 * 1024 })
      expect(run.status, run.stderr.slice(-3000)).toBe(0)
      return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Record<string, Array<{ responses: Array<unknown> }>>
    }
    const fromGloss = read(base)
    const fromArgilla = read(argilla.url)
    for (const dataset of filled.datasets) {
      const key = `${dataset.workspace}/${dataset.name}`
      expect(fromGloss[key]?.length).toBe(dataset.records)
      expect(fromGloss[key]).toEqual(fromArgilla[key])
    }
  }, 240_000)

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

  if (argillaDb === "sqlite") it("stops on a name Gloss already has, and skips or renames it when told", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-migrate-conflict-"))
    const conflictEnv = { GLOSS_HOME_PATH: home }
    const made = spawnGloss(["users", "create", "--username", "annotator1", "--password", "gloss-password-1", "--workspace", "team-one"], conflictEnv)
    expect(await exited(made.child), made.output()).toBe(0)
    const failed = await migrateCli(["--argilla-database-url", argilla.databaseUrl], conflictEnv)
    expect(failed.code).not.toBe(0)
    expect(failed.output).toContain("user 'annotator1' exists in Gloss already")
    expect(failed.output).toContain("workspace 'team-one' exists in Gloss already")
    expect(failed.output).toContain("nothing was written")
    expect(failed.output).toContain("--on-conflict skip or --on-conflict rename")

    const dry = await migrateCli(["--argilla-database-url", argilla.databaseUrl, "--on-conflict", "skip", "--dry-run"], conflictEnv)
    expect(dry.code, dry.output).toBe(0)
    expect(dry.output).toMatch(/users +would be created \d+, .*skipped 1,/)
    expect(dry.output).toMatch(/note: datasets: 1 skipped: 'everything': its workspace was skipped/)

    const renamed = await migrateCli(["--argilla-database-url", argilla.databaseUrl, "--on-conflict", "rename"], conflictEnv)
    expect(renamed.code, renamed.output).toBe(0)
    expect(renamed.output).toContain("'annotator1' becomes 'annotator1-argilla'")
    expect(renamed.output).toContain("'team-one' becomes 'team-one-argilla'")
    expect(renamed.output).toContain("Argilla and Gloss hold the same data.")
    fs.rmSync(home, { recursive: true, force: true })
  }, 300_000)

  // Killing a run and re-syncing are the command's own behaviour, the same whatever the databases: checked once.
  if (argillaDb === "sqlite") it("finishes a run killed half way when started again", async () => {
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

  if (argillaDb === "sqlite") it("re-syncs what changed in Argilla since the last run", async () => {
    const dataset = filled.datasets.find((d) => d.name === "everything")!
    const changed = await changeArgilla(argilla, dataset.id)
    // The change is in Argilla as the filler says (the test support's promise), before Gloss is asked to follow it.
    await checkChange(argilla, filled, changed)
    const run = await migrateCli(["--argilla-database-url", argilla.databaseUrl], env)
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain("Argilla and Gloss hold the same data.")
    expect(run.output).toMatch(/records +created 5,/)
    // Deleted: the record deleted in Argilla, and the one the webhook test wrote in Gloss (until the cut-over,
    // Argilla is the source of truth for a migrated dataset).
    expect(run.output).toMatch(/records +created 5, .*deleted 2$/m)
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
