/**
 * Search over 100 000 records: a text query with two metadata filters (limit 50) at 8 concurrent clients, and a
 * vector query over 100 000 vectors of 384 dimensions (1 client for latency, 8 for throughput). On SQLite and on
 * PostgreSQL with the built-in engine; beside each, the raw ceiling of the same query run straight on the
 * database (and, for vectors, the same exact scan in plain JavaScript), measured in the same run.
 */
import * as crypto from "node:crypto"
import * as path from "node:path"
import Sqlite from "better-sqlite3"
import pg from "pg"
import { measureLatency, vector } from "../lib/latency.js"
import { BENCH_API_KEY, startGloss, tempHome } from "../lib/processes.js"
import { QUERY_WORDS } from "../lib/corpus.js"
import { createSearchDataset, DIMENSIONS, searchRecord, sendBulk, textBody } from "../lib/searchDataset.js"
import { normalise, topK } from "../../src/services/search/vectors/math.js"

const TOTAL = Number(process.env.GLOSS_BENCH_SEARCH_RECORDS ?? 100_000)
const SECONDS = 10
const PG_URL = process.env.GLOSS_TEST_DATABASE_URL ?? "postgres://gloss:gloss@127.0.0.1:5432/gloss"

const load = async (baseUrl: string) => {
  const dataset = await createSearchDataset(baseUrl, `search-${Date.now()}`)
  const bodies: Array<string> = []
  for (let from = 0; from < TOTAL; from += 500) {
    const items = Array.from({ length: Math.min(500, TOTAL - from) }, (_, k) => searchRecord(from + k, vector))
    bodies.push(JSON.stringify({ items }))
  }
  await sendBulk(baseUrl, dataset.id, bodies)
  return dataset.id
}

const throughGloss = async (env: Record<string, string>) => {
  const server = await startGloss(env)
  try {
    const datasetId = await load(server.url)
    const search = (body: unknown) => async () => {
      const response = await fetch(`${server.url}/api/v1/datasets/${datasetId}/records/search?limit=50`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-gloss-api-key": BENCH_API_KEY },
        body: JSON.stringify(body)
      })
      await response.arrayBuffer()
      if (!response.ok) throw new Error(`search answered ${response.status}`)
    }
    const byText = (i: number) => search(textBody(i))()
    const byVector = (i: number) => search({ query: { vector: { name: "emb", value: vector(TOTAL + i, DIMENSIONS) } } })()
    await byVector(0) // loads the vectors into memory
    await measureLatency(8, 2, byText) // warm-up
    const textFilters = await measureLatency(8, SECONDS, byText)
    const vectorOne = await measureLatency(1, SECONDS, byVector)
    const vectorEight = await measureLatency(8, SECONDS, byVector)
    return {
      textAndTwoFilters: textFilters,
      vector: { oneClient: vectorOne.latencyMs, eightClients: { requestsPerSecond: vectorEight.requestsPerSecond } },
      peakRssMB: Math.round(server.peakRss() / 2 ** 20),
      datasetId
    }
  } finally {
    await server.stop()
  }
}

/**
 * The same text query straight on SQLite's FTS5 table — the page and the total in one statement, as Gloss runs it —
 * with the same memory map, from one client.
 */
const sqliteCeiling = (file: string, datasetId: string) => {
  const db = new Sqlite(file, { readonly: true })
  db.pragma("mmap_size = 1073741824")
  const fts = `fts_${datasetId.replaceAll("-", "")}`
  const statement = db.prepare(`select r.id, m.score, count(*) over () as total
    from (select rowid as record_rowid, -bm25(${fts}) as score from ${fts} where ${fts} match ?) m
    join records r on r.rowid = m.record_rowid
    where r.dataset_id = ? and exists (select 1 from json_each(r.metadata, '$."source"') j where j.value in ('web', 'forum'))
    and json_extract(r.metadata, '$."stars"') between 2 and 4 order by m.score desc limit 50`)
  const latencies: Array<number> = []
  for (let i = 0; i < 300; i++) {
    const t = performance.now()
    statement.all(`"${QUERY_WORDS[i % QUERY_WORDS.length]}"`, datasetId)
    latencies.push(performance.now() - t)
  }
  db.close()
  latencies.sort((a, b) => a - b)
  return { p50: round(latencies[150] ?? 0), p99: round(latencies[297] ?? 0) }
}

