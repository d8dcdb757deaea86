/**
 * Ingest 100 000 records through `PUT /datasets/{id}/records/bulk`, 500 per request, 4 concurrent senders, on SQLite
 * and on PostgreSQL, then send the same payloads again (every record exists: the update path). Beside each, the
 * ceiling measured in the same run: the same rows written straight through the database driver in 500-row
 * transactions. `GLOSS_BENCH_RECORDS` runs it smaller.
 */
import * as crypto from "node:crypto"
import * as path from "node:path"
import Sqlite from "better-sqlite3"
import pg from "pg"
import { SQLITE_PAGE_SIZE } from "../../src/services/database/Database.js"
import { api, benchDataset, benchRecord } from "../lib/http.js"
import { BENCH_API_KEY, startGloss, tempHome } from "../lib/processes.js"

const TOTAL = Number(process.env.GLOSS_BENCH_RECORDS ?? 100_000)
const BATCH = 500
const SENDERS = 4
const PG_URL = process.env.GLOSS_TEST_DATABASE_URL ?? "postgres://gloss:gloss@127.0.0.1:5432/gloss"

const throughHttp = async (env: Record<string, string>) => {
  const server = await startGloss(env)
  try {
    const call = api(server.url, BENCH_API_KEY)
    const datasetId = await benchDataset(call, `ingest-${Date.now()}`)
    // Bodies are built before the clock starts: the figure is the server's, not the load generator's.
    const bodies: Array<string> = []
    for (let from = 0; from < TOTAL; from += BATCH) {
      bodies.push(JSON.stringify({ items: Array.from({ length: Math.min(BATCH, TOTAL - from) }, (_, k) => benchRecord(from + k)) }))
    }
    const url = `${server.url}/api/v1/datasets/${datasetId}/records/bulk`
    const headers = { "content-type": "application/json", "x-gloss-api-key": BENCH_API_KEY }
    /** Seconds to send every body once, `SENDERS` at a time. */
    const pass = async () => {
      let next = 0
      const started = performance.now()
      const sender = async () => {
        for (let body = bodies[next++]; body !== undefined; body = bodies[next++]) {
          const response = await fetch(url, { method: "PUT", headers, body })
          await response.arrayBuffer()
          if (response.status !== 200) throw new Error(`bulk upsert answered ${response.status}`)
        }
      }
      await Promise.all(Array.from({ length: SENDERS }, sender))
      return (performance.now() - started) / 1000
    }
    const seconds = await pass()
    const updateSeconds = await pass()
    const stored = await call("GET", `/datasets/${datasetId}/records?limit=1`) as { total: number }
    if (stored.total !== TOTAL) throw new Error(`expected ${TOTAL} records, found ${stored.total}`)
    return {
      recordsPerSecond: Math.round(TOTAL / seconds),
      seconds: Number(seconds.toFixed(1)),
      updatesPerSecond: Math.round(TOTAL / updateSeconds),
      updateSeconds: Number(updateSeconds.toFixed(1)),
      peakRssMB: Math.round(server.peakRss() / 2 ** 20)
    }
  } finally {
    await server.stop()
  }
}

/** The ceiling: rows as Gloss stores them, inserted by the driver in 500-row transactions, nothing else. */
const rowsFor = (datasetId: string, from: number, count: number) => {
  const at = new Date().toISOString()
  return Array.from({ length: count }, (_, k) => {
    const record = benchRecord(from + k)
    return [crypto.randomUUID(), datasetId, record.external_id, JSON.stringify(record.fields), JSON.stringify(record.metadata), "pending", at, at]
  })
}
const DDL = (uuid: string, json: string, ts: string) =>
  `create table records (id ${uuid} primary key, dataset_id ${uuid} not null, external_id text, fields ${json} not null,
   metadata ${json}, status text not null, inserted_at ${ts} not null, updated_at ${ts} not null, unique (dataset_id, external_id))`

