/**
 * The built-in engine's ANN vector index (services/search/database/AnnIndex.ts), with GLOSS_VECTOR_ANN_FROM set low so
 * that a few thousand vectors go through it: answers match the exact ones (scores exactly, candidates nearly all),
 * least_similar too, filters return `limit` records when enough match, writes and deletions are seen by the next
 * search, and a restart loads the saved index and catches up with writes made meanwhile by another process (rows
 * written straight into the database), while a corrupted file is rebuilt. On SQLite and PostgreSQL.
 */
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import Sqlite from "better-sqlite3"
import type { HttpClient } from "@effect/platform"
import { Effect } from "effect"
import pg from "pg"
import { dialects, freshDatabase } from "../support/databases.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { TestServer, TestServerOn, testServerEnv } from "../support/server.js"
import { cosine, seededRandom } from "../support/vectors.js"

const DIMENSIONS = 16
const COUNT = 2_000

const next = seededRandom(7)
const centers = Array.from({ length: 20 }, () => Array.from({ length: DIMENSIONS }, () => next() * 2 - 1))
const near = (center: ReadonlyArray<number>) => center.map((x) => x + (next() - 0.5) * 0.6)
const corpus = Array.from({ length: COUNT }, (_, i) => ({
  external_id: `r${i}`,
  vector: near(centers[i % centers.length]!),
  // `group` is a filter allowing a third; `rare` allows five records.
  metadata: { group: i % 3 === 0 ? "third" : "rest", rare: i % 400 === 7 ? "yes" : "no" }
}))

/** The exact answer over the records still in the corpus. */
const exact = (
  docs: ReadonlyArray<{ external_id: string; vector: ReadonlyArray<number>; metadata: Record<string, string> }>,
  query: ReadonlyArray<number>,
  k: number,
  least = false
) =>
  docs
    .map((doc) => ({ id: doc.external_id, score: cosine(doc.vector, query) }))
    .sort((x, y) => (least ? x.score - y.score : y.score - x.score))
    .slice(0, k)

type Hit = { record: { external_id: string }; query_score: number }
const hitsOf = (body: unknown) => (body as { items: Array<Hit> }).items

/** Runs `program` against a server on `env` that stops when it ends (a restart is a second call). */
const withServer = <A, E>(
  dialect: (typeof dialects)[number],
  env: Record<string, string>,
  program: Effect.Effect<A, E, TestServer | HttpClient.HttpClient>
) =>
  Effect.scoped(Effect.provide(program, TestServerOn(dialect, env)))

/** A published dataset with the corpus: returns its path helper and the settings id of `emb`. */
const seeded = Effect.gen(function*() {
  // Settings added after publish go through the same path as at publish (updateMapping).
  const dataset = yield* publishedDataset()
  const post = (kind: string, body: unknown) => send("POST", datasetPath(dataset, `/${kind}`), body)
  yield* post("metadata-properties", { name: "group", title: "Group", settings: { type: "terms" } })
  yield* post("metadata-properties", { name: "rare", title: "Rare", settings: { type: "terms" } })
  const settings = yield* post("vectors-settings", { name: "emb", title: "Embedding", dimensions: DIMENSIONS })
  for (let from = 0; from < COUNT; from += 500) {
    const created = yield* post("records/bulk", {
      items: corpus.slice(from, from + 500).map((doc) => ({
        external_id: doc.external_id,
        fields: { text: doc.external_id },
        metadata: doc.metadata,
        vectors: { emb: doc.vector }
      }))
    })
    expect(created.status).toBe(201)
  }
  return { dataset, settingsId: (settings.body as { id: string }).id }
})

const search = (dataset: { id: string }, vector: unknown, limit: number, filters?: unknown) =>
  Effect.map(
    send("POST", `/api/v1/datasets/${dataset.id}/records/search?limit=${limit}`, {
      query: { vector: { name: "emb", ...(vector as object) } },
      ...(filters === undefined ? {} : { filters: { and: [filters] } })
    }),
    (response) => {
      expect(response.status).toBe(200)
      return hitsOf(response.body)
    }
  )

