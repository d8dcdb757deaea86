/**
 * A real Argilla server (argilla-server 2.8.0 from PyPI, in .venv-argilla-server: scripts/argilla-server.sh) with its
 * own worker, on a fresh SQLite file or PostgreSQL database, for the tests of `gloss migrate from-argilla` and the
 * `small` benchmark's peer (bench/lib/argillaPeer.ts); and the filler (test/support/argilla_fill.py, run with the
 * Argilla SDK of .venv) that fills one through the SDK.
 *
 * Each server gets a temporary home folder, a free port and a Redis database number of its own (RQ's queue names
 * are fixed, so two servers' workers on one Redis database would take each other's jobs): numbers 8 to 15, held by
 * a lock file while the server runs and taken only when empty. It indexes into the test Elasticsearch (9201, or the
 * first of GLOSS_TEST_ELASTICSEARCH_URL) unless `search` names another cluster, and not into OpenSearch for the
 * tests: Argilla 2.8.0 asks OpenSearch for k-NN vector fields on an index with `index.knn: false`, which the k-NN
 * plugin of OpenSearch 2.19 refuses, so no dataset with vector settings could be published there (the `small`
 * benchmark runs it on OpenSearch all the same, with datasets without vectors). The test Elasticsearch has no
 * Painless, which Argilla's single-response endpoints (create, update, delete one response) use to update the index:
 * they answer 500 here, and the filler changes responses through bulk record upserts instead.
 *
 * stop() ends both processes (their process groups), deletes the server's indices, drops the PostgreSQL database,
 * empties the Redis database and removes the folder; if the test process exits first, the processes are killed.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { Redis } from "ioredis"
import pg from "pg"
import { POSTGRES_URL } from "./databases.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
export const ARGILLA_SERVER_VENV = path.join(ROOT, ".venv-argilla-server")
const SERVER_PYTHON = path.join(ARGILLA_SERVER_VENV, "bin/python")
const REQUIREMENTS = path.join(ROOT, "scripts/argilla-server-requirements.txt")
const SDK_PYTHON = path.join(ROOT, ".venv/bin/python")
const FILL = path.join(ROOT, "test/support/argilla_fill.py")
const ELASTICSEARCH_URL = (process.env.GLOSS_TEST_ELASTICSEARCH_URL ?? "http://127.0.0.1:9201").split(",")[0]?.trim() ?? ""
const REDIS = { host: "127.0.0.1", port: 6379 }
/** Redis database numbers for Argilla servers; the lower ones are left to whatever else uses this Redis. */
const REDIS_DBS = [8, 9, 10, 11, 12, 13, 14, 15]
/** Starting takes ~10 s on an idle machine (imports, migrations, the owner): this is for a loaded one. */
const START_TIMEOUT_MS = 180_000
const STOP_GRACE_MS = 10_000

export type ArgillaDatabase = "sqlite" | "postgresql"

export interface ArgillaServer {
  /** The base URL, `http://127.0.0.1:<port>` (the API is under /api/v1). */
  readonly url: string
  readonly ownerUsername: string
  readonly ownerPassword: string
  readonly ownerApiKey: string
  readonly database: ArgillaDatabase
  /** What `gloss migrate from-argilla` is given: the SQLite file's path, or `postgres://…/<database>`. */
  readonly databaseUrl: string
  /** The SQLite file, on SQLite. */
  readonly sqlitePath?: string
  /** The server's and the worker's output so far (for a failing test's message). */
  readonly output: () => string
  /** The server's process id (not the worker's), for its memory. */
  readonly serverPid: number
  readonly stop: () => Promise<void>
}

/**
 * Why no Argilla server can be started here (the venv or a pinned package is missing), or undefined. `sdk: false`
 * leaves out the SDK's venv, which only the filler needs.
 */
