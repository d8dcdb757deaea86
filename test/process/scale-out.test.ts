/**
 * Scale-out with faults: two `gloss server` processes (one GLOSS_AUTH_SECRET_KEY, no workers) and two
 * `gloss worker` processes over PostgreSQL and a fresh Redis Cluster, a webhook receiver, and load through both
 * servers — record ingest, answers by three annotators, then a distribution change. Mid-load one server and one
 * worker are killed with SIGKILL and started again. Afterwards:
 * - every bulk write answered 2xx is stored exactly once; one never answered is whole or absent;
 * - every response answered 2xx is stored;
 * - record statuses agree with the answers and the final `min_submitted` (after the recomputation job);
 * - every event committed to the outbox is delivered at least once, duplicates under one `webhook-id`;
 * - no job is left waiting, running or failed on the queue;
 * - a token issued by one server is accepted by the other;
 * - the search (built-in engine, PostgreSQL full text) counts what the database holds.
 * Three setups: the distributed one on the built-in search engine; the same on OpenSearch (when it answers); and
 * the embedded one (SQLite and its job queue, one server and two workers), where the server is the one killed.
 * Bounded: a few minutes. Needs PostgreSQL, redis-server and OpenSearch (scripts/services.sh).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { Queue } from "bullmq"
import { Cluster } from "ioredis"
import { Effect, Exit, Scope } from "effect"
import Sqlite from "better-sqlite3"
import pg from "pg"
import { describe, it } from "vitest"
import { QUEUE_NAME } from "../../src/services/jobs/RedisQueue.js"
import { messageIdFor } from "../../src/services/webhooks/signing.js"
import { dialects, freshDatabase } from "../support/databases.js"
import { GLOSS } from "../support/processes.js"
import { clusterAvailable, redisCluster } from "../jobs/support/redis.js"
import { serverEnv, type TestEngine, testEngines } from "../support/searchEngines.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const OWNER_KEY = "scale.owner.key.0123456789abcdefghijklmnopqrstuvwxyz012345"
const SECRET = "scale-out-secret-shared-by-every-process"
const BATCHES = 16
const PER_BATCH = 40

const distributed = dialects.includes("postgres") && clusterAvailable

interface Setup {
  readonly name: string
  readonly database: "postgres" | "sqlite"
  readonly queue: "redis-cluster" | "embedded"
  readonly servers: 1 | 2
  readonly engine?: TestEngine | undefined
}

const opensearch = testEngines.find((engine) => engine.flavor === "opensearch")
const SETUPS: ReadonlyArray<Setup> = [
  ...(distributed
    ? [
      { name: "two servers and two workers over PostgreSQL and a Redis Cluster", database: "postgres", queue: "redis-cluster", servers: 2 } as const,
      ...(opensearch === undefined ? [] : [{
        name: `the same on ${opensearch.name}`,
        database: "postgres",
        queue: "redis-cluster",
        servers: 2,
        engine: opensearch
      } as const])
    ]
    : []),
  { name: "the embedded setup: one server and two workers over SQLite and its job queue", database: "sqlite", queue: "embedded", servers: 1 }
]

interface Proc {
  readonly child: ChildProcess
  readonly output: () => string
  readonly url: string
}

// How long a process may take to say it is ready: not a speed check. On a loaded machine a first start on a fresh
// PostgreSQL database waited over a minute behind checkpoints forced by other test files' CREATE DATABASE.
// A process that has ended will not say it any more: that fails at once, with what it said.
const waitFor = async (read: () => string, pattern: RegExp, ended: () => boolean, ms = 180_000) => {
  const until = Date.now() + ms
  while (!pattern.test(read())) {
    if (ended() && !pattern.test(read())) throw new Error(`exited before ${pattern}; its output:\n${read().slice(-3000)}`)
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; output so far:\n${read().slice(-3000)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const eventually = async <A>(what: string, get: () => Promise<A>, ok: (a: A) => boolean, ms = 120_000): Promise<A> => {
  const until = Date.now() + ms
  for (;;) {
    const value = await get()
    if (ok(value)) return value
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; last: ${String(JSON.stringify(value)).slice(0, 2000)}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

const start = async (args: ReadonlyArray<string>, env: Record<string, string>, readyLine: RegExp): Promise<Proc> => {
  // Its own process group: a fault kills the whole group, as it would a container.
  const child = spawn(process.execPath, [GLOSS, ...args], {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env.PATH ?? "", HOME: fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-")), ...env }
  })
  let out = ""
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()))
  // "close", not "exit": by then its output has all been read.
  let closed = false
  child.once("close", () => (closed = true))
  await waitFor(() => out, readyLine, () => closed)
  const port = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]
  return { child, output: () => out, url: port === undefined ? "" : `http://127.0.0.1:${port}` }
}

const killed = (proc: Proc, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) return resolve()
    proc.child.once("exit", () => resolve())
    try {
      process.kill(-proc.child.pid!, signal)
    } catch {
      resolve()
    }
  })

/**
 * Waits (at most a minute) until one of the servers answers its status endpoint. Asked anew each time: a restarted
 * server listens on a port of its own, so the addresses known when the wait began may all be dead.
 */
