/**
 * `npm run bench -- migrate [--records N]`: `gloss migrate from-argilla` on an Argilla 2.8 deployment of N records
 * (default 100 000) and of a tenth of that, so that the two peaks of memory say whether it grows with the dataset
 * (it should follow `--batch-size`, not N).
 *
 * The Argilla database is made without Argilla's API (its SDK would take most of an hour for 100 000 records): an
 * empty SQLite file gets Argilla's own schema from `python -m argilla_server database migrate` (the venv
 * scripts/argilla-server.sh installs), then its tables are filled here in one transaction, in the formats Argilla
 * writes: UUIDs as 32 lowercase hex digits, naive UTC timestamps as `YYYY-MM-DD HH:MM:SS.ffffff`, JSON as text with
 * Python's separators, enums by name. One owner and three annotators (bcrypt hashes), one workspace, one published
 * dataset (two text fields, a label and a rating question, a metadata property, 16-dimension vector settings), and
 * per record its fields, metadata, external id, about two responses (submitted, draft and discarded), a suggestion
 * and a vector.
 *
 * Each run is the command as an operator runs it, in its own process, into a fresh Gloss home: from the database
 * file into SQLite, into PostgreSQL (a database of its own), and from the REST API of an argilla-server started on
 * the same file (with the owner's API key). Each is timed from spawn to exit (records/s = records / wall time), with
 * the process's peak RSS (VmHWM) and whether it printed its verification's "Argilla and Gloss hold the same data.";
 * then run again with nothing changed (the re-sync). A database run that fails stops the suite; an API run that
 * fails reports `{ "skipped": "<the command's error>" }`.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import Sqlite from "better-sqlite3"
import bcrypt from "bcryptjs"
import type { SuiteOptions } from "../run.js"
import { text } from "../lib/http.js"
import { vector } from "../lib/latency.js"
import { ROOT, tempHome } from "../lib/processes.js"
import { withPostgres } from "./ingest.js"

const DEFAULT_RECORDS = 100_000
const DIMENSIONS = 16
/** The command's default `--batch-size`: records per transaction, what its memory should follow. */
const BATCH_SIZE = 1000
/** The target: records per second from Argilla's database into Gloss. */
const TARGET_RECORDS_PER_SECOND = 2000
const VERIFIED = "Argilla and Gloss hold the same data."
const MB = 2 ** 20

const ARGILLA_PYTHON = path.join(ROOT, ".venv-argilla-server/bin/python")
/** Elasticsearch 8.5: OpenSearch 2.19 refuses the vector mappings Argilla 2.8 asks for. Reading records needs no index. */
const ARGILLA_ELASTICSEARCH = process.env.GLOSS_BENCH_ARGILLA_ELASTICSEARCH ?? "http://127.0.0.1:9202"
const ARGILLA_REDIS = process.env.GLOSS_BENCH_ARGILLA_REDIS ?? "redis://127.0.0.1:6379/13"

const recordsOf = (options: SuiteOptions) => {
  const asked = Number.parseInt(options["records"] ?? process.env.GLOSS_BENCH_RECORDS ?? "", 10)
  return Number.isFinite(asked) && asked > 0 ? asked : DEFAULT_RECORDS
}

// ---- Argilla's formats --------------------------------------------------------------------------------------

/** A UUID as SQLAlchemy stores it on SQLite. */
const uuid = () => crypto.randomUUID().replaceAll("-", "")

/** A naive UTC timestamp `YYYY-MM-DD HH:MM:SS.ffffff`, `micros` microseconds after `base` (milliseconds). */
const stampOf = (base: number) => (micros: number) => {
  const iso = new Date(base + Math.floor(micros / 1000)).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}${String(micros % 1000).padStart(3, "0")}`
}

/** JSON as Python's `json.dumps` writes it (what Argilla stores): `", "` and `": "` separators, ASCII only. */
const pyJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(pyJson).join(", ")}]`
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([key, item]) => `${pyJson(key)}: ${pyJson(item)}`).join(", ")}}`
  }
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
}

/** A float as Python writes it: `0.0`, not `0` (a JSON column on SQLite then holds a REAL, as Argilla's do). */
const pyFloat = (value: number) => (Number.isInteger(value) ? value.toFixed(1) : String(value))

// ---- The Argilla deployment ---------------------------------------------------------------------------------

interface Deployment {
  readonly dir: string
  readonly file: string
  readonly ownerApiKey: string
  readonly counts: { readonly records: number; readonly responses: Readonly<Record<string, number>>; readonly suggestions: number; readonly vectors: number }
  readonly fillSeconds: number
  readonly databaseMB: number
}

const LABELS = ["positive", "negative", "neutral"] as const
const SOURCES = ["web", "book", "forum", "chat"] as const

/** `python -m argilla_server <args>` in `dir`, on the SQLite file there; resolves when it exits 0. */
const argillaEnv = (dir: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? "",
  HOME: dir,
  ARGILLA_HOME_PATH: dir,
  ARGILLA_DATABASE_URL: `sqlite+aiosqlite:///${path.join(dir, "argilla.db")}`,
  ARGILLA_SEARCH_ENGINE: "elasticsearch",
  ARGILLA_ELASTICSEARCH: ARGILLA_ELASTICSEARCH,
  ARGILLA_REDIS_URL: ARGILLA_REDIS,
  HF_HUB_OFFLINE: "1",
  HF_HUB_DISABLE_TELEMETRY: "1",
  PYTHONUNBUFFERED: "1",
  NO_COLOR: "1"
})