const sqliteCeiling = () => {
  const db = new Sqlite(path.join(tempHome(), "ceiling.db"))
  // The file as Gloss makes it (see Database.ts): the same page size, the write-ahead log, synchronous NORMAL.
  db.pragma(`page_size = ${SQLITE_PAGE_SIZE}`)
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = NORMAL")
  db.exec(DDL("text", "text", "text"))
  const datasetId = crypto.randomUUID()
  const placeholders = `(${Array(8).fill("?").join(",")})`
  const started = performance.now()
  for (let from = 0; from < TOTAL; from += BATCH) {
    const rows = rowsFor(datasetId, from, Math.min(BATCH, TOTAL - from))
    const insert = db.prepare(`insert into records values ${rows.map(() => placeholders).join(",")}`)
    db.transaction(() => insert.run(...rows.flat()))()
  }
  const seconds = (performance.now() - started) / 1000
  db.close()
  return { rowsPerSecond: Math.round(TOTAL / seconds) }
}

const postgresCeiling = async (url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(DDL("uuid", "jsonb", "timestamptz"))
    const datasetId = crypto.randomUUID()
    const started = performance.now()
    for (let from = 0; from < TOTAL; from += BATCH) {
      const rows = rowsFor(datasetId, from, Math.min(BATCH, TOTAL - from))
      const values = rows.map((_, r) => `(${Array.from({ length: 8 }, (_, c) => `$${r * 8 + c + 1}`).join(",")})`).join(",")
      await client.query("begin")
      await client.query(`insert into records values ${values}`, rows.flat())
      await client.query("commit")
    }
    return { rowsPerSecond: Math.round(TOTAL / ((performance.now() - started) / 1000)) }
  } finally {
    await client.end()
  }
}

/** A fresh PostgreSQL database for one measurement, dropped afterwards. */
export const withPostgres = async <A>(run: (url: string) => Promise<A>): Promise<A | { skipped: string }> => {
  const admin = new pg.Client({ connectionString: PG_URL })
  try {
    await admin.connect()
  } catch (error) {
    return { skipped: `PostgreSQL unreachable at ${PG_URL}: ${error instanceof Error ? error.message : String(error)}` }
  }
  const name = `gloss_bench_${crypto.randomBytes(4).toString("hex")}`
  await admin.query(`create database ${name}`)
  try {
    const url = new URL(PG_URL)
    url.pathname = `/${name}`
    return await run(url.href)
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
}

const ratio = (gloss: { recordsPerSecond: number }, ceiling: { rowsPerSecond: number }) =>
  Number((gloss.recordsPerSecond / ceiling.rowsPerSecond).toFixed(2))

export const ingestSuite = async () => {
  const sqlite = await throughHttp({})
  const sqliteDriver = sqliteCeiling()
  const postgres = await withPostgres((url) => throughHttp({ GLOSS_DATABASE_URL: url }))
  const postgresDriver = await withPostgres(postgresCeiling)
  return {
    name: `PUT /datasets/{id}/records/bulk: ${TOTAL} records, ${BATCH} per request, ${SENDERS} senders`,
    sqlite: { gloss: sqlite, driverCeiling: sqliteDriver, ratio: ratio(sqlite, sqliteDriver) },
    postgres: "skipped" in postgres || "skipped" in postgresDriver
      ? { skipped: "skipped" in postgres ? postgres.skipped : "ceiling skipped" }
      : { gloss: postgres, driverCeiling: postgresDriver, ratio: ratio(postgres, postgresDriver) },
    targets: "≥ 10 000 records/s on SQLite, ≥ 5 000 on PostgreSQL, peak RSS < 400 MB",
    meetsTargets: sqlite.recordsPerSecond >= 10_000 && sqlite.peakRssMB < 400 &&
      ("skipped" in postgres || (postgres.recordsPerSecond >= 5_000 && postgres.peakRssMB < 400))
  }
}