const round = (ms: number) => Math.round(ms * 10) / 10

/** The vector query with no server around it: the same exact scan over the same vectors, in this process. */
const vectorCeiling = () => {
  const data = new Float32Array(TOTAL * DIMENSIONS)
  const ids = Array.from({ length: TOTAL }, (_, i) => {
    normalise(vector(i, DIMENSIONS), data, i * DIMENSIONS)
    return `r${i}`
  })
  const latencies: Array<number> = []
  for (let q = 0; q < 50; q++) {
    const t = performance.now()
    topK({ ids, dimensions: DIMENSIONS, data }, vector(TOTAL + q, DIMENSIONS), 50, { least: false })
    latencies.push(performance.now() - t)
  }
  latencies.sort((a, b) => a - b)
  return { p50: round(latencies[25] ?? 0), p99: round(latencies[49] ?? 0) }
}

const postgresCeiling = async (url: string, datasetId: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const latencies: Array<number> = []
  for (let i = 0; i < 100; i++) {
    const t = performance.now()
    await client.query(`select m.record_id, m.score, count(*) over () as total from (select t.record_id,
      max(ts_rank(t.tsv, q)) as score from record_texts t, plainto_tsquery('simple', $1) q
      where t.dataset_id = $2 and t.tsv @@ q group by t.record_id) m join records r on r.id = m.record_id
      where (r.metadata -> 'source') @> any(array['"web"'::jsonb, '"forum"'::jsonb])
      and (r.metadata ->> 'stars')::numeric between 2 and 4 order by m.score desc limit 50`,
      [QUERY_WORDS[i % QUERY_WORDS.length], datasetId])
    latencies.push(performance.now() - t)
  }
  await client.end()
  latencies.sort((a, b) => a - b)
  return { p50: round(latencies[50] ?? 0), p99: round(latencies[98] ?? 0) }
}

export const searchSuite = async () => {
  const home = tempHome()
  const sqlite = await throughGloss({ GLOSS_HOME_PATH: home })
  const sqliteRaw = sqliteCeiling(path.join(home, "gloss.db"), sqlite.datasetId)
  let postgres: unknown = { skipped: `PostgreSQL unreachable at ${PG_URL}` }
  const admin = new pg.Client({ connectionString: PG_URL })
  const reachable = await admin.connect().then(() => true, () => false)
  if (reachable) {
    const name = `gloss_bench_${crypto.randomBytes(4).toString("hex")}`
    await admin.query(`create database ${name}`)
    try {
      const url = new URL(PG_URL)
      url.pathname = `/${name}`
      const result = await throughGloss({ GLOSS_DATABASE_URL: url.href })
      postgres = { gloss: result, rawTextQuery: await postgresCeiling(url.href, result.datasetId) }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    }
  }
  const vectorRaw = vectorCeiling()
  return {
    name: `search over ${TOTAL} records (text + 2 metadata filters, limit 50; vectors of ${DIMENSIONS} dimensions)`,
    corpus: "Zipf-distributed words (bench/lib/corpus.ts); queries cycle through one word of each of five frequency bands",
    queryWords: QUERY_WORDS,
    sqlite: { gloss: sqlite, rawTextQuery: sqliteRaw },
    postgres,
    rawVectorScanInJs: vectorRaw,
    targets: "text+filters p99 ≤ 150 ms at 8 clients; vector p99 ≤ 100 ms with 1 client",
    meetsTargets: sqlite.textAndTwoFilters.latencyMs.p99 <= 150 && sqlite.vector.oneClient.p99 <= 100
  }
}