const argillaCommand = (dir: string, args: ReadonlyArray<string>) =>
  new Promise<void>((resolve, reject) => {
    if (!fs.existsSync(ARGILLA_PYTHON)) {
      reject(new Error(`no ${path.relative(ROOT, ARGILLA_PYTHON)}: run scripts/argilla-server.sh`))
      return
    }
    const child = spawn(ARGILLA_PYTHON, ["-m", "argilla_server", ...args], { cwd: dir, env: argillaEnv(dir) })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.once("error", reject)
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`argilla_server ${args.join(" ")} exited with ${code}:\n${output.slice(-3000)}`))
    )
  })

/**
 * An Argilla 2.8 database of `total` records: Argilla's schema, then its rows written straight into its tables in
 * one transaction.
 */
export const makeArgillaDatabase = async (total: number): Promise<Deployment> => {
  const started = performance.now()
  const dir = tempHome()
  const file = path.join(dir, "argilla.db")
  await argillaCommand(dir, ["database", "migrate"])

  // Two days ago, so that a re-sync's window (the last run's watermark less a few minutes) holds no record.
  const stamp = stampOf(Date.now() - 2 * 86_400_000)
  const ownerApiKey = crypto.randomBytes(64).toString("base64url")
  const db = new Sqlite(file)
  const counts = { records: 0, responses: { submitted: 0, draft: 0, discarded: 0 } as Record<string, number>, suggestions: 0, vectors: 0 }
  try {
    db.pragma("journal_mode = wal")
    const insert = (table: string, columns: ReadonlyArray<string>) =>
      db.prepare(`insert into ${table} (${columns.map((c) => `"${c}"`).join(", ")}) values (${columns.map(() => "?").join(", ")})`)
    const users = insert("users", ["id", "first_name", "last_name", "username", "role", "api_key", "password_hash", "inserted_at", "updated_at"])
    const workspaces = insert("workspaces", ["id", "name", "inserted_at", "updated_at"])
    const members = insert("workspaces_users", ["id", "workspace_id", "user_id", "inserted_at", "updated_at"])
    const datasets = insert("datasets", [
      "id", "name", "guidelines", "status", "workspace_id", "inserted_at", "updated_at", "allow_extra_metadata", "last_activity_at", "distribution", "metadata"
    ])
    const touchDataset = db.prepare("update datasets set updated_at = ?, last_activity_at = ? where id = ?")
    const fields = insert("fields", ["id", "name", "title", "required", "settings", "dataset_id", "inserted_at", "updated_at"])
    const questions = insert("questions", ["id", "name", "title", "description", "required", "settings", "dataset_id", "inserted_at", "updated_at"])
    const properties = insert("metadata_properties", ["id", "name", "title", "settings", "allowed_roles", "dataset_id", "inserted_at", "updated_at"])
    const vectorSettings = insert("vectors_settings", ["name", "title", "dimensions", "dataset_id", "id", "inserted_at", "updated_at"])
    const datasetUsers = insert("datasets_users", ["dataset_id", "user_id", "inserted_at", "updated_at"])
    const records = insert("records", ["id", "fields", "external_id", "dataset_id", "inserted_at", "updated_at", "metadata", "status"])
    const responses = insert("responses", ["id", "values", "status", "record_id", "user_id", "inserted_at", "updated_at"])
    const suggestions = insert("suggestions", ["id", "value", "score", "agent", "type", "record_id", "question_id", "inserted_at", "updated_at"])
    const vectors = insert("vectors", ["value", "record_id", "vector_settings_id", "id", "inserted_at", "updated_at"])

    // bcrypt at Argilla's cost (12) before the transaction: a few hundred milliseconds each.
    const people = [
      { username: "owner", first: "Owner", last: null, role: "owner", apiKey: ownerApiKey },
      ...[1, 2, 3].map((n) => ({ username: `annotator${n}`, first: `Annotator${n}`, last: "Bench", role: "annotator", apiKey: crypto.randomBytes(64).toString("base64url") }))
    ].map((person) => ({ ...person, id: uuid(), hash: bcrypt.hashSync(`${person.username}-password`, 12) }))
    const annotators = people.slice(1)

    db.transaction(() => {
      let at = 0
      const next = () => stamp(at += 1000)
      for (const person of people) {
        const when = next()
        users.run(person.id, person.first, person.last, person.username, person.role, person.apiKey, person.hash, when, when)
      }
      const workspaceId = uuid()
      const created = next()
      workspaces.run(workspaceId, "bench", created, created)
      for (const annotator of annotators) {
        const when = next()
        members.run(uuid(), workspaceId, annotator.id, when, when)
      }
      const datasetId = uuid()
      // Its updated_at and last_activity_at move to the last record's time once the records are in.
      datasets.run(datasetId, "migrate-bench", "Read the title and the body, then answer.", "ready", workspaceId, created, created, 0, created,
        pyJson({ strategy: "overlap", min_submitted: 1 }), pyJson(null))
      const settingsAt = next()
      const setting = () => [datasetId, settingsAt, settingsAt] as const
      fields.run(uuid(), "title", "Title", 1, pyJson({ type: "text", use_markdown: false }), ...setting())
      fields.run(uuid(), "body", "Body", 0, pyJson({ type: "text", use_markdown: true }), ...setting())
      const labelId = uuid()
      questions.run(labelId, "label", "Sentiment", "The overall feeling.", 1, pyJson({
        type: "label_selection",
        options: LABELS.map((value) => ({ value, text: value, description: null })),
        visible_options: LABELS.length
      }), ...setting())
      questions.run(uuid(), "rating", "Quality", null, 0, pyJson({ type: "rating", options: [1, 2, 3, 4, 5].map((value) => ({ value })) }), ...setting())
      properties.run(uuid(), "source", "Source", pyJson({ type: "terms", values: SOURCES }), pyJson(["admin", "annotator"]), ...setting())
      const vectorSettingsId = uuid()
      vectorSettings.run("embedding", "Embedding", DIMENSIONS, datasetId, vectorSettingsId, settingsAt, settingsAt)

      const recordsAt = at + 1000
      for (let i = 0; i < total; i++) {
        const recordId = uuid()
        // One record a millisecond: distinct times, as Argilla's bulk inserts write them (its API pages by them).
        const inserted = stamp(recordsAt + i * 1000)
        const answered = stamp(recordsAt + i * 1000 + 500)
        // About two responses a record: one, two or three of the annotators, in turn.
        const many = i % 10 === 0 ? 1 : i % 10 === 5 ? 3 : 2
        let submitted = 0
        const answers = Array.from({ length: many }, (_, k) => {
          const status = (i + k) % 5 === 3 ? "draft" : (i + k) % 5 === 4 ? "discarded" : "submitted"
          if (status === "submitted") submitted++
          const values = status === "discarded" && i % 2 === 0
            ? null
            : status === "draft"
            ? { label: { value: LABELS[(i + k) % 3] } }
            : { label: { value: LABELS[(i + k) % 3] }, rating: { value: 1 + ((i + k) % 5) } }
          return { user: annotators[(i + k) % annotators.length]?.id ?? "", status, values }
        })
        // min_submitted is 1: a record with a submitted response is completed.
        const status = submitted >= 1 ? "completed" : "pending"
        records.run(
          recordId,
          pyJson({ title: text(i, 120), body: text(i + 7_919, 300) }),
          `rec-${i}`,
          datasetId,
          inserted,
          status === "completed" ? answered : inserted,
          pyJson({ source: SOURCES[i % SOURCES.length] }),
          status
        )
        for (const answer of answers) {
          responses.run(uuid(), answer.values === null ? null : pyJson(answer.values), answer.status, recordId, answer.user, answered, answered)
          counts.responses[answer.status] = (counts.responses[answer.status] ?? 0) + 1
        }
        suggestions.run(uuid(), pyJson(LABELS[i % 3]), pyFloat((i % 1000) / 1000), "bench-model", "model", recordId, labelId, inserted, inserted)
        vectors.run(`[${vector(i, DIMENSIONS).map(pyFloat).join(", ")}]`, recordId, vectorSettingsId, uuid(), inserted, inserted)
        counts.records++
        counts.suggestions++
        counts.vectors++
      }
      const last = stamp(recordsAt + total * 1000)
      touchDataset.run(last, last, datasetId)
      // Argilla adds a dataset's user on their first response in it.
      for (const annotator of annotators) datasetUsers.run(datasetId, annotator.id, settingsAt, settingsAt)
    })()
    db.pragma("wal_checkpoint(TRUNCATE)")
  } finally {
    db.close()
  }
  return {
    dir,
    file,
    ownerApiKey,
    counts,
    fillSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    databaseMB: Math.round(fs.statSync(file).size / MB)
  }
}

