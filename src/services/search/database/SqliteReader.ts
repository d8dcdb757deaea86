/**
 * Searches on SQLite run on a read-only connection of their own, in a worker thread.
 *
 * better-sqlite3 is synchronous: a search that ranks and counts the many matches of a common word holds the event
 * loop, and every other request waits behind it. In a worker the query runs on the machine's other core while the
 * main thread goes on serving requests (and encoding the previous search's answer), which shortens the tail of
 * concurrent searches (`npm run bench -- search`).
 *
 * Reading from a second connection is safe under WAL: each statement sees everything committed before it started,
 * which is all a search needs (searches never run inside a write transaction of their own).
 */
import { SqlError } from "@effect/sql"
import { Effect, type Scope } from "effect"
import { makeWorkerCalls } from "../workers/WorkerCalls.js"
import { workerModule } from "../workers/workerModule.js"
import type { CompiledRead, ReadRequest, ReadResult, SqliteReaderData } from "./sqliteReaderProtocol.js"

/**
 * SQLite's default page cache is 2 MiB: a search that reads the rows of thousands of matches then goes to the
 * operating system for almost every page, which made common-word searches over 100 000 records ~1.7× slower. The
 * search connection reads through a memory map instead (pages shared with the OS cache, not copied), with a larger
 * cache for the pages the map does not serve (the write-ahead log's). The writing connection keeps the defaults:
 * it reads little, and a large cache there only raised the server's memory during ingestion.
 */
const MMAP_BYTES = 1024 * 2 ** 20
// Per connection: the two readers share the memory map, not their caches.
const CACHE_KIB = 32 * 1024

export interface SqliteReader {
  /**
   * Runs a compiled read-only statement (`[sql, params]`) in the worker (sqliteReader.worker.ts), where SQL also has
   * `gloss_cosine`.
   */
  readonly all: (compiled: readonly [string, ReadonlyArray<unknown>]) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>
  /** Runs several, one after the other, in one call to a worker: each one's rows (null: skipped), in order. */
  readonly each: (statements: ReadonlyArray<CompiledRead>) => Effect.Effect<ReadResult, SqlError.SqlError>
  /**
   * Statements taken by a worker (`busy`), those a worker has begun (`running`), and workers stopped
   * mid-statement that have not ended yet (`draining`).
   */
  readonly load: () => { readonly busy: number; readonly running: number; readonly draining: number }
}

/**
 * Two connections, each in its worker: a search ranking a common word's matches takes tens of milliseconds of one
 * core, and with one worker every other search queued behind it while the second core idled.
 */
const READERS = 2

/**
 * A reader of `filename`, its workers started on first use and stopped with the scope. A worker that dies fails the
 * statement it was running; the next statement starts a new one.
 *
 * Each worker runs one statement at a time; the others wait here, in the main thread, for the first worker free.
 * So a statement whose caller is interrupted (its client went away, its search ran past its time budget) is the
 * only one its worker runs: that worker is stopped and the next statement gets a new one, at once, instead of
 * every later search queueing behind a statement nobody waits for. better-sqlite3 cannot interrupt a statement, so
 * a stopped worker ends when its statement returns; one of them per worker may still be ending (searches wait for
 * it beyond that), so abandoned searches cannot multiply the threads at work.
 */
export const makeSqliteReader = (options: { readonly filename: string }): Effect.Effect<SqliteReader, never, Scope.Scope> =>
  Effect.gen(function*() {
    const workers = yield* Effect.all(Array.from({ length: READERS }, () =>
      makeWorkerCalls<ReadRequest, ReadResult>({
        name: "search worker",
        module: workerModule("sqlite-reader", new URL("./sqliteReader.worker.ts", import.meta.url)),
        workerData: { filename: options.filename, mmapBytes: MMAP_BYTES, cacheKib: CACHE_KIB } satisfies SqliteReaderData,
        stopOnInterrupt: { maxDraining: 1 }
      })))
    const busy = workers.map(() => false)
    const free = yield* Effect.makeSemaphore(READERS)
    const each = (statements: ReadonlyArray<CompiledRead>) =>
      free.withPermits(1)(
        // Taken and given back uninterruptibly: an interruption between the two would lose the worker.
        Effect.uninterruptibleMask((restore) => {
          const chosen = Math.max(0, busy.indexOf(false))
          busy[chosen] = true
          return restore((workers[chosen] ?? workers[0]!).call({ statements })).pipe(
            Effect.ensuring(Effect.sync(() => (busy[chosen] = false)))
          )
        })
      ).pipe(
        Effect.mapError((error) =>
          new SqlError.SqlError({ cause: error.message, message: `Failed to execute statement: ${error.message}` })
        ),
        // From the wait for a free worker to the rows: a trace shows a search queued behind another's statement.
        Effect.withSpan("SqliteReader.read", { attributes: { statements: statements.length } })
      )
    return {
      all: ([sql, params]) => Effect.map(each([{ sql, params }]), (results) => results[0] ?? []),
      each,
      load: () => ({
        busy: busy.filter(Boolean).length,
        running: workers.reduce((sum, worker) => sum + worker.running(), 0),
        draining: workers.reduce((sum, worker) => sum + worker.draining(), 0)
      })
    } satisfies SqliteReader
  })
