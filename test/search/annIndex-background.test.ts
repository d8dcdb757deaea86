/**
 * The ANN index's background work (first build, catch-ups after writes) runs in fibers of the index's own runtime,
 * not in fibers forked from the request that wrote. A forked fiber inherits its parent's context, so each one kept
 * its request (and the request's parsed body) alive while it waited for the index's lock; during a bulk import the
 * catch-ups run back to back and a new one waited after every write, until the server ran out of heap at 500 000
 * records. Here a marker service stands for the request: the statements of the background work must not see it.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { SqlClient, type Statement } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Clock, Context, Deferred, Effect, Fiber, Option, TestClock } from "effect"
import { makeAnnIndex } from "../../src/services/search/vectors/ann/AnnIndex.js"
import { annFiles } from "../../src/services/search/vectors/ann/annFiles.js"
import { vectorRows } from "../../src/services/search/vectors/rows.js"
import { type AnnWorker, makeAnnWorker } from "../../src/services/search/vectors/ann/AnnWorker.js"
import { MigratedSqlite, stampedVectors } from "../support/annRows.js"

class Request extends Context.Tag("test/Request")<Request, { readonly body: string }>() {}

/** A `read` that records each statement, and whether it ran with the marker (in a request) or without. */
const recording = () => {
  const reads: Array<{ readonly text: string; readonly inRequest: boolean }> = []
  const read = (statement: Statement.Statement<object>) =>
    Effect.gen(function*() {
      const inRequest = Option.isSome(yield* Effect.serviceOption(Request))
      reads.push({ text: statement.compile()[0], inRequest })
      return yield* statement
    })
  return { reads, read }
}

/** `recording`, with the statements that contain `text` held until `release` once `hold()` was called. */
const holding = (text: string) =>
  Effect.gen(function*() {
    const { reads, read: recorded } = recording()
    const release = yield* Deferred.make<void>()
    let holding = false
    let held = 0
    const read = (statement: Statement.Statement<object>) =>
      holding && statement.compile()[0].includes(text)
        ? Effect.zipRight(Effect.zipRight(Effect.sync(() => held++), Deferred.await(release)), recorded(statement))
        : recorded(statement)
    return { reads, read, release, hold: () => (holding = true), held: () => held }
  })

/** A scratch GLOSS_HOME_PATH for saved indexes, removed with the scope. */
const scratchHome = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "gloss-ann-"))),
  (folder) => Effect.sync(() => fs.rmSync(folder, { recursive: true, force: true }))
)

