/**
 * The copies of stored vectors beside the ANN index (services/search/database/vectorCopies.ts), which a vector search
 * on PostgreSQL rescores from instead of reading the candidates' values. A copy is used only while the database's
 * stamp (time and row version) matches it and its checksum holds: a copy that is stale, torn or foreign must cost a
 * read, never a wrong score, and a deleted record must never come back. First the file on its own, then a server on
 * PostgreSQL whose rows are changed behind its back (straight into the database, keeping `updated_at`), until its
 * dataset is deleted with the copies.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import pg from "pg"
import { makeVectorCopies } from "../../src/services/search/vectors/copies.js"
import { dialects, freshDatabase } from "../support/databases.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { TestServerOn, testServerEnv } from "../support/server.js"
import { cosine, seededRandom } from "../support/vectors.js"

const SETTINGS = "0193c0de-0000-7000-8000-000000000001"
const bytesOf = (values: ReadonlyArray<number>) => new Uint8Array(Float64Array.from(values).buffer)
const row = (key: number, values: ReadonlyArray<number>, at = 1_000, version = 7) => ({ key, at: new Date(at), version, value: bytesOf(values) })

describe("vector copies: the file", () => {
  const home = () => fs.mkdtempSync(path.join(os.tmpdir(), "gloss-copies-"))

  it.scoped("reads back what was written, only under the stamp it was written with", () =>
    Effect.gen(function*() {
      const copies = yield* makeVectorCopies(home())
      copies.write(SETTINGS, 3, [row(10, [1, 2, 3]), row(12, [4, 5, 6], 2_000, 9)])
      expect(Array.from(new Float64Array(copies.read(SETTINGS, 3, row(10, []))!.slice().buffer))).toEqual([1, 2, 3])
      expect(Array.from(new Float64Array(copies.read(SETTINGS, 3, row(12, [], 2_000, 9))!.slice().buffer))).toEqual([4, 5, 6])
      // Another time, another row version, a key never written (a hole), other dimensions, other settings: none.
      expect(copies.read(SETTINGS, 3, row(10, [], 1_001))).toBeUndefined()
      expect(copies.read(SETTINGS, 3, row(10, [], 1_000, 8))).toBeUndefined()
      expect(copies.read(SETTINGS, 3, row(11, []))).toBeUndefined()
      expect(copies.read(SETTINGS, 4, row(10, []))).toBeUndefined()
      expect(copies.read("0193c0de-0000-7000-8000-000000000002", 3, row(10, []))).toBeUndefined()
      // Rewritten: the new copy under the new stamp, and the old stamp no longer matches.
      copies.write(SETTINGS, 3, [row(10, [7, 8, 9], 3_000, 11)])
      expect(Array.from(new Float64Array(copies.read(SETTINGS, 3, row(10, [], 3_000, 11))!.slice().buffer))).toEqual([7, 8, 9])
      expect(copies.read(SETTINGS, 3, row(10, []))).toBeUndefined()
    }))

  it.scoped("takes keys in any order into a sparse file, leaves out values of other dimensions; a file of other dimensions starts over", () =>
    Effect.gen(function*() {
      const folder = home()
      const copies = yield* makeVectorCopies(folder)
      copies.write(SETTINGS, 2, [row(100_000, [1, 1]), row(100_001, [1, 2, 3])])
      copies.write(SETTINGS, 2, [row(99, [2, 2]), row(100_002, [3, 3])])
      expect(copies.read(SETTINGS, 2, row(99, []))).toBeDefined()
      expect(copies.read(SETTINGS, 2, row(100_000, []))).toBeDefined()
      expect(copies.read(SETTINGS, 2, row(100_001, []))).toBeUndefined()
      expect(copies.read(SETTINGS, 2, row(100_002, []))).toBeDefined()
      // A hundred thousand slots before the first key written, as holes: the file holds a few pages, not 4 MB.
      const stat = fs.statSync(path.join(folder, "vectors", `${SETTINGS}.copies`))
      expect(stat.size).toBeGreaterThan(100_000 * 40)
      expect(stat.blocks * 512).toBeLessThan(200_000)
      // The settings' vectors remade with other dimensions: the old copies are gone, the new ones kept.
      copies.write(SETTINGS, 3, [row(5, [1, 2, 3])])
      expect(copies.read(SETTINGS, 2, row(102, []))).toBeUndefined()
      expect(copies.read(SETTINGS, 3, row(5, []))).toBeDefined()
      copies.remove(SETTINGS)
      expect(fs.readdirSync(path.join(folder, "vectors"))).toEqual([])
      expect(copies.read(SETTINGS, 3, row(5, []))).toBeUndefined()
    }))

  it.scoped("writes runs of consecutive keys together, longer than one run, with gaps, in any order; a key twice, the later", () =>
    Effect.gen(function*() {
      const copies = yield* makeVectorCopies(home())
      // At 400 dimensions a run holds 254 slots: 600 consecutive keys take three.
      const D = 400
      const valueOf = (key: number) => Array.from({ length: D }, (_, i) => key * (i + 1))
      const keys = [...Array.from({ length: 600 }, (_, i) => 1_000 + i), 5, 7, 8, 2_000].reverse()
      copies.write(SETTINGS, D, [...keys.map((key) => row(key, valueOf(key))), row(8, valueOf(-1), 1_000, 8)])
      for (const key of keys) {
        const copy = copies.read(SETTINGS, D, row(key, [], 1_000, key === 8 ? 8 : 7))
        expect(copy === undefined ? undefined : Array.from(new Float64Array(copy.slice().buffer))).toEqual(valueOf(key === 8 ? -1 : key))
      }
      expect(copies.read(SETTINGS, D, row(6, []))).toBeUndefined()
      expect(copies.read(SETTINGS, D, row(1_600, []))).toBeUndefined()
    }))

  it.scoped("a torn or overwritten slot is not a copy; a new process reads the same file", () =>
    Effect.gen(function*() {
      const folder = home()
      const first = yield* makeVectorCopies(folder)
      first.write(SETTINGS, 4, [row(1, [1, 2, 3, 4]), row(2, [5, 6, 7, 8])])
      const again = yield* makeVectorCopies(folder)
      expect(again.read(SETTINGS, 4, row(2, []))).toBeDefined()
      // One byte of key 2's value flipped on disk (a crash mid-write, or a disk fault).
      const file = path.join(folder, "vectors", `${SETTINGS}.copies`)
      const bytes = fs.readFileSync(file)
      bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 0x40
      fs.writeFileSync(file, bytes)
      expect(again.read(SETTINGS, 4, row(2, []))).toBeUndefined()
      expect(again.read(SETTINGS, 4, row(1, []))).toBeDefined()
    }))
})

const DIMENSIONS = 16
const COUNT = 800
const next = seededRandom(11)
const vectorOf = () => Array.from({ length: DIMENSIONS }, () => next() * 2 - 1)
const corpus = Array.from({ length: COUNT }, (_, i) => ({ external_id: `r${i}`, vector: vectorOf() }))

type Hit = { record: { id: string; external_id: string }; query_score: number }

const search = (dataset: Parameters<typeof datasetPath>[0], value: ReadonlyArray<number>, limit: number) =>
  Effect.map(
    send("POST", datasetPath(dataset, `/records/search?limit=${limit}`), { query: { vector: { name: "emb", value } } }),
    (response) => {
      expect(response.status).toBe(200)
      return (response.body as { items: Array<Hit> }).items
    }
  )

for (const dialect of dialects.filter((d) => d === "postgres")) {
  describe(`${dialect}: a vector search rescores from the copies only where the database says they are current`, () => {
    it.live("a vector rewritten behind the server's back (same time), a deleted one, and a file of garbage", () =>
      Effect.scoped(Effect.gen(function*() {
        const database = yield* freshDatabase(dialect)
        const env = testServerEnv(database, { GLOSS_SEARCH_ENGINE: "database", GLOSS_VECTOR_ANN_FROM: "50" })
        const query = corpus[0]!.vector
        const scoresOf = (hits: ReadonlyArray<Hit>, vectors: Map<string, ReadonlyArray<number>>) =>
          hits.map((hit) => ({ id: hit.record.external_id, score: cosine(vectors.get(hit.record.external_id)!, query) }))
        const program = Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const created = yield* send("POST", datasetPath(dataset, "/vectors-settings"), { name: "emb", title: "Embedding", dimensions: DIMENSIONS })
          const settingsId = (created.body as { id: string }).id
          for (let from = 0; from < COUNT; from += 400) {
            const written = yield* send("POST", datasetPath(dataset, "/records/bulk"), {
              items: corpus.slice(from, from + 400).map((doc) => ({
                external_id: doc.external_id,
                fields: { text: doc.external_id },
                vectors: { emb: doc.vector }
              }))
            })
            expect(written.status).toBe(201)
          }
          const vectors = new Map(corpus.map((doc) => [doc.external_id, doc.vector]))
          const first = yield* search(dataset, query, 20)
          expect(first.map((hit) => hit.query_score)).toEqual(scoresOf(first, vectors).map((s) => expect.closeTo(s.score, 5)))
          // The index copied what it added.
          const copiesFile = path.join(database.home, "vectors", `${settingsId}.copies`)
          expect(fs.statSync(copiesFile).size).toBeGreaterThan(COUNT * DIMENSIONS * 8)

          // The second nearest gets the query's opposite, written straight into PostgreSQL with its `updated_at`
          // unchanged: the index still holds (and proposes) the old vector, and the copy's time still matches. Only
          // the row version tells, and the score must be the new vector's: -1, the far end.
          const moved = first[1]!.record
          const opposite = query.map((x) => -x)
          const client = new pg.Client({ connectionString: database.env.GLOSS_DATABASE_URL })
          yield* Effect.promise(() => client.connect())
          yield* Effect.addFinalizer(() => Effect.promise(() => client.end()))
          yield* Effect.promise(() =>
            client.query("update vectors set value = $1 where record_id = $2", [Buffer.from(Float64Array.from(opposite).buffer), moved.id])
          )
          vectors.set(moved.external_id, opposite)
          const gone = first[2]!.record
          yield* Effect.promise(() => client.query("delete from vectors where record_id = $1", [gone.id]))
          const second = yield* search(dataset, query, 20)
          expect(second.map((hit) => hit.record.external_id)).not.toContain(moved.external_id)
          expect(second.map((hit) => hit.record.external_id)).not.toContain(gone.external_id)
          expect(second.map((hit) => hit.query_score)).toEqual(scoresOf(second, vectors).map((s) => expect.closeTo(s.score, 5)))
          // Asked for every record, the moved one comes last, with its new score.
          const all = yield* search(dataset, query, COUNT)
          expect(all.at(-1)?.record.external_id).toBe(moved.external_id)
          expect(all.at(-1)?.query_score).toBeCloseTo(cosine(opposite, query), 5)

          // Garbage over every copy: searches still score exactly (from the database), and copy again as they read.
          const size = fs.statSync(copiesFile).size
          fs.writeFileSync(copiesFile, Buffer.concat([fs.readFileSync(copiesFile).subarray(0, 64), Buffer.alloc(size - 64, 0x5a)]))
          const third = yield* search(dataset, query, 20)
          expect(third.map((hit) => hit.record.external_id)).toEqual(second.map((hit) => hit.record.external_id))
          expect(third.map((hit) => hit.query_score)).toEqual(second.map((hit) => hit.query_score))
          expect(fs.readFileSync(copiesFile).includes(Buffer.from(Float64Array.from(vectors.get(third[0]!.record.external_id)!).buffer))).toBe(true)

          // Deleting the dataset takes its copies (gigabytes at a million vectors) with it.
          expect((yield* send("DELETE", `/api/v1/datasets/${dataset.id}`)).status).toBe(200)
          expect(fs.existsSync(copiesFile)).toBe(false)
        })
        yield* Effect.scoped(Effect.provide(program, TestServerOn(dialect, env)))
      })), { timeout: 120_000 })
  })
}
