/**
 * Gloss started every supported way, as processes, each checked by asking it something: SQLite and PostgreSQL,
 * with and without the owner variables; three servers at once on a fresh PostgreSQL database (replicas); `gloss
 * worker` beside a server, on the embedded queue and on Redis, running a job submitted through the API; and a
 * client that keeps sending requests while a server starts, none of which may hang. Modest on purpose (a few
 * processes at a time): the machine running the tests may have two cores.
 */
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { Queue } from "bullmq"
import { Effect, Exit, Scope } from "effect"
import { Redis } from "ioredis"
import Sqlite from "better-sqlite3"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { type Dialect, dialects, freshDatabase } from "../support/databases.js"
import { exited, type GlossProcess, listening, spawnGloss, stop, waitFor } from "../support/processes.js"
import { REDIS_URL, standaloneAvailable } from "../jobs/support/redis.js"
import { unique } from "../support/fixtures.js"
import { QUEUE_NAME } from "../../src/services/jobs/RedisQueue.js"

const OWNER = { USERNAME: "owner", PASSWORD: "owner-password", WORKSPACE: "team" }
const BASE = { GLOSS_HOST: "127.0.0.1", GLOSS_PORT: "0", GLOSS_LOG_LEVEL: "info", HF_HUB_DISABLE_TELEMETRY: "1" }
const postgres = dialects.includes("postgres")

