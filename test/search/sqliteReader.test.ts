/**
 * The search worker of the built-in engine on SQLite: it answers from its own read-only connection, keeps replies
 * apart when statements overlap, turns a bad statement into a SqlError (never a hang), and sees every commit of the
 * writing connection.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import Sqlite from "better-sqlite3"
import { Effect } from "effect"
import { makeSqliteReader } from "../../src/services/search/database/SqliteReader.js"
import { normalise, topK, unitBytes } from "../../src/services/search/vectors/math.js"

const databaseFile = () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-reader-")), "gloss.db")
  const db = new Sqlite(file)
  db.pragma("journal_mode = WAL")
  db.exec("create table t (n integer, word text)")
  const insert = db.prepare("insert into t values (?, ?)")
  for (let n = 0; n < 1000; n++) insert.run(n, `w${n % 10}`)
  return { file, db }
}

describe("SqliteReader", () => {
  it.scopedLive("answers overlapping statements, each with its own rows", () =>
    Effect.gen(function*() {
      const { db, file } = databaseFile()
      const reader = yield* makeSqliteReader({ filename: file })
      const answers = yield* Effect.all(
        Array.from({ length: 20 }, (_, i) => reader.all(["select count(*) as c, ? as i from t where word = ?", [i, `w${i % 10}`]])),
        { concurrency: "unbounded" }
      )
      expect(answers.map((rows) => rows[0])).toEqual(Array.from({ length: 20 }, (_, i) => ({ c: 100, i })))
      db.close()
    }))

  it.scopedLive("a bad statement fails with a SqlError naming the cause; the worker goes on", () =>
    Effect.gen(function*() {
      const { db, file } = databaseFile()
      const reader = yield* makeSqliteReader({ filename: file })
      const error = yield* Effect.flip(reader.all(["select * from no_such_table", []]))
      expect(error._tag).toBe("SqlError")
      expect(error.message).toContain("no such table: no_such_table")
      expect(yield* reader.all(["select count(*) as c from t", []])).toEqual([{ c: 1000 }])
      db.close()
    }))

  it.scopedLive("sees what the writing connection committed, and cannot write", () =>
    Effect.gen(function*() {
      const { db, file } = databaseFile()
      const reader = yield* makeSqliteReader({ filename: file })
      expect(yield* reader.all(["select count(*) as c from t", []])).toEqual([{ c: 1000 }])
      db.prepare("insert into t values (?, ?)").run(1000, "new")
      expect(yield* reader.all(["select count(*) as c from t", []])).toEqual([{ c: 1001 }])
      const refused = yield* Effect.flip(reader.all(["delete from t returning n", []]))
      expect(refused.message).toContain("readonly")
      db.close()
    }))

  it.scopedLive("scores a stored vector with gloss_cosine exactly as the exact search does, and refuses other dimensions", () =>
    Effect.gen(function*() {
      const { db, file } = databaseFile()
      const reader = yield* makeSqliteReader({ filename: file })
      const query = Array.from({ length: 7 }, (_, i) => Math.sin(i + 1) * 3)
      const stored = [
        Array.from({ length: 7 }, (_, i) => Math.cos(i * 1.3) / 7),
        Array.from({ length: 7 }, (_, i) => (i % 2 === 0 ? -1 : 2) * (i + 0.25)),
        Array.from({ length: 7 }, () => 0)
      ]
      // Stored as the vectors table holds them: little-endian float64 bytes.
      const bytes = (vector: ReadonlyArray<number>) => new Uint8Array(Float64Array.from(vector).buffer)
      const inSql = yield* Effect.forEach(stored, (vector) =>
        reader.all(["select gloss_cosine(?, ?) as score", [bytes(vector), unitBytes(query)]]))
      // The exact search's matrix, as VectorIndex builds it.
      const data = new Float32Array(3 * 7)
      stored.forEach((vector, i) => normalise(vector, data, i * 7))
      const exact = topK({ ids: ["0", "1", "2"], dimensions: 7, data }, query, 3, { least: false })
      // Bit for bit: a rescored candidate ranks exactly where the exact scan would put it.
      expect(inSql.map((rows) => (rows[0] as { score: number }).score)).toEqual(
        ["0", "1", "2"].map((id) => exact.find((hit) => hit.id === id)?.score)
      )
      const other = yield* reader.all(["select gloss_cosine(?, ?) as score", [bytes([1, 2, 3]), unitBytes(query)]])
      expect(other).toEqual([{ score: null }])
      db.close()
    }))

  // The server runs from its TypeScript sources under tsx (the process tests, `npm run dev`), where esbuild keeps
  // function names by wrapping them in a helper of the module: the worker's copy of vectorMath must run there too.
  it("defines gloss_cosine when the sources run under tsx", () => {
    // Inside the project, so that the script resolves its packages from the project's node_modules.
    const root = path.resolve(import.meta.dirname, "../..")
    fs.mkdirSync(path.join(root, "node_modules/.cache"), { recursive: true })
    const dir = fs.mkdtempSync(path.join(root, "node_modules/.cache/gloss-reader-tsx-"))
    const { db, file } = databaseFile()
    db.close()
    const script = path.join(dir, "cosine.mts")
    const reader = path.join(root, "src/services/search/database/SqliteReader.ts")
    fs.writeFileSync(script, `
      import { Effect } from "effect"
      import { makeSqliteReader } from ${JSON.stringify(reader)}
      const rows = await Effect.runPromise(Effect.scoped(Effect.flatMap(makeSqliteReader({ filename: ${JSON.stringify(file)} }),
        (reader) => reader.all(["select gloss_cosine(?, ?) as score", [new Uint8Array(new Float64Array([3, 4]).buffer),
          new Uint8Array(new Float32Array([0.6, 0.8]).buffer)]]))))
      console.log(JSON.stringify(rows))`)
    try {
      const printed = execFileSync(path.join(root, "node_modules/.bin/tsx"), [script], { cwd: root, encoding: "utf8" })
      expect(JSON.parse(printed)[0].score).toBeCloseTo(1, 6)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)
})
