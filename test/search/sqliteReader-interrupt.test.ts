/**
 * A search abandoned on SQLite (its client went away, its time budget passed) gives its worker back at once: the
 * worker running it is stopped and the next statement gets a new one, so ordinary searches do not queue behind
 * statements nobody waits for. The statements here bypass the search text limit: each would hold a worker for
 * seconds. better-sqlite3 cannot interrupt a statement, so a stopped worker ends when its statement does; the
 * assertions show the ordinary statements answered while the abandoned ones were still running.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import Sqlite from "better-sqlite3"
import { Effect, Fiber } from "effect"
import { makeSqliteReader, type SqliteReader } from "../../src/services/search/database/SqliteReader.js"

const databaseFile = () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-reader-")), "gloss.db")
  const db = new Sqlite(file)
  db.pragma("journal_mode = WAL")
  db.exec("create table t (n integer)")
  const insert = db.prepare("insert into t values (?)")
  for (let n = 0; n < 1000; n++) insert.run(n)
  db.close()
  return file
}

/** One native call of `steps` steps of SQLite's virtual machine, several times over: ten million take seconds. */
const hostileOf = (steps: number) =>
  [`with recursive c(n) as (select 1 union all select n + 1 from c where n < ${steps}) select count(*) as k from c`, []] as const
const ORDINARY = ["select count(*) as c from t", []] as const

/** Until `count` statements are running inside the workers: the hostile ones have begun (polled, nothing timed). */
const whenRunning = (reader: SqliteReader, count: number): Effect.Effect<void> =>
  Effect.suspend(() =>
    reader.load().running >= count ? Effect.void : Effect.zipRight(Effect.sleep("5 millis"), whenRunning(reader, count))
  )

/** Starts hostile statements on every worker, then interrupts their callers. */
const abandonHostile = (reader: SqliteReader, count: number, steps = 10_000_000) =>
  Effect.gen(function*() {
    const hostile = yield* Effect.all(Array.from({ length: count }, () => Effect.fork(reader.all(hostileOf(steps)))))
    yield* whenRunning(reader, count)
    yield* Effect.forEach(hostile, Fiber.interrupt, { discard: true })
  })

describe("SqliteReader, interrupted", () => {
  it.scopedLive("an interrupted statement frees its worker: an ordinary one answers while it is still running", () =>
    Effect.gen(function*() {
      const reader = yield* makeSqliteReader({ filename: databaseFile() })
      yield* abandonHostile(reader, 2)
      // Both workers were stopped, none is busy: without stopping them, the next statement would wait for seconds.
      expect(reader.load()).toEqual({ busy: 0, running: 0, draining: 2 })
      expect(yield* reader.all(ORDINARY)).toEqual([{ c: 1000 }])
      expect(yield* Effect.all([reader.all(ORDINARY), reader.all(ORDINARY)], { concurrency: "unbounded" })).toEqual([
        [{ c: 1000 }],
        [{ c: 1000 }]
      ])
      // The abandoned statements had not finished when the ordinary ones answered.
      expect(reader.load().draining).toBe(2)
    }), 30_000)

  it.scopedLive("a statement that answers in time leaves its worker running", () =>
    Effect.gen(function*() {
      const reader = yield* makeSqliteReader({ filename: databaseFile() })
      yield* reader.all(ORDINARY)
      const fiber = yield* Effect.fork(reader.all(ORDINARY))
      expect(yield* Fiber.join(fiber)).toEqual([{ c: 1000 }])
      yield* Fiber.interrupt(fiber)
      expect(reader.load()).toEqual({ busy: 0, running: 0, draining: 0 })
    }))

  it.scopedLive("abandoned statements cannot multiply the threads: past one ending per worker, the next waits", () =>
    Effect.gen(function*() {
      const reader = yield* makeSqliteReader({ filename: databaseFile() })
      // The first two run long enough to outlast the rest of the test; the next two end sooner, and free a worker.
      yield* abandonHostile(reader, 2, 20_000_000)
      yield* abandonHostile(reader, 2, 8_000_000)
      // Two per worker at most. Usually all four are still ending here, but under a loaded run one of the shorter
      // ones has ended before this count (twice, at 3 and at 8 million steps): the bound holds either way.
      const before = reader.load().draining
      expect(before).toBeLessThanOrEqual(4)
      // The next statement needs a new worker, and each worker already has two stopped ones ending: it starts only
      // once one of them has ended, so the stopped workers are never more than before.
      expect(yield* reader.all(ORDINARY)).toEqual([{ c: 1000 }])
      expect(reader.load().draining).toBeLessThanOrEqual(Math.min(before, 3))
    }), 120_000)
})