const recall = (hits: ReadonlyArray<Hit>, truth: ReadonlyArray<{ id: string }>) =>
  truth.filter((t) => hits.some((hit) => hit.record.external_id === t.id)).length / truth.length

/** Rows written straight into the database, as another server process would. */
const writeDirectly = (dialect: string, env: Record<string, string>, home: string, row: {
  datasetId: string
  settingsId: string
  externalId: string
  vector: ReadonlyArray<number>
}) =>
  Effect.promise(async () => {
    const at = new Date().toISOString()
    const recordId = crypto.randomUUID()
    const record = [recordId, row.datasetId, row.externalId, JSON.stringify({ text: row.externalId }), "{}", "pending", at, at]
    const vector = [crypto.randomUUID(), recordId, row.settingsId, Buffer.from(Float64Array.from(row.vector).buffer), at, at]
    if (dialect === "sqlite") {
      const db = new Sqlite(path.join(home, "gloss.db"))
      db.prepare("insert into records (id, dataset_id, external_id, fields, metadata, status, inserted_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)").run(...record)
      db.prepare("insert into vectors (id, record_id, vector_settings_id, value, inserted_at, updated_at) values (?, ?, ?, ?, ?, ?)").run(...vector)
      db.close()
      return
    }
    const client = new pg.Client({ connectionString: env.GLOSS_DATABASE_URL })
    await client.connect()
    await client.query("insert into records (id, dataset_id, external_id, fields, metadata, status, inserted_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8)", record)
    await client.query("insert into vectors (id, record_id, vector_settings_id, value, inserted_at, updated_at) values ($1, $2, $3, $4, $5, $6)", vector)
    await client.end()
  })

const savedSet = (home: string, settingsId: string) =>
  (JSON.parse(fs.readFileSync(path.join(home, "vectors", `${settingsId}.json`), "utf8")) as { set: string; sealed: Array<{ path: string }>; delta: { path: string } | null })

