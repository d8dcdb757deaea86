/** How Gloss opens a SQLite file: 16 KiB pages and WAL for a new file; an older file opens as it was made. */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import Sqlite from "better-sqlite3"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SQLITE_PAGE_SIZE, SqlLive } from "../../src/services/database/Database.js"

/** The file's page size and journal mode as Gloss's own client sees them, and whether it can write. */
const openWithGloss = (home: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`create table if not exists probe (n integer)`
    yield* sql`insert into probe values (1)`
    const [page] = yield* sql<{ page_size: number }>`PRAGMA page_size`
    const [journal] = yield* sql<{ journal_mode: string }>`PRAGMA journal_mode`
    const [count] = yield* sql<{ n: number }>`select count(*) as n from probe`
    return { pageSize: page?.page_size, journal: journal?.journal_mode, rows: count?.n }
  }).pipe(Effect.provide(SqlLive.pipe(Layer.provide(GlossConfig.fromRecord({ GLOSS_HOME_PATH: home })))))

const tempHome = () => fs.mkdtempSync(path.join(os.tmpdir(), "gloss-sqlite-file-"))

describe("the SQLite file", () => {
  it.effect("a new file gets 16 KiB pages and the write-ahead log", () =>
    Effect.gen(function*() {
      const home = tempHome()
      expect(yield* openWithGloss(home)).toEqual({ pageSize: SQLITE_PAGE_SIZE, journal: "wal", rows: 1 })
      expect(SQLITE_PAGE_SIZE).toBe(16384)
      // Opened again, nothing changes and the row is still there.
      expect(yield* openWithGloss(home)).toEqual({ pageSize: SQLITE_PAGE_SIZE, journal: "wal", rows: 2 })
      fs.rmSync(home, { recursive: true, force: true })
    }))

  it.effect("a file made with 4 KiB pages and no WAL keeps its pages, turns to WAL and keeps its data", () =>
    Effect.gen(function*() {
      const home = tempHome()
      const older = new Sqlite(path.join(home, "gloss.db"))
      older.pragma("page_size = 4096")
      older.exec("create table probe (n integer); insert into probe values (0)")
      older.close()
      expect(yield* openWithGloss(home)).toEqual({ pageSize: 4096, journal: "wal", rows: 2 })
      fs.rmSync(home, { recursive: true, force: true })
    }))
})
