/**
 * The SQLite search worker thread (started by SqliteReader.ts): a read-only connection of its own that runs one
 * compiled statement at a time and answers with its rows.
 *
 * `gloss_cosine(stored, unit)` is the exact cosine of a stored vector with a unit query, the very function every
 * other path scores with (vectors/math.ts): a search rescoring its ANN candidates reads their scores, not their
 * vectors. Moving 100 vectors of 384 float64s to the main thread and decoding them there left enough garbage for
 * regular full collections, which held the searches running at the time: the 1 % tail of vector search at a million
 * records (`npm run bench -- scale`).
 */
import Database from "better-sqlite3"
import { serveCalls, startedWith } from "../workers/serve.js"
import { storedCosine } from "../vectors/math.js"
import { type ReadRequest, type ReadResult, skipped, type SqliteReaderData } from "./sqliteReaderProtocol.js"

const { cacheKib, filename, mmapBytes } = startedWith<SqliteReaderData>()
const db = new Database(filename, { readonly: true, fileMustExist: true })
db.pragma(`mmap_size = ${mmapBytes}`)
db.pragma(`cache_size = -${cacheKib}`)
db.function("gloss_cosine", { deterministic: true }, (stored: unknown, unit: unknown) =>
  stored instanceof Uint8Array && unit instanceof Uint8Array ? storedCosine(stored, unit) : null)

/** better-sqlite3 binds Buffers, not the plain Uint8Arrays a posted blob arrives as. */
const bindable = (param: unknown) =>
  param instanceof Uint8Array && !Buffer.isBuffer(param) ? Buffer.from(param.buffer, param.byteOffset, param.byteLength) : param

/** Prepared statements by text, the 200 most recently added (a search's statements repeat with other parameters). */
const statements = new Map<string, Database.Statement>()
const prepared = (sql: string) => {
  const known = statements.get(sql)
  if (known !== undefined) return known
  if (statements.size >= 200) statements.delete(statements.keys().next().value!)
  const statement = db.prepare(sql)
  statements.set(sql, statement)
  return statement
}

serveCalls<ReadRequest, ReadResult>(({ statements }, begun) => {
  const ready = statements.map((read) => ({ ...read, statement: prepared(read.sql), params: read.params.map(bindable) }))
  // Begun: from here on the worker is inside SQLite, where only stopping it ends a statement.
  begun()
  const results: Array<ReadonlyArray<unknown> | null> = []
  for (const { params, skipWhenPrevious, statement } of ready) {
    results.push(skipped(skipWhenPrevious, results[results.length - 1]) ? null : statement.all(...params))
  }
  return results
})