// ---- Runs of `gloss migrate from-argilla` -------------------------------------------------------------------

/**
 * `node <flags> <bundle>`, as `npm start` runs Gloss (its node flags, read from package.json), with the bundle
 * `npm run bench` built or GLOSS_BENCH_SERVER's.
 */
const glossCommand = (): Array<string> => {
  const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>
  const args = (scripts.start ?? "").replace(/^exec\s+/, "").split(/\s+/).slice(1)
  const bundleAt = args.findIndex((arg) => arg.endsWith("dist/gloss.mjs"))
  if (bundleAt < 0) throw new Error(`the start script must run dist/gloss.mjs, found: ${scripts.start}`)
  return [...args.slice(0, bundleAt), process.env.GLOSS_BENCH_SERVER ?? path.join(ROOT, "dist/gloss.mjs")]
}

/** The peak RSS (VmHWM: the kernel's high-water mark) of a process, in bytes; 0 once it is gone. */
const highWaterMark = (pid: number) => {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kb === undefined ? 0 : Number(kb) * 1024
  } catch {
    return 0
  }
}

interface Run {
  readonly seconds: number
  readonly recordsPerSecond: number
  readonly peakRssMB: number
  readonly verified: boolean
}

/** One `gloss migrate from-argilla` to its end: wall time, peak RSS, and whether it verified the copy. */
const migrateOnce = (records: number, args: ReadonlyArray<string>, env: Record<string, string>, cwd: string) =>
  new Promise<Run | { readonly failed: string }>((resolve, reject) => {
    const started = performance.now()
    const child: ChildProcess = spawn(process.execPath, [...glossCommand(), "migrate", "from-argilla", ...args], {
      cwd,
      env: { ...process.env, GLOSS_AUTH_SECRET_KEY: "bench-secret", ...env }
    })
    let peak = 0
    // VmHWM only grows: a sample any time after the peak holds it, so 50 ms between samples loses nothing but a
    // peak in the last 50 ms of the run.
    const sampler = setInterval(() => (peak = Math.max(peak, highWaterMark(child.pid ?? 0))), 50)
    let stdout = ""
    let stderr = ""
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
      if (stderr.length > 200_000) stderr = stderr.slice(-100_000)
    })
    child.once("error", reject)
    child.once("exit", (code) => {
      clearInterval(sampler)
      const seconds = (performance.now() - started) / 1000
      if (code !== 0) {
        const said = `${stderr}\n${stdout}`.trim().split("\n").filter((line) => !/^\S.*: \d+\/\d+ records$/.test(line))
        resolve({ failed: `exit ${code}: ${said.slice(-8).join("\n")}` })
        return
      }
      resolve({
        seconds: Number(seconds.toFixed(1)),
        recordsPerSecond: Math.round(records / seconds),
        peakRssMB: Math.round(peak / MB),
        verified: stdout.includes(VERIFIED)
      })
    })
  })