for (const dialect of dialects) {
  describe(`${dialect}: ANN vector index`, () => {
    it.live("answers like the exact search, keeps up with writes and deletions, and survives restarts", () =>
      Effect.scoped(Effect.gen(function*() {
        const database = yield* freshDatabase(dialect)
        const env = testServerEnv(database, { GLOSS_SEARCH_ENGINE: "database", GLOSS_VECTOR_ANN_FROM: "50" })
        const home = database.home
        const queries = Array.from({ length: 10 }, (_, i) => near(centers[(i * 7) % centers.length]!))

        const { dataset, settingsId } = yield* withServer(dialect, env, Effect.gen(function*() {
          const seededDataset = yield* seeded
          const { dataset } = seededDataset
          let recalls = 0
          for (const query of queries) {
            const hits = yield* search(dataset, { value: query }, 10)
            const truth = exact(corpus, query, 10)
            recalls += recall(hits, truth)
            // Rescoring: every score is the exact cosine (float32 arithmetic), best first.
            for (const hit of hits) {
              const doc = corpus.find((d) => d.external_id === hit.record.external_id)!
              expect(hit.query_score).toBeCloseTo(cosine(doc.vector, query), 5)
            }
            expect(hits.map((h) => h.query_score)).toEqual([...hits.map((h) => h.query_score)].sort((a, b) => b - a))
          }
          expect(recalls / queries.length).toBeGreaterThanOrEqual(0.9)
          // The index is saved under the home path.
          expect(fs.existsSync(path.join(home, "vectors", `${seededDataset.settingsId}.json`))).toBe(true)

          // least_similar: the most similar to -q, rescored.
          let leastRecalls = 0
          for (const query of queries.slice(0, 5)) {
            const hits = yield* search(dataset, { value: query, order: "least_similar" }, 10)
            leastRecalls += recall(hits, exact(corpus, query, 10, true))
            expect(hits.map((h) => h.query_score)).toEqual([...hits.map((h) => h.query_score)].sort((a, b) => a - b))
          }
          expect(leastRecalls / 5).toBeGreaterThanOrEqual(0.9)

          // Filters: five allowed records, all of them; a third allowed, `limit` of them, all allowed.
          const rare = { type: "terms", scope: { entity: "metadata", metadata_property: "rare" }, values: ["yes"] }
          const rareHits = yield* search(dataset, { value: queries[0] }, 10, rare)
          expect(rareHits.map((h) => h.record.external_id)).toEqual(
            exact(corpus.filter((d) => d.metadata.rare === "yes"), queries[0]!, 10).map((t) => t.id)
          )
          const third = { type: "terms", scope: { entity: "metadata", metadata_property: "group" }, values: ["third"] }
          const thirdHits = yield* search(dataset, { value: queries[1] }, 50, third)
          expect(thirdHits).toHaveLength(50)
          const thirdDocs = corpus.filter((d) => d.metadata.group === "third")
          expect(thirdHits.every((h) => thirdDocs.some((d) => d.external_id === h.record.external_id))).toBe(true)
          expect(recall(thirdHits, exact(thirdDocs, queries[1]!, 50))).toBeGreaterThanOrEqual(0.9)

          // A write is seen by the next search; a deletion too.
          const probe = near(centers[3]!).map((x) => x * 3)
          const created = yield* send("POST", datasetPath(dataset, "/records/bulk"), {
            items: [{ external_id: "new", fields: { text: "new" }, metadata: { group: "rest", rare: "no" }, vectors: { emb: probe } }]
          })
          expect(created.status).toBe(201)
          const [top] = yield* search(dataset, { value: probe }, 1)
          expect(top?.record.external_id).toBe("new")
          expect(top?.query_score).toBeCloseTo(1, 5)
          const deleted = yield* send("DELETE", datasetPath(dataset, `/records?ids=${(top as unknown as { record: { id: string } }).record.id}`))
          expect(deleted.status).toBeLessThan(300)
          const after = yield* search(dataset, { value: probe }, 100)
          expect(after).toHaveLength(100)
          expect(after.some((h) => h.record.external_id === "new")).toBe(false)
          return seededDataset
        }))

        // Another process writes while no server runs; the restarted server loads the saved index and catches up.
        const loadedSet = savedSet(home, settingsId).set
        const elsewhere = near(centers[5]!).map((x) => -x)
        yield* writeDirectly(dialect, env, home, { datasetId: dataset.id, settingsId, externalId: "elsewhere", vector: elsewhere })
        yield* withServer(dialect, env, Effect.gen(function*() {
          const [top] = yield* search(dataset, { value: elsewhere }, 1)
          expect(top?.record.external_id).toBe("elsewhere")
          // And writes of another process while this one runs are found by the maintenance loop (every 5 s).
          const later = near(centers[9]!).map((x) => -2 * x)
          yield* writeDirectly(dialect, env, home, { datasetId: dataset.id, settingsId, externalId: "later", vector: later })
          // Looked for until 12 s: the loop's next look (5 s after its last one ended) under a loaded machine, and
          // before the 15 s after which a search would look itself (that is not what this checks).
          let latest: Hit | undefined
          for (let waited = 0; waited < 12_000 && latest?.record.external_id !== "later"; waited += 500) {
            yield* Effect.sleep("500 millis")
            latest = (yield* search(dataset, { value: later }, 1))[0]
          }
          expect(latest?.record.external_id).toBe("later")
        }))
        // Loaded, not rebuilt: the same set of files.
        expect(savedSet(home, settingsId).set).toBe(loadedSet)

        // A corrupted file: the next start rebuilds (a new set), and answers as before.
        const saved = savedSet(home, settingsId)
        const file = saved.delta?.path ?? saved.sealed[0]!.path
        fs.writeFileSync(file, crypto.randomBytes(fs.statSync(file).size))
        yield* withServer(dialect, env, Effect.gen(function*() {
          const hits = yield* search(dataset, { value: queries[2] }, 10)
          expect(recall(hits, exact(corpus, queries[2]!, 10))).toBeGreaterThanOrEqual(0.8)
          // The search was answered once the vectors were read (staged); the new set is saved once they are added.
          for (let waited = 0; waited < 30_000 && savedSet(home, settingsId).set === loadedSet; waited += 200) {
            yield* Effect.sleep("200 millis")
          }
        }))
        expect(savedSet(home, settingsId).set).not.toBe(loadedSet)
      })), { timeout: 180_000 })
  })
}