const untilOneAnswers = async (bases: () => ReadonlyArray<string>) => {
  const until = Date.now() + 60_000
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250))
    for (const base of bases()) {
      const answered = await fetch(`${base}/api/v1/status`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false)
      if (answered) return
    }
  }
}

/** A JSON call; `undefined` when no answer came (connection refused or cut: the server died). */
const call = async (base: string, key: string, method: string, url: string, body?: unknown) => {
  try {
    const response = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { "content-type": "application/json", "x-gloss-api-key": key },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000)
    })
    const text = await response.text()
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads a few known fields
    return { status: response.status, body: text === "" ? null : JSON.parse(text) as any }
  } catch {
    return undefined
  }
}

const receiver = async () => {
  const ids: Array<string> = []
  const server = http.createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      ids.push(String(request.headers["webhook-id"]))
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    ids: () => ids,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

if (!distributed) {
  const reason = "PostgreSQL and redis-server are needed (scripts/services.sh)"
  if (process.env.CI === "true") throw new Error(`the distributed scale-out test cannot run: ${reason}`)
  console.warn(`scale-out: skipping the distributed fault tests: ${reason}`)
}

/** The rows a query over Gloss's database returns; `$1`-style parameters on both databases. */
type Query = (text: string, params?: ReadonlyArray<string>) => Promise<Array<Record<string, unknown>>>

const openDatabase = async (setup: Setup, env: Record<string, string>): Promise<{ query: Query; close: () => Promise<void> }> => {
  if (setup.database === "postgres") {
    const client = new pg.Client({ connectionString: env.GLOSS_DATABASE_URL })
    await client.connect()
    return { query: async (text, params = []) => (await client.query(text, [...params])).rows, close: () => client.end() }
  }
  const file = new Sqlite(path.join(env.GLOSS_HOME_PATH ?? "", "gloss.db"), { readonly: true })
  return {
    query: async (text, params = []) => file.prepare(text.replace(/\$\d+/g, "?")).all(...params) as Array<Record<string, unknown>>,
    close: async () => void file.close()
  }
}

// The setups share nothing (each has its own database, Redis Cluster, receiver, ports and processes), and most of
// each one's time is waiting: on processes starting, on a killed worker's lease running out, on deliveries. So they
// run at once, each checking with its own test's `expect`.
describe.concurrent.each(SETUPS)("scale-out with kill -9: $name", (setup) => {
  it("loses and duplicates nothing that was answered; events, jobs, tokens and search all agree afterwards", async ({ expect }) => {
    const scope = Effect.runSync(Scope.make())
    const procs: Array<Proc> = []
    const hook = await receiver()
    try {
      const database = await Effect.runPromise(Scope.extend(freshDatabase(setup.database), scope))
      const cluster = setup.queue === "redis-cluster" ? await Effect.runPromise(Scope.extend(redisCluster, scope)) : undefined
      const env: Record<string, string> = {
        ...database.env,
        ...(cluster === undefined ? {} : { GLOSS_REDIS_URL: cluster.url, GLOSS_REDIS_USE_CLUSTER: "true" }),
        ...(setup.engine === undefined ? {} : serverEnv(setup.engine)),
        GLOSS_AUTH_SECRET_KEY: SECRET,
        GLOSS_AUTH_PASSWORD_HASH_ROUNDS: "4",
        GLOSS_JOB_WORKERS: "0",
        GLOSS_HOST: "127.0.0.1",
        GLOSS_PORT: "0",
        GLOSS_LOG_LEVEL: "info",
        // The webhook receiver listens on loopback, which webhooks may post to only when it is listed.
        GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1",
        USERNAME: "owner",
        PASSWORD: "owner-password",
        API_KEY: OWNER_KEY
      }
      const listening = /Listening on http:\/\/127\.0\.0\.1:\d+/
      const workerUp = /Job workers started: 2 on (Redis Cluster|the embedded queue)/
      // The last server is the one killed: B of two, or the only one. The first one migrates the database; the
      // others start together once it has.
      const running: Array<Proc> = [await start(["server"], env, listening)]
      const [second, firstWorker, w2] = await Promise.all([
        setup.servers === 2 ? start(["server"], env, listening) : undefined,
        start(["worker", "--num-workers", "2"], env, workerUp),
        start(["worker", "--num-workers", "2"], env, workerUp)
      ])
      if (second !== undefined) running.push(second)
      let w1 = firstWorker
      procs.push(...running, w1, w2)
      const servers = () => [running[0]!.url, running.at(-1)!.url]
      const first = () => running[0]!.url

      // The dataset, three annotators and a webhook, through the first server.
      const owner = (method: string, url: string, body?: unknown) => call(first(), OWNER_KEY, method, url, body)
      const workspace = (await owner("POST", "/workspaces", { name: "scale" }))!.body
      const dataset = (await owner("POST", "/datasets", { name: "scale", workspace_id: workspace.id }))!.body
      await owner("POST", `/datasets/${dataset.id}/fields`, { name: "text", title: "Text", settings: { type: "text" } })
      await owner("POST", `/datasets/${dataset.id}/questions`, {
        name: "label",
        title: "Label",
        required: true,
        settings: { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
      })
      expect((await owner("PUT", `/datasets/${dataset.id}/publish`))!.status).toBe(200)
      const annotators: Array<{ id: string; key: string; username: string }> = []
      for (let i = 0; i < 3; i++) {
        const user = (await owner("POST", "/users", {
          username: `annotator-${i}`,
          first_name: `A${i}`,
          password: "annotator-password",
          role: "annotator"
        }))!.body
        await owner("POST", `/workspaces/${workspace.id}/users`, { user_id: user.id })
        annotators.push({ id: user.id, key: user.api_key, username: user.username })
      }
      const webhook = (await owner("POST", "/webhooks", {
        url: hook.url,
        events: ["record.created", "record.updated", "record.completed", "response.created", "dataset.updated"]
      }))!.body

      // Load through both servers: bulk ingest in batches, and answers by three annotators to what is stored.
      const answeredBatches: Array<number> = []
      const unansweredBatches: Array<number> = []
      const storedRecords: Array<string> = []
      const answeredResponses: Array<string> = []
      let ingesting = true
      const ingest = async () => {
        for (let batch = 0; batch < BATCHES; batch++) {
          const items = Array.from({ length: PER_BATCH }, (_, i) => ({ external_id: `b${batch}-${i}`, fields: { text: `batch ${batch} record ${i}` } }))
          const base = servers()[batch % 2]!
          const answer = await call(base, OWNER_KEY, "PUT", `/datasets/${dataset.id}/records/bulk`, { items })
          if (answer?.status === 200) {
            answeredBatches.push(batch)
            storedRecords.push(...(answer.body.items as Array<{ id: string }>).map((record) => record.id))
          } else {
            unansweredBatches.push(batch)
          }
          // A client backs off after a failure until a server answers again: with one server, later batches reach
          // it once it is back. A restarted server refuses connections until it is ready, so a fixed pause would
          // let a slow restart (a loaded machine) swallow every remaining batch.
          if (answer?.status === 200) await new Promise((r) => setTimeout(r, 100))
          else await untilOneAnswers(servers)
        }
        ingesting = false
      }
      const annotate = async (who: (typeof annotators)[number], index: number) => {
        let next = 0
        while (ingesting || next < storedRecords.length) {
          const recordId = storedRecords[next]
          if (recordId === undefined) {
            await new Promise((r) => setTimeout(r, 50))
            continue
          }
          next++
          // Each annotator answers two records out of three, so the statuses differ.
          if ((next + index) % 3 === 0) continue
          const base = servers()[(next + index) % 2]!
          const answer = await call(base, who.key, "POST", `/records/${recordId}/responses`, {
            status: "submitted",
            values: { label: { value: next % 2 === 0 ? "a" : "b" } }
          })
          if (answer?.status === 201) answeredResponses.push(answer.body.id)
        }
      }
      // A sign-in token from the first server, before the faults: the restarted server must accept it.
      const token = await fetch(`${first()}/api/v1/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: annotators[0]!.username, password: "annotator-password" }).toString()
      }).then((r) => r.json() as Promise<{ access_token: string }>)
      const faults = async () => {
        // Mid-load: once a few batches are in, with answers going on.
        while (answeredBatches.length < 4) await new Promise((r) => setTimeout(r, 20))
        await Promise.all([killed(running.at(-1)!, "SIGKILL"), killed(w1, "SIGKILL")])
        // Down until a batch has met it: on a loaded machine one batch to the other server could outlast a fixed
        // pause and the restart, and then no write would have gone to the dead server. A batch in two goes to it,
        // so this waits for one or two batches (bounded, in case the load ended first: the check below then fails).
        const downUntil = Date.now() + 60_000
        while (unansweredBatches.length === 0 && ingesting && Date.now() < downUntil) {
          await new Promise((r) => setTimeout(r, 20))
        }
        await new Promise((r) => setTimeout(r, 500))
        // Both again at once; the server takes its place as soon as it listens, for the clients waiting on it.
        await Promise.all([
          start(["server"], env, listening).then((server) => {
            running[running.length - 1] = server
            procs.push(server)
          }),
          start(["worker", "--num-workers", "2"], env, workerUp).then((worker) => {
            w1 = worker
            procs.push(worker)
          })
        ])
      }
      await Promise.all([ingest(), ...annotators.map(annotate), faults()])
      console.log(
        `scale-out (${setup.name}): ${answeredBatches.length} batches answered, ${unansweredBatches.length} not, ` +
          `${answeredResponses.length} responses answered`
      )
      // The fault hit the load: some writes went to the dead server.
      expect(unansweredBatches.length).toBeGreaterThan(0)
      // And the load went on around it: through the other server, or through this one once it was back.
      expect(answeredBatches.length).toBeGreaterThan(setup.servers === 2 ? BATCHES / 2 : 4)
      expect(Math.max(...answeredBatches)).toBeGreaterThan(Math.min(...unansweredBatches))

      // A distribution change: statuses are recomputed by a job.
      const patched = await call(running.at(-1)!.url, OWNER_KEY, "PATCH", `/datasets/${dataset.id}`, {
        distribution: { strategy: "overlap", min_submitted: 2 }
      })
      expect(patched?.status).toBe(200)

      const db = await openDatabase(setup, env)
      try {
        // Records: answered batches exactly once; unanswered ones whole or absent.
        const counts = new Map<string, number>()
        for (const row of await db.query(`select external_id from records where dataset_id = $1`, [dataset.id])) {
          counts.set(String(row.external_id), (counts.get(String(row.external_id)) ?? 0) + 1)
        }
        expect([...counts.values()].every((n) => n === 1)).toBe(true)
        for (let batch = 0; batch < BATCHES; batch++) {
          const present = Array.from({ length: PER_BATCH }, (_, i) => counts.has(`b${batch}-${i}`)).filter(Boolean).length
          if (answeredBatches.includes(batch)) expect(present, `batch ${batch}`).toBe(PER_BATCH)
          else expect([0, PER_BATCH], `batch ${batch} (unanswered)`).toContain(present)
        }
        // Responses answered 201 are stored.
        const stored = new Set((await db.query(`select id from responses`)).map((row) => String(row.id)))
        expect(answeredResponses.filter((id) => !stored.has(id))).toEqual([])

        // Statuses follow min_submitted = 2 once the recomputation job has run.
        const wrongStatuses = () =>
          db.query(
            `select cast(count(*) as integer) as n from records r where r.dataset_id = $1 and r.status <> (case when
               (select count(*) from responses s where s.record_id = r.id and s.status = 'submitted') >= 2
               then 'completed' else 'pending' end)`,
            [dataset.id]
          ).then((rows) => Number(rows[0]?.n))
        await eventually("statuses recomputed", wrongStatuses, (n) => n === 0)

        // Every committed event reaches the receiver at least once, under the id derived from event and webhook.
        const expected = async () =>
          (await db.query(`select id from outbox where kind = 'event'`)).map((row) => messageIdFor(String(row.id), webhook.id))
        const missing = await eventually(
          "every event delivered",
          async () => {
            const seen = new Set(hook.ids())
            return (await expected()).filter((id) => !seen.has(id))
          },
          (list) => list.length === 0
        )
        expect(missing).toEqual([])
        const known = new Set(await expected())
        expect(hook.ids().filter((id) => !known.has(id))).toEqual([])
        expect((await expected()).length).toBeGreaterThan(answeredBatches.length * PER_BATCH)
        // No job left behind: nothing waiting, running, delayed or failed.
        if (cluster === undefined) {
          // The jobs themselves, not a count: a job left behind says which, in what state, after how many attempts, and
          // why its last one failed.
          const left = () =>
            db.query(
              `select name, status, attempts_made, max_attempts, available_at, locked_until, last_error from jobs
                where status in ('queued', 'started', 'scheduled', 'failed')`
            )
          expect(await eventually("the queue to drain", left, (rows) => rows.length === 0)).toEqual([])
        }
      } finally {
        await db.close()
      }
      if (cluster !== undefined) {
        const redis = new Cluster([{ host: "127.0.0.1", port: Number(new URL(cluster.url).port) }])
        const queue = new Queue(QUEUE_NAME, { connection: redis, prefix: "{gloss}" })
        try {
          const jobs = await eventually(
            "the queue to drain",
            () => queue.getJobCounts("wait", "active", "delayed", "prioritized", "failed"),
            (c) => Object.values(c).every((n) => n === 0)
          )
          expect(jobs).toEqual({ wait: 0, active: 0, delayed: 0, prioritized: 0, failed: 0 })
        } finally {
          await queue.close()
          redis.disconnect()
        }
      }

      // The token issued before the faults is accepted by the restarted server (and by the other one).
      for (const url of servers()) {
        const me = await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${token.access_token}` } })
        expect(me.status).toBe(200)
      }

      // Search agrees with the database. The built-in engine indexes in the write's own transaction; a cluster is
      // indexed after the commit, so a record written just before a crash may be missing: then a reindex fixes it.
      const searchTotal = async () =>
        (await call(servers()[1]!, OWNER_KEY, "POST", `/datasets/${dataset.id}/records/search?limit=1`, {
          query: { text: { q: "record" } }
        }))?.body.total as number | undefined
      const records = (await call(first(), OWNER_KEY, "GET", `/datasets/${dataset.id}/records?limit=1`))!.body.total
      const agreed = await eventually("search to agree", searchTotal, (n) => n === records, 15_000).then((): true => true, (error: Error) => error)
      if (agreed !== true) {
        expect(setup.engine, `the built-in engine must agree without a reindex (${records} records): ${agreed.message}`).toBeDefined()
        const reindex = await start(["search", "reindex", "--dataset", dataset.id], env, /./)
        await new Promise((resolve) => reindex.child.once("exit", resolve))
        console.log(`scale-out (${setup.name}): the index needed gloss search reindex after the crash`)
        expect(await eventually("search to agree after a reindex", searchTotal, (n) => n === records, 30_000)).toBe(records)
      }
      // A long-lived cluster must not collect an index per run.
      if (setup.engine !== undefined) expect((await owner("DELETE", `/datasets/${dataset.id}`))?.status).toBe(200)
    } finally {
      await Promise.all(procs.map((proc) => killed(proc, "SIGTERM")))
      await hook.close()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 600_000)
})