/** A first run into an empty Gloss, then a re-sync with nothing changed. */
const firstAndResync = async (records: number, args: ReadonlyArray<string>, env: Record<string, string>) => {
  const home = tempHome()
  const all = { GLOSS_HOME_PATH: home, ...env }
  const first = await migrateOnce(records, args, all, home)
  if ("failed" in first) return first
  const resync = await migrateOnce(records, args, all, home)
  if ("failed" in resync) return resync
  return { first, resync }
}

const mustSucceed = <A>(what: string, run: A | { readonly failed: string }): A => {
  if (typeof run === "object" && run !== null && "failed" in run) throw new Error(`gloss migrate from-argilla ${what} failed: ${run.failed}`)
  return run
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

/** argilla-server on the deployment's file, until `run` is done; `{ skipped }` when it does not start. */
const withArgillaServer = async <A>(
  deployment: Deployment,
  run: (url: string, server: () => string) => Promise<A>
): Promise<A | { skipped: string }> => {
  if (!fs.existsSync(ARGILLA_PYTHON)) return { skipped: `no ${path.relative(ROOT, ARGILLA_PYTHON)}: run scripts/argilla-server.sh` }
  const port = await freePort()
  const child = spawn(ARGILLA_PYTHON, ["-m", "argilla_server", "start", "--host", "127.0.0.1", "--port", String(port), "--no-access-log"], {
    cwd: deployment.dir,
    env: argillaEnv(deployment.dir),
    detached: true
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)))
  child.stderr.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    try {
      process.kill(-(child.pid ?? 0), "SIGTERM")
    } catch {
      return
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL")
      } catch {
        // Gone meanwhile.
      }
    }, 10_000)
    await exited
    clearTimeout(killer)
  }
  const url = `http://127.0.0.1:${port}`
  try {
    const until = Date.now() + 180_000
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) return { skipped: `argilla-server exited while starting:\n${output.slice(-2000)}` }
      const up = await fetch(`${url}/api/v1/me`, { headers: { "X-Argilla-Api-Key": deployment.ownerApiKey }, signal: AbortSignal.timeout(5000) })
        .then((answer) => answer.ok, () => false)
      if (up) break
      if (Date.now() > until) return { skipped: `argilla-server did not answer on ${url} within 180 s:\n${output.slice(-2000)}` }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    // What became of the server, for a run that failed on it.
    const server = () =>
      child.exitCode !== null || child.signalCode !== null
        ? `argilla-server exited (${child.exitCode ?? child.signalCode}):\n${output.slice(-2000)}`
        : "argilla-server was still running"
    return await run(url, server)
  } finally {
    await stop()
  }
}