const scope = Effect.runSync(Scope.make())
const running: Array<GlossProcess> = []
afterAll(async () => {
  await Promise.all(running.map((proc) => stop(proc, "SIGKILL")))
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

const database = (dialect: Dialect) => Effect.runPromise(Scope.extend(freshDatabase(dialect), scope))

const gloss = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const proc = spawnGloss(args, { ...BASE, ...env })
  running.push(proc)
  return proc
}

/** Rows of a query on Gloss's database (`$1` parameters on both). */
const query = async (dialect: Dialect, env: Record<string, string>, text: string, params: ReadonlyArray<string> = []) => {
  if (dialect === "postgres") {
    const client = new pg.Client({ connectionString: env.GLOSS_DATABASE_URL })
    await client.connect()
    try {
      return (await client.query(text, [...params])).rows as Array<Record<string, unknown>>
    } finally {
      await client.end()
    }
  }
  const file = new Sqlite(`${env.GLOSS_HOME_PATH}/gloss.db`, { readonly: true })
  try {
    return file.prepare(text.replace(/\$\d+/g, "?")).all(...params) as Array<Record<string, unknown>>
  } finally {
    file.close()
  }
}

const count = async (dialect: Dialect, env: Record<string, string>, text: string, params: ReadonlyArray<string> = []) =>
  Number((await query(dialect, env, text, params))[0]?.n)

const status = async (url: string) => {
  const response = await fetch(`${url}/api/v1/status`, { signal: AbortSignal.timeout(10_000) })
  return { code: response.status, body: await response.json() as { readonly status?: unknown } }
}

describe.each(dialects)("gloss server on %s", (dialect) => {
  it.each([
    { name: "without the owner variables (a first start: nobody can sign in yet)", env: {}, workspace: undefined },
    { name: "with USERNAME, PASSWORD and WORKSPACE", env: OWNER, workspace: "team" },
    // Without WORKSPACE the new owner gets one named "default".
    { name: "with USERNAME and PASSWORD only", env: { USERNAME: OWNER.USERNAME, PASSWORD: OWNER.PASSWORD }, workspace: "default" }
  ])("starts $name and answers", async ({ env, workspace }) => {
    const db = await database(dialect)
    const server = gloss(["server"], { ...db.env, ...env })
    const url = await listening(server)
    expect((await status(url)).code).toBe(200)
    expect(await count(dialect, db.env, "select count(*) as n from users where role = 'owner'")).toBe("USERNAME" in env ? 1 : 0)
    const memberships = await count(
      dialect,
      db.env,
      "select count(*) as n from workspaces_users wu join workspaces w on w.id = wu.workspace_id where w.name = $1",
      [workspace ?? "default"]
    )
    expect(memberships).toBe(workspace === undefined ? 0 : 1)
    // A first start says where to create the owner: the set-up link.
    expect(/Open http:\/\/127\.0\.0\.1:0\/setup\?token=[A-Za-z0-9_-]{32} /.test(server.output())).toBe(workspace === undefined)
    expect(await stop(server)).toBe(0)
  }, 120_000)
})

describe.skipIf(!postgres)("replicas", () => {
  it("three servers started at once on a fresh PostgreSQL database with the owner variables: all answer, one owner, one membership", async () => {
    const db = await database("postgres")
    const servers = [1, 2, 3].map(() => gloss(["server"], { ...db.env, ...OWNER, GLOSS_JOB_WORKERS: "0" }))
    const urls = await Promise.all(servers.map(listening))
    for (const url of urls) expect((await status(url)).code).toBe(200)
    expect(await count("postgres", db.env, "select count(*) as n from users where role = 'owner'")).toBe(1)
    expect(await count("postgres", db.env, "select count(*) as n from workspaces where name = $1", ["team"])).toBe(1)
    expect(await count("postgres", db.env, "select count(*) as n from workspaces_users")).toBe(1)
    // Exactly one of them created the owner; the others found it.
    expect(servers.filter((server) => server.output().includes("Created the owner user 'owner'"))).toHaveLength(1)
    expect(await Promise.all(servers.map((server) => stop(server)))).toEqual([0, 0, 0])
  }, 180_000)
})

/** A webhook receiver: the deliveries it got. */
const receiver = async () => {
  const bodies: Array<string> = []
  const server = http.createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString()))
    request.on("end", () => {
      bodies.push(body)
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** The test's keys on the shared Redis, removed. */
const removeQueue = async (url: string, prefix: string) => {
  const connection = new Redis(url, { maxRetriesPerRequest: null })
  const queue = new Queue(QUEUE_NAME, { connection, prefix: `{${prefix}}` })
  await queue.obliterate({ force: true })
  await queue.close()
  await connection.quit()
}

const QUEUES = [
  { name: "the embedded queue", env: {} as Record<string, string> },
  ...(standaloneAvailable ? [{ name: "Redis", env: { GLOSS_REDIS_URL: REDIS_URL } as Record<string, string> }] : [])
]

describe.each(QUEUES)("gloss worker beside a server, on $name", ({ env: queueEnv }) => {
  it("runs a job submitted through the API (a webhook delivery), which the server itself does not run", async () => {
    const db = await database(postgres ? "postgres" : "sqlite")
    const hook = await receiver()
    const prefix = unique("start-every-way")
    try {
      const env = {
        ...db.env,
        ...queueEnv,
        // A queue of this test's own on the shared Redis.
        GLOSS_REDIS_PREFIX: prefix,
        USERNAME: "owner",
        PASSWORD: "owner-password",
        API_KEY: "start.every.way.owner.key.0123456789abcdefghijklmnop",
        GLOSS_AUTH_SECRET_KEY: "start-every-way-secret-shared-by-the-processes",
        GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1",
        GLOSS_JOB_WORKERS: "0"
      }
      const server = gloss(["server"], env)
      const url = await listening(server)
      const worker = gloss(["worker", "--num-workers", "1"], env)
      await waitFor(worker, /Job workers started: 1 on (Redis|the embedded queue)/)
      const call = async (path: string, body: unknown) => {
        const response = await fetch(`${url}/api/v1${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-gloss-api-key": env.API_KEY },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000)
        })
        expect(response.status).toBeLessThan(300)
        return await response.json() as { readonly id: string }
      }
      await call("/webhooks", { url: hook.url, events: ["dataset.created"] })
      const workspace = await call("/workspaces", { name: "jobs" })
      const dataset = await call("/datasets", { name: "delivered", workspace_id: workspace.id })
      const until = Date.now() + 60_000
      while (!hook.bodies.some((body) => body.includes(dataset.id)) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100))
      }
      expect(hook.bodies.some((body) => body.includes(dataset.id))).toBe(true)
      // The worker ran it, and said so.
      await waitFor(worker, /Running job webhooks\.deliver\S* \S+ \(attempt 1 of \d+\)/)
      expect(await stop(worker)).toBe(0)
      expect(await stop(server)).toBe(0)
    } finally {
      await hook.close()
      if (queueEnv.GLOSS_REDIS_URL !== undefined) await removeQueue(queueEnv.GLOSS_REDIS_URL, prefix)
    }
  }, 180_000)
})

const freePort = async () => {
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve))
  const port = (probe.address() as AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

type Outcome = "refused" | number | string

/** One request with a short timeout: refused, an HTTP status, or what else happened (a hang is "timeout"). */
const attempt = async (url: string): Promise<Outcome> => {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3_000) })
    await response.arrayBuffer()
    return response.status
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") return "timeout"
    const code = (error as { cause?: { code?: unknown } }).cause?.code
    return code === "ECONNREFUSED" ? "refused" : `error ${String(code ?? error)}`
  }
}

describe("requests throughout a start", () => {
  it("every request sent from before the spawn until the server is up is refused or answered, never left hanging", async () => {
    const db = await database(postgres ? "postgres" : "sqlite")
    const port = await freePort()
    const outcomes: Array<Outcome> = []
    let up = false
    const clients = [1, 2, 3].map(async () => {
      // Until the server answers, and a little beyond.
      for (let after = 0; after < 20;) {
        const outcome = await attempt(`http://127.0.0.1:${port}/api/v1/status`)
        outcomes.push(outcome)
        if (outcome === 200) up = true
        if (up) after++
        if (outcome === "refused") await new Promise((r) => setTimeout(r, 5))
      }
    })
    const server = gloss(["server"], { ...db.env, ...OWNER, GLOSS_PORT: String(port) })
    await Promise.all(clients)
    expect(outcomes.filter((outcome) => outcome !== "refused" && outcome !== 200 && outcome !== 503)).toEqual([])
    expect(outcomes).toContain(200)
    expect(await stop(server)).toBe(0)
  }, 180_000)
})

describe("start-up failures say what to look at, in one sentence", () => {
  it("a database URL that is not one names the variable and the forms it takes", async () => {
    const proc = gloss(["server"], { GLOSS_DATABASE_URL: "notaurl" })
    expect(await exited(proc.child)).toBe(1)
    expect(proc.output()).toContain("Gloss cannot start: 1 environment variable is invalid.")
    expect(proc.output()).toContain("GLOSS_DATABASE_URL: expected postgresql://user:password@host:port/db")
    expect(proc.output()).not.toMatch(/\n\s+at |└─/)
  }, 60_000)

  it("a home that cannot be created names the path and GLOSS_HOME_PATH", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-file-")), "a-file")
    fs.writeFileSync(file, "")
    const proc = gloss(["server"], { GLOSS_HOME_PATH: path.join(file, "home") })
    expect(await exited(proc.child)).toBe(1)
    expect(proc.output()).toContain(`Gloss cannot start: cannot use ${path.join(file, "home")} (ENOTDIR: not a directory)`)
    expect(proc.output()).toContain("GLOSS_HOME_PATH")
  }, 60_000)

  it("PostgreSQL on a closed port: unreachable, with the variable to check", async () => {
    const proc = gloss(["server"], { GLOSS_DATABASE_URL: `postgresql://gloss:gloss@127.0.0.1:${await freePort()}/gloss` })
    expect(await exited(proc.child)).toBe(1)
    expect(proc.output()).toMatch(/^Gloss cannot start: the database is unreachable \(.*ECONNREFUSED.*\)\. Check GLOSS_DATABASE_URL\.\n$/m)
    expect(proc.output()).not.toMatch(/\n\s+at |└─/)
  }, 60_000)
})