export const argillaServerProblem = (options: { readonly sdk?: boolean } = {}): string | undefined => {
  if (!fs.existsSync(SERVER_PYTHON)) return `no ${path.relative(ROOT, SERVER_PYTHON)} (run scripts/argilla-server.sh)`
  const lib = path.join(ARGILLA_SERVER_VENV, "lib")
  const python = fs.readdirSync(lib).find((name) => name.startsWith("python3"))
  const site = python === undefined ? undefined : path.join(lib, python, "site-packages")
  const pins = [...fs.readFileSync(REQUIREMENTS, "utf8").matchAll(/^([\w.-]+)==(\S+)$/gm)]
  const missing = pins
    .filter(([, name, version]) => site === undefined || !fs.existsSync(path.join(site, `${name?.replaceAll("-", "_")}-${version}.dist-info`)))
    .map(([pin]) => pin)
  if (missing.length > 0) return `${path.relative(ROOT, ARGILLA_SERVER_VENV)} lacks ${missing.join(", ")} (run scripts/argilla-server.sh)`
  if (options.sdk !== false && !fs.existsSync(SDK_PYTHON)) return "no .venv/bin/python for the Argilla SDK (run scripts/services.sh)"
  return undefined
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const lockFile = (db: number) => path.join(os.tmpdir(), `gloss-argilla-redis-${db}.lock`)

/** Takes the lock file of a database number; a lock whose process is gone is taken over. */
const takeLock = (db: number): boolean => {
  const file = lockFile(db)
  try {
    fs.writeFileSync(file, String(process.pid), { flag: "wx" })
    return true
  } catch {
    const holder = Number(fs.readFileSync(file, "utf8").trim() || "0")
    if (holder > 0 && alive(holder)) return false
    fs.rmSync(file, { force: true })
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" })
      return true
    } catch {
      return false
    }
  }
}

/** A Redis database number no other server uses: locked here, and empty (nothing else wrote to it). */
const claimRedisDb = async (): Promise<number> => {
  const order = [...REDIS_DBS].sort(() => Math.random() - 0.5)
  for (const db of order) {
    if (!takeLock(db)) continue
    const redis = new Redis({ ...REDIS, db, lazyConnect: true, maxRetriesPerRequest: 1 })
    try {
      await redis.connect()
      if ((await redis.dbsize()) === 0) return db
    } finally {
      redis.disconnect()
    }
    fs.rmSync(lockFile(db), { force: true })
  }
  throw new Error(`no free Redis database among ${REDIS_DBS.join(", ")} at redis://${REDIS.host}:${REDIS.port}`)
}

const releaseRedisDb = async (db: number) => {
  const redis = new Redis({ ...REDIS, db, lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    await redis.flushdb()
  } finally {
    redis.disconnect()
    fs.rmSync(lockFile(db), { force: true })
  }
}

const redisWorkers = async (db: number) => {
  const redis = new Redis({ ...REDIS, db, lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    return await redis.scard("rq:workers")
  } finally {
    redis.disconnect()
  }
}

const withAdmin = async <A>(f: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

const lastLines = (text: string, n = 40) => text.trimEnd().split("\n").slice(-n).join("\n")

/** A spawned process in a process group of its own (the worker forks its work horses into it). */
interface Child {
  readonly child: ChildProcess
  readonly stderr: () => string
  readonly output: () => string
}

const spawnChild = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, cwd: string): Child => {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  let err = ""
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString()
    out += chunk.toString()
  })
  return { child, stderr: () => err, output: () => out }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode)
    child.once("exit", (code) => resolve(code))
  })

const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

/** Runs a command of argilla_server to its end; fails with the end of its output. */
const runCommand = async (label: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, cwd: string) => {
  const proc = spawnChild(SERVER_PYTHON, ["-m", "argilla_server", ...args], env, cwd)
  const code = await exited(proc.child)
  if (code !== 0) throw new Error(`argilla-server ${label} failed (exit ${code}):\n${lastLines(proc.output())}`)
}

/** SIGTERM to the group, SIGKILL after a grace period. */
const stopChild = async (proc: Child) => {
  const done = exited(proc.child)
  killGroup(proc.child, "SIGTERM")
  const timer = setTimeout(() => killGroup(proc.child, "SIGKILL"), STOP_GRACE_MS)
  await done
  clearTimeout(timer)
  // The work horses and the scheduler may outlive the pool's process.
  killGroup(proc.child, "SIGKILL")
}

/** The ids of the server's datasets, for deleting their indices (empty if the server does not answer). */
const datasetIds = async (url: string, apiKey: string): Promise<ReadonlyArray<string>> => {
  try {
    const response = await fetch(`${url}/api/v1/me/datasets`, { headers: { "X-Argilla-Api-Key": apiKey }, signal: AbortSignal.timeout(10_000) })
    if (!response.ok) return []
    const body = (await response.json()) as { items?: ReadonlyArray<{ id: string }> }
    return (body.items ?? []).map((item) => item.id)
  } catch {
    return []
  }
}

export interface ArgillaServerOptions {
  readonly database: ArgillaDatabase
  /** The cluster it indexes into: the test Elasticsearch unless named. */
  readonly search?: { readonly engine: "elasticsearch" | "opensearch"; readonly url: string }
}