/** Every way at one size: the database into SQLite and PostgreSQL, the REST API into SQLite. */
const atSize = async (records: number) => {
  const deployment = await makeArgillaDatabase(records)
  const fromFile = ["--argilla-database-url", deployment.file]
  const sqlite = mustSucceed("from the database into SQLite", await firstAndResync(records, fromFile, {}))
  const postgres = await withPostgres(async (url) =>
    mustSucceed("from the database into PostgreSQL", await firstAndResync(records, fromFile, { GLOSS_DATABASE_URL: url }))
  )
  const api = await withArgillaServer(deployment, async (url, server) => {
    const run = await firstAndResync(
      records,
      ["--argilla-api-url", url, "--passwords-file", path.join(deployment.dir, "passwords.txt")],
      { ARGILLA_API_KEY: deployment.ownerApiKey }
    )
    return "failed" in run ? { skipped: `${run.failed}\n${server()}` } : run
  })
  fs.rmSync(deployment.dir, { recursive: true, force: true })
  return {
    records,
    argilla: { ...deployment.counts, databaseMB: deployment.databaseMB, fillSeconds: deployment.fillSeconds },
    database: { sqlite, postgres },
    api
  }
}

type Size = Awaited<ReturnType<typeof atSize>>

/** The peak RSS of the first runs at each size, and the large one over the small one (1 = flat). */
const memory = (small: Size, large: Size) => {
  const peaks = (pick: (size: Size) => unknown) => {
    const [a, b] = [pick(small), pick(large)] as Array<{ first?: Run } | undefined>
    if (a?.first === undefined || b?.first === undefined) return { skipped: "a run was skipped" }
    return {
      [String(small.records)]: a.first.peakRssMB,
      [String(large.records)]: b.first.peakRssMB,
      growth: Number((b.first.peakRssMB / a.first.peakRssMB).toFixed(2))
    }
  }
  return {
    databaseToSqlite: peaks((size) => size.database.sqlite),
    databaseToPostgres: peaks((size) => size.database.postgres),
    apiToSqlite: peaks((size) => size.api)
  }
}

export const migrateSuite = async (options: SuiteOptions) => {
  const total = recordsOf(options)
  const small = await atSize(Math.max(1, Math.round(total / 10)))
  const large = await atSize(total)
  const rates = [large.database.sqlite.first, "skipped" in large.database.postgres ? undefined : large.database.postgres.first]
    .filter((run): run is Run => run !== undefined)
  return {
    records: total,
    batchSize: BATCH_SIZE,
    vectorDimensions: DIMENSIONS,
    target: { databaseRecordsPerSecond: TARGET_RECORDS_PER_SECOND },
    meetsTarget: rates.every((run) => run.recordsPerSecond >= TARGET_RECORDS_PER_SECOND),
    verified: [small, large].every((size) =>
      [size.database.sqlite, size.database.postgres, size.api].every((way) =>
        "skipped" in way || (way.first.verified && way.resync.verified)
      )
    ),
    peakRssMB: memory(small, large),
    sizes: [small, large]
  }
}