describe("ANN index background work", () => {
  layer(MigratedSqlite)((it) => {
    it.scoped("runs without the context of the request that wrote", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { reads, read } = recording()
        // Threshold 0: the first write starts an index (built in the background), later writes catch it up.
        const ann = yield* makeAnnIndex({ rows: vectorRows(sql, read), worker: yield* makeAnnWorker, files: undefined, annFrom: () => 0 })
        const settings = [{ id: "01a2102b-399d-732e-875e-093c23e24216", dimensions: 4 }]
        const asRequest = Effect.provideService(Request, { body: "a parsed request body" })
        const catchUps = () => reads.filter((r) => r.text.includes("updated_at >="))

        yield* asRequest(ann.written(settings))
        // The build's own catch-up, then one after a second write (debounced by half a second).
        yield* Effect.promise(() => waitUntil(() => catchUps().length >= 1))
        yield* asRequest(ann.written(settings))
        // The catch-up waits out its debounce on the test clock.
        yield* TestClock.adjust("1 second")
        yield* Effect.promise(() => waitUntil(() => catchUps().length >= 2))

        const background = reads.filter((r) => !r.text.includes("count(*)"))
        expect(background.length).toBeGreaterThanOrEqual(3)
        expect(background.filter((r) => r.inRequest).map((r) => r.text)).toEqual([])
      }), { timeout: 20_000 })

    it.scoped("a catch-up adds the vectors this process handed over without reading them back, and reads the others", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { reads, read } = recording()
        const ann = yield* makeAnnIndex({ rows: vectorRows(sql, read), worker: yield* makeAnnWorker, files: undefined, annFrom: () => 0 })
        const settings = { id: "01a2102b-399d-732e-875e-093c23e242a1", dimensions: 4 }
        const write = stampedVectors(sql, settings.id)
        const nearest = (to: ReadonlyArray<number>) =>
          Effect.map(ann.candidates(settings.id, settings.dimensions, 0, Float32Array.from(to), 1), Option.map(({ keys }) => keys[0]))
        const keyOf = (recordId: string) =>
          Effect.map(sql<{ key: number }>`select rowid as key from records where id = ${recordId}`, ([row]) => row?.key)
        yield* write(yield* Clock.currentTimeMillis)
        yield* ann.written([settings])
        yield* nearest([1, 0, 0, 0])

        // Two vectors this process wrote and hands over, one another process wrote: each points its own way.
        const now = yield* Clock.currentTimeMillis
        const handed = [yield* write(now, [0, 1, 0, 0]), yield* write(now, [0, 0, 1, 0])]
        const elsewhere = yield* write(now, [0, 0, 0, 1])
        const before = reads.length
        yield* ann.written([settings], handed)
        // Every one is found: the handed ones added from what was handed, the other read from the database.
        expect(yield* nearest([0, 1, 0, 0])).toEqual(Option.some(yield* keyOf(handed[0]!.recordId)))
        expect(yield* nearest([0, 0, 1, 0])).toEqual(Option.some(yield* keyOf(handed[1]!.recordId)))
        expect(yield* nearest([0, 0, 0, 1])).toEqual(Option.some(yield* keyOf(elsewhere.recordId)))
        // The values read since: the one vector nobody handed over, by its key alone.
        const valueReads = reads.slice(before).filter((r) => r.text.includes("v.value"))
        expect(valueReads.map((r) => (r.text.match(/\?/g) ?? []).length)).toEqual([2])
      }), { timeout: 20_000 })

    it.scoped("below the threshold, a write counts the settings' vectors again only once it could reach it", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { reads, read } = recording()
        const ann = yield* makeAnnIndex({ rows: vectorRows(sql, read), worker: yield* makeAnnWorker, files: undefined, annFrom: () => 10 })
        const settings = { id: "01a2102b-399d-732e-875e-093c23e242a2", dimensions: 4 }
        const write = stampedVectors(sql, settings.id)
        const counts = () => reads.filter((r) => r.text.includes("count(*) as n from vectors")).length
        /** Three vectors written and handed over, as a bulk write does. */
        const batch = Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const written = [yield* write(now), yield* write(now), yield* write(now)]
          yield* ann.written([settings], written)
        })
        yield* batch
        expect(counts()).toBe(1)
        // 6 and 9 of at most 10: no count, and no index.
        yield* batch
        yield* batch
        expect([counts(), ann.has(settings.id)]).toEqual([1, false])
        // 12 could be past it: counted, and the index starts.
        yield* batch
        expect([counts(), ann.has(settings.id)]).toEqual([2, true])
      }), { timeout: 20_000 })

    it.scoped("a search does not run the recount (nor the save): the maintenance loop does, in the background", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { reads, read } = recording()
        const ann = yield* makeAnnIndex({ rows: vectorRows(sql, read), worker: yield* makeAnnWorker, files: undefined, annFrom: () => 0 })
        const settings = { id: "01a2102b-399d-732e-875e-093c23e24217", dimensions: 4 }
        const asRequest = Effect.provideService(Request, { body: "a search" })
        yield* ann.written([settings])
        yield* Effect.promise(() => waitUntil(() => reads.some((r) => r.text.includes("updated_at >="))))
        // Past the recheck (5 s) and the recount (30 s): a search must run neither itself (the count of every vector
        // of the settings is slow at a million). The maintenance loop does them instead, outside any request.
        const before = reads.length
        yield* TestClock.adjust("31 seconds")
        yield* asRequest(ann.candidates(settings.id, settings.dimensions, 0, Float32Array.of(1, 0, 0, 0), 10))
        yield* Effect.promise(() => waitUntil(() => reads.slice(before).some((r) => r.text.includes("count(*)"))))
        // The search may look for other processes' writes (cheap), but the count of every vector is not its to run.
        expect(reads.slice(before).filter((r) => r.inRequest && r.text.includes("count(*)")).map((r) => r.text)).toEqual([])
      }), { timeout: 20_000 })

    it.scoped("a search leaves the look for other processes' writes to the maintenance loop, unless the loop is late", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // The count waits for `release` once held: the maintenance loop stuck after its catch-up, in its recount.
        const { reads, read, hold, release } = yield* holding("count(*)")
        const ann = yield* makeAnnIndex({ rows: vectorRows(sql, read), worker: yield* makeAnnWorker, files: undefined, annFrom: () => 0 })
        const settings = { id: "01a2102b-399d-732e-875e-093c23e2421a", dimensions: 4 }
        const search = Effect.provideService(
          ann.candidates(settings.id, settings.dimensions, 0, Float32Array.of(1, 0, 0, 0), 10),
          Request,
          { body: "a search" }
        )
        const catchUpsInRequests = () => reads.filter((r) => r.inRequest && r.text.includes("updated_at >=")).length
        yield* ann.written([settings])
        yield* Effect.promise(() => waitUntil(() => reads.some((r) => r.text.includes("updated_at >="))))
        hold()
        yield* TestClock.adjust("31 seconds")
        yield* Effect.promise(() => waitUntil(() => reads.filter((r) => r.text.includes("updated_at >=")).length >= 2))
        // 6 s after the loop's last look: due for the next one. A search must not be the one to come due first (the
        // loop sleeps after its own), or one search every 5 s carries a full catch-up and sets the tail.
        yield* TestClock.adjust("6 seconds")
        yield* search
        expect(catchUpsInRequests()).toBe(0)
        // 16 s: the loop is stuck (its recount is held), so a search looks itself.
        yield* TestClock.adjust("10 seconds")
        yield* search
        expect(catchUpsInRequests()).toBe(1)
        yield* Deferred.succeed(release, undefined)
      }), { timeout: 20_000 })

    it.scoped("a vector stamped before the watermark but committed after a long catch-up read it is still added", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // Reading the vectors to add waits for `release` once held: a catch-up that takes 40 s to add what it read,
        // as one behind a bulk import does (the HNSW adds are slower than the import), holding the lock.
        const { reads, read, hold, held, release } = yield* holding("v.value")
        const ann = yield* makeAnnIndex({ rows: vectorRows(sql, read), worker: yield* makeAnnWorker, files: undefined, annFrom: () => 0 })
        const settings = { id: "01a2102b-399d-732e-875e-093c23e24219", dimensions: 4 }
        // Rows as another write's transaction commits them, stamped when it began (on the test clock, in ms).
        const commit = stampedVectors(sql, settings.id)
        yield* ann.written([settings])
        yield* Effect.promise(() => waitUntil(() => reads.some((r) => r.text.includes("updated_at >="))))
        // t = 100 s: a write stamped at 100 s commits; this process's catch-up reads its stamp (the watermark moves
        // to it) and is held adding it.
        yield* TestClock.setTime(100_000)
        yield* commit(100_000)
        hold()
        yield* ann.written([settings])
        yield* TestClock.adjust("1 second")
        yield* Effect.promise(() => waitUntil(() => held() > 0))
        // Meanwhile a write stamped at 99.5 s (its transaction began before the other's) commits. 40 s pass before the
        // catch-up lets go of the lock; the next one used to read from the watermark on, and never saw it.
        yield* commit(99_500)
        yield* TestClock.adjust("40 seconds")
        yield* Deferred.succeed(release, undefined)
        yield* TestClock.adjust("6 seconds")
        yield* Effect.promise(() => waitUntil(() => ann.size(settings.id) === 2))
      }), { timeout: 20_000 })

    it.scoped("a search waits for a catch-up of this process's writes that is already under way", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // Reading the vectors to add waits for `release` once held: a catch-up behind an import, still adding.
        const { reads, read, hold, held, release } = yield* holding("v.value")
        const ann = yield* makeAnnIndex({ rows: vectorRows(sql, read), worker: yield* makeAnnWorker, files: undefined, annFrom: () => 0 })
        const settings = { id: "01a2102b-399d-732e-875e-093c23e2421b", dimensions: 4 }
        const commit = stampedVectors(sql, settings.id)
        yield* TestClock.setTime(100_000)
        yield* commit(100_000)
        yield* ann.written([settings])
        yield* Effect.promise(() => waitUntil(() => reads.some((r) => r.text.includes("updated_at >="))))
        yield* Effect.promise(() => waitUntil(() => ann.size(settings.id) === 1))
        // A second write; its debounced catch-up begins (after the write) and is held adding the vector.
        hold()
        yield* commit(100_500)
        yield* ann.written([settings])
        yield* TestClock.adjust("1 second")
        yield* Effect.promise(() => waitUntil(() => held() > 0))
        // A search now, from the process that wrote: it must see the write. It used to find nothing left to do (the
        // catch-up under way had cleared the flag) and answer from the index as it was: one vector, not two.
        const search = yield* Effect.fork(ann.candidates(settings.id, settings.dimensions, 0, Float32Array.of(1, 0, 0, 0), 10))
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 300)))
        yield* Deferred.succeed(release, undefined)
        const found = yield* Fiber.join(search)
        expect(Option.map(found, ({ keys }) => keys.length)).toEqual(Option.some(2))
      }), { timeout: 20_000 })

    it.scoped("a search after a restart waits for the saved index to open, however large, instead of scanning", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const home = yield* scratchHome
        const files = annFiles(home)
        const settings = { id: "01a2102b-399d-732e-875e-093c23e2421c", dimensions: 4 }
        yield* stampedVectors(sql, settings.id)(1_000)
        // The first process builds the index and saves it (after a build it saves at once).
        const first = yield* makeAnnIndex({ rows: vectorRows(sql, recording().read), worker: yield* makeAnnWorker, files, annFrom: () => 0 })
        yield* first.written([settings])
        yield* Effect.promise(() => waitUntil(() => fs.existsSync(path.join(home, "vectors", `${settings.id}.json`))))
        // The next process is asked with a count past the size it waits to build (a million vectors, say): it must not
        // answer "no index yet" while the saved one is opening, or the search scans every vector exactly (minutes at
        // a million).
        const next = yield* makeAnnIndex({ rows: vectorRows(sql, recording().read), worker: yield* makeAnnWorker, files, annFrom: () => 0 })
        const found = yield* next.candidates(settings.id, settings.dimensions, 1_000_000, Float32Array.of(1, 0, 0, 0), 10)
        expect(Option.map(found, ({ keys }) => keys.length)).toEqual(Option.some(1))
      }), { timeout: 20_000 })

    it.scoped("a first build answers searches once it has read the vectors, before it adds them, and saves once added", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const home = yield* scratchHome
        const settings = { id: "01a2102b-399d-732e-875e-093c23e2421d", dimensions: 4 }
        const write = stampedVectors(sql, settings.id)
        for (let i = 0; i < 300; i++) yield* write(1_000)
        // Adding the staged vectors to the graph waits for `release`: minutes of both cores at a million vectors.
        const real = yield* makeAnnWorker
        const release = yield* Deferred.make<void>()
        let adding = 0
        const worker: AnnWorker = {
          ...real,
          addStaged: (set, count, threads) =>
            Effect.zipRight(Effect.zipRight(Effect.sync(() => adding++), Deferred.await(release)), real.addStaged(set, count, threads))
        }
        const ann = yield* makeAnnIndex({ rows: vectorRows(sql, recording().read), worker, files: annFiles(home), annFrom: () => 0 })
        // Asked with a count of a million: a search must not scan every vector exactly until the build has added them
        // all (minutes a search at a million vectors).
        const found = yield* ann.candidates(settings.id, settings.dimensions, 1_000_000, Float32Array.of(1, 0, 0, 0), 10)
        const [first] = yield* sql<{ key: number }>`select r.rowid as key from records r join vectors v on v.record_id = r.id
          where v.vector_settings_id = ${settings.id} order by r.rowid limit 1`
        // The nearest, (1, 1, 0, 0), found among the staged vectors while adding them was held.
        expect(Option.map(found, ({ entries, keys }) => ({ entries, nearest: keys[0] }))).toEqual(Option.some({ entries: 300, nearest: first!.key }))
        expect(adding).toBe(1)
        // A write meanwhile is caught up and found: the adding does not hold the index's lock (a loop that took it for
        // each batch starved the catch-ups, and the searches waiting for them, for minutes at a million vectors).
        // Its vector points where no other does: (1, 301, 0, 0) and (1, 300, 0, 0) are one vector once quantised to
        // int8, and which of the two the index answers with is the index's choice.
        yield* write(yield* Clock.currentTimeMillis, [0, 0, 1, 0])
        yield* ann.written([settings])
        const written = yield* ann.candidates(settings.id, settings.dimensions, 1_000_000, Float32Array.of(0, 0, 1, 0), 1)
        const [last] = yield* sql<{ key: number }>`select max(r.rowid) as key from records r join vectors v on v.record_id = r.id
          where v.vector_settings_id = ${settings.id}`
        expect(Option.map(written, ({ keys }) => keys[0])).toEqual(Option.some(last!.key))
        // Not saved yet: the saved files would not hold the staged vectors their watermark promises.
        const saved = path.join(home, "vectors", `${settings.id}.json`)
        expect(fs.existsSync(saved)).toBe(false)
        yield* Deferred.succeed(release, undefined)
        yield* Effect.promise(() => waitUntil(() => fs.existsSync(saved)))
      }), { timeout: 20_000 })

    it.scoped("a search does not wait for the maintenance loop's count of every vector", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // The count waits for `release` once held: a count of a million vectors on PostgreSQL, held.
        const { reads, read, hold, release } = yield* holding("count(*)")
        const ann = yield* makeAnnIndex({ rows: vectorRows(sql, read), worker: yield* makeAnnWorker, files: undefined, annFrom: () => 0 })
        const settings = { id: "01a2102b-399d-732e-875e-093c23e24218", dimensions: 4 }
        yield* ann.written([settings])
        yield* Effect.promise(() => waitUntil(() => reads.some((r) => r.text.includes("updated_at >="))))
        hold()
        // The loop comes due for its recount (every 30 s) and is held in it.
        yield* TestClock.adjust("31 seconds")
        yield* Effect.promise(() => waitUntil(() => reads.filter((r) => r.text.includes("updated_at >=")).length >= 2))
        let answered = false
        yield* Effect.fork(
          Effect.tap(ann.candidates(settings.id, settings.dimensions, 0, Float32Array.of(1, 0, 0, 0), 10), () => (answered = true))
        )
        // It used to hold the index's lock through the count, and every search queued behind it.
        yield* Effect.promise(() => waitUntil(() => answered))
        yield* Deferred.succeed(release, undefined)
      }), { timeout: 20_000 })
  })
})

const waitUntil = async (done: () => boolean) => {
  for (const started = Date.now(); !done();) {
    if (Date.now() - started > 5_000) throw new Error("timed out waiting for the index's background work")
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