export const startArgillaServer = async (options: ArgillaServerOptions): Promise<ArgillaServer> => {
  const problem = argillaServerProblem({ sdk: false })
  if (problem !== undefined) throw new Error(`cannot start argilla-server: ${problem}`)

  const search = options.search ?? { engine: "elasticsearch", url: ELASTICSEARCH_URL }
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-argilla-"))
  const owner = { username: "owner", password: "owner-password-1", apiKey: `owner.${crypto.randomBytes(16).toString("hex")}` }
  const cleanups: Array<() => Promise<void>> = [async () => fs.rmSync(home, { recursive: true, force: true })]
  const children: Array<Child> = []
  const killAll = () => children.forEach((proc) => killGroup(proc.child, "SIGKILL"))
  process.once("exit", killAll)
  let url = ""

  const stop = async () => {
    process.removeListener("exit", killAll)
    if (url !== "") {
      const ids = await datasetIds(url, owner.apiKey)
      await Promise.all(ids.map((id) => fetch(`${search.url}/rg.${id}`, { method: "DELETE" }).catch(() => undefined)))
    }
    await Promise.all(children.map(stopChild))
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }

  try {
    const sqlitePath = path.join(home, "argilla.db")
    let databaseUrl = sqlitePath
    let argillaDatabaseUrl = `sqlite+aiosqlite:///${sqlitePath}`
    if (options.database === "postgresql") {
      const name = `argilla_${crypto.randomBytes(6).toString("hex")}`
      await withAdmin((client) => client.query(`create database ${name}`))
      cleanups.push(() => withAdmin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined))
      const plain = new URL(POSTGRES_URL)
      plain.pathname = `/${name}`
      databaseUrl = plain.href
      argillaDatabaseUrl = plain.href.replace(/^postgres(ql)?:/, "postgresql+asyncpg:")
    }
    const redisDb = await claimRedisDb()
    cleanups.push(() => releaseRedisDb(redisDb))

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      ARGILLA_HOME_PATH: home,
      ARGILLA_DATABASE_URL: argillaDatabaseUrl,
      ARGILLA_SEARCH_ENGINE: search.engine,
      ARGILLA_ELASTICSEARCH: search.url,
      ARGILLA_ELASTICSEARCH_SSL_VERIFY: process.env.GLOSS_TEST_SEARCH_SSL_VERIFY ?? "true",
      ARGILLA_REDIS_URL: `redis://${REDIS.host}:${REDIS.port}/${redisDb}`,
      // Telemetry off (Argilla 2.8.0 reads the Hub's variables; ARGILLA_ENABLE_TELEMETRY only warns it is deprecated).
      HF_HUB_OFFLINE: "1",
      HF_HUB_DISABLE_TELEMETRY: "1",
      PYTHONUNBUFFERED: "1",
      NO_COLOR: "1",
      COLUMNS: "200"
    }

    await runCommand("database migrate", ["database", "migrate"], env, home)
    await runCommand(
      "database users create",
      [
        "database", "users", "create", "--role", "owner", "--first-name", "Owner", "--username", owner.username,
        "--password", owner.password, "--api-key", owner.apiKey
      ],
      env,
      home
    )

    const port = await freePort()
    const server = spawnChild(SERVER_PYTHON, ["-m", "argilla_server", "start", "--host", "127.0.0.1", "--port", String(port)], env, home)
    children.push(server)
    const worker = spawnChild(SERVER_PYTHON, ["-m", "argilla_server", "worker", "--num-workers", "1"], env, home)
    children.push(worker)

    const base = `http://127.0.0.1:${port}`
    const until = Date.now() + START_TIMEOUT_MS
    for (;;) {
      for (const [label, proc] of [["server", server], ["worker", worker]] as const) {
        if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
          throw new Error(`argilla-server ${label} exited (${proc.child.exitCode ?? proc.child.signalCode}) while starting:\n${lastLines(proc.stderr())}`)
        }
      }
      // (Not /api/v1/status: on Elasticsearch, Argilla 2.8.0 answers it with a 422 it makes of the cluster's info.)
      const up = await fetch(`${base}/api/v1/me`, { headers: { "X-Argilla-Api-Key": owner.apiKey }, signal: AbortSignal.timeout(5000) })
        .then((response) => response.ok, () => false)
      if (up && (await redisWorkers(redisDb)) > 0) break
      if (Date.now() > until) {
        throw new Error(`argilla-server did not answer on ${base} within ${START_TIMEOUT_MS / 1000} s:\n${lastLines(server.output())}\n--- worker:\n${lastLines(worker.output(), 15)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    url = base

    return {
      url,
      ownerUsername: owner.username,
      ownerPassword: owner.password,
      ownerApiKey: owner.apiKey,
      database: options.database,
      databaseUrl,
      ...(options.database === "sqlite" ? { sqlitePath } : {}),
      output: () => `${server.output()}\n--- worker:\n${worker.output()}`,
      serverPid: server.child.pid ?? 0,
      stop
    }
  } catch (error) {
    await stop()
    throw error
  }
}

// --- The filler (test/support/argilla_fill.py) -------------------------------------------------------------------

export type ArgillaRole = "owner" | "admin" | "annotator"
export type ArgillaResponseStatus = "submitted" | "draft" | "discarded"

export interface ArgillaUser {
  readonly id: string
  readonly username: string
  readonly password: string
  readonly api_key: string
  readonly role: ArgillaRole
}

export interface ArgillaCounts {
  readonly records: number
  readonly responses: Readonly<Record<ArgillaResponseStatus, number>>
  /** Suggestion rows (one per record and question). */
  readonly suggestions: number
  /** Vector rows (one per record with a vector). */
  readonly vectors: number
  /** Records whose submitted responses reach the dataset's min_submitted (Argilla's status `completed`). */
  readonly completed: number
}

/** What `argilla_fill.py fill` made, as it prints it. */
export interface ArgillaFill {
  /** The owner first, then admin, annotator1, annotator2, annotator3. */
  readonly users: ReadonlyArray<ArgillaUser>
  /** team-one, team-two. */
  readonly workspaces: ReadonlyArray<{ readonly id: string; readonly name: string }>
  /** "everything" (in team-one), "second" (in team-two). */
  readonly datasets: ReadonlyArray<{
    readonly id: string
    readonly name: string
    /** The workspace's name. */
    readonly workspace: string
    readonly records: number
    readonly counts: ArgillaCounts
  }>
  readonly webhook: {
    readonly id: string
    readonly url: string
    readonly secret: string
    readonly events: ReadonlyArray<string>
    readonly enabled: boolean
  }
  /** Both datasets together. */
  readonly counts: ArgillaCounts
}

/** What `argilla_fill.py change` did, as it prints it. */
export interface ArgillaChange {
  /** External ids of the five records added. */
  readonly added_records: ReadonlyArray<string>
  readonly changed_response: {
    readonly id: string
    readonly record_id: string
    readonly external_id: string
    readonly user_id: string
    readonly status: { readonly from: "submitted"; readonly to: ArgillaResponseStatus }
    readonly label: { readonly from: string; readonly to: string }
  }
  readonly deleted_record: { readonly id: string; readonly external_id: string }
  readonly added_user: ArgillaUser
}

/** Filling 2 000 records takes about a minute on two busy cores (Argilla builds an event per record). */
const FILL_TIME_LIMIT_MS = 600_000

const runFill = (args: ReadonlyArray<string>) =>
  new Promise<unknown>((resolve, reject) => {
    const child = spawn(SDK_PYTHON, [FILL, ...args], {
      cwd: ROOT,
      env: { ...process.env, HF_HUB_OFFLINE: "1", HF_HUB_DISABLE_TELEMETRY: "1", PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    let err = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), FILL_TIME_LIMIT_MS)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      // The exception's own line first: a log that shortens the traceback keeps what went wrong.
      if (code !== 0) return reject(new Error(`argilla_fill.py ${args[0]} failed (${code ?? signal}): ${lastLines(err, 1)}\n${lastLines(err)}`))
      try {
        resolve(JSON.parse(out))
      } catch {
        reject(new Error(`argilla_fill.py ${args[0]} printed no JSON:\n${out.slice(0, 2000)}\n${lastLines(err)}`))
      }
    })
  })

/** Fills the server through the SDK: users, two workspaces, two datasets with `records` and `records / 4` records. */
export const fillArgilla = async (
  server: ArgillaServer,
  options: { readonly records: number; readonly seed?: number; readonly webhookUrl?: string }
): Promise<ArgillaFill> =>
  (await runFill([
    "fill", "--api-url", server.url, "--api-key", server.ownerApiKey, "--owner-password", server.ownerPassword,
    "--records", String(options.records),
    ...(options.seed === undefined ? [] : ["--seed", String(options.seed)]),
    ...(options.webhookUrl === undefined ? [] : ["--webhook-url", options.webhookUrl])
  ])) as ArgillaFill

/** What a re-sync must carry, in a dataset like fill's "everything": five records added, one response changed
 * (value and status), one record deleted, one user added. */
export const changeArgilla = async (server: ArgillaServer, datasetId: string): Promise<ArgillaChange> =>
  (await runFill(["change", "--api-url", server.url, "--api-key", server.ownerApiKey, "--dataset-id", datasetId])) as ArgillaChange
