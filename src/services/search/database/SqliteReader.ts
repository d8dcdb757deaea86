/**
 * Searches on SQLite run on a read-only connection of their own, in a worker thread.
 *
 * better-sqlite3 is synchronous: a search that ranks and counts the 18 000 matches of a common word holds the event
 * loop for ~25 ms, and every other request waits behind it. In a worker the query runs on the machine's other core
 * while the main thread goes on serving requests (and encoding the previous search's answer); on the search
 * benchmark (100 000 records, 8 clients) that took the p99 from ~240 ms to 120–150 ms.
 *
 * Reading from a second connection is safe under WAL: each statement sees everything committed before it started,
 * which is all a search needs (searches never run inside a write transaction of their own).
 */
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import { SqlError } from "@effect/sql"
import { Effect, type Scope } from "effect"

/** The worker: CommonJS, evaluated from this string, so that it needs no file of its own beside the bundle. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads")
const Database = require(workerData.driver)
const db = new Database(workerData.filename, { readonly: true, fileMustExist: true })
db.pragma("mmap_size = " + workerData.mmapBytes)
db.pragma("cache_size = -" + workerData.cacheKib)
const statements = new Map()
parentPort.on("message", ({ id, sql, params }) => {
  try {
    let statement = statements.get(sql)
    if (statement === undefined) {
      if (statements.size >= 200) statements.delete(statements.keys().next().value)
      statement = db.prepare(sql)
      statements.set(sql, statement)
    }
    parentPort.postMessage({ id, rows: statement.all(...params) })
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) })
  }
})
`

/**
 * SQLite's default page cache is 2 MiB: a search that reads the rows of thousands of matches then goes to the
 * operating system for almost every page, which made common-word searches over 100 000 records ~1.7× slower. The
 * search connection reads through a memory map instead (pages shared with the OS cache, not copied), with a larger
 * cache for the pages the map does not serve (the write-ahead log's). The writing connection keeps the defaults:
 * it reads little, and a large cache there only raised the server's memory during ingestion.
 */
const MMAP_BYTES = 1024 * 2 ** 20
const CACHE_KIB = 64 * 1024

type Reply = { readonly id: number; readonly rows?: ReadonlyArray<unknown>; readonly error?: string }

export interface SqliteReader {
  /** Runs a compiled read-only statement (`[sql, params]`) in the worker. */
  readonly all: (compiled: readonly [string, ReadonlyArray<unknown>]) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>
}

/**
 * A reader of `filename`, its worker started on first use and stopped with the scope. A worker that dies fails the
 * statements it was running; the next statement starts a new one.
 */
export const makeSqliteReader = (options: { readonly filename: string }): Effect.Effect<SqliteReader, never, Scope.Scope> =>
  Effect.gen(function*() {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3")
    const pending = new Map<number, (reply: Reply) => void>()
    let worker: Worker | undefined
    let nextId = 0

    const failAll = (message: string) => {
      for (const [id, resume] of pending) resume({ id, error: message })
      pending.clear()
    }
    const start = () => {
      const started = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { driver, filename: options.filename, mmapBytes: MMAP_BYTES, cacheKib: CACHE_KIB }
      })
      // The worker must not keep a finished process alive; it is stopped with the scope in any case.
      started.unref()
      started.on("message", (reply: Reply) => {
        const resume = pending.get(reply.id)
        pending.delete(reply.id)
        resume?.(reply)
      })
      started.on("error", (error) => failAll(`search worker failed: ${error.message}`))
      started.on("exit", () => {
        if (worker === started) worker = undefined
        failAll("search worker exited")
      })
      return started
    }

    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        const running = worker
        worker = undefined
        if (running !== undefined) await running.terminate()
      })
    )

    const all = ([sql, params]: readonly [string, ReadonlyArray<unknown>]) =>
      Effect.async<ReadonlyArray<unknown>, SqlError.SqlError>((resume) => {
        const id = nextId++
        pending.set(id, (reply) =>
          resume(
            reply.error === undefined
              ? Effect.succeed(reply.rows ?? [])
              : Effect.fail(new SqlError.SqlError({ cause: reply.error, message: `Failed to execute statement: ${reply.error}` }))
          ))
        worker ??= start()
        worker.postMessage({ id, sql, params })
        // An interrupted search still runs to its end in the worker; only its answer is dropped.
        return Effect.sync(() => pending.delete(id))
      })

    return { all } satisfies SqliteReader
  })
