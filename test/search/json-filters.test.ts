/**
 * The built-in engine's reads of JSON values (metadata, suggestion scores, response values), on both databases:
 * - the range filter: a number within the bounds, or an array with one, matches; anything else (strings of digits,
 *   booleans, null, a missing key, nested arrays) does not. Every shape against every pair of bounds;
 * - the terms a metadata metric counts: each scalar, each element of an array, nothing for a missing key.
 * PostgreSQL handles a scalar directly and expands only arrays; SQLite expands both shapes with json_each. Both are
 * checked against the rule written in JavaScript.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { GlossConfig } from "../../src/Config.js"
import { SqlLive } from "../../src/services/database/Database.js"
import { jsonSql } from "../../src/services/search/database/json.js"
import { dialects, freshDatabase } from "../support/databases.js"

const MISSING = Symbol("missing")
const values: ReadonlyArray<unknown> = [3, 3.5, -2, 0, 1e-7, 4, "3", true, false, null, MISSING, [1, 5], [7, "3"], [9, 3], [], [[3]]]
const bounds: ReadonlyArray<readonly [number | undefined, number | undefined]> = [
  [2, 4],
  [3, undefined],
  [undefined, 0],
  [3, 3],
  [-5, -1],
  [0.5, 3.25]
]

const within = (value: unknown, ge: number | undefined, le: number | undefined) =>
  typeof value === "number" && (ge === undefined || value >= ge) && (le === undefined || value <= le)
const expected = (value: unknown, ge: number | undefined, le: number | undefined) =>
  Array.isArray(value) ? value.some((element) => within(element, ge, le)) : within(value, ge, le)

/** The same value at the top of the document and one level down (as response values are: `{question: {value}}`). */
const documentOf = (value: unknown) =>
  JSON.stringify(value === MISSING ? { other: 1, q: {} } : { n: value, q: { value } })

const check = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const type = sql.onDialectOrElse({ pg: () => "jsonb", orElse: () => "text" })
  yield* sql.unsafe(`create table docs (i integer primary key, doc ${type})`)
  for (const [i, value] of values.entries()) yield* sql`insert into docs (i, doc) values (${i}, ${documentOf(value)})`
  const json = jsonSql(sql)
  for (const [ge, le] of bounds) {
    const want = values.flatMap((value, i) => (expected(value, ge, le) ? [i] : []))
    for (const path of [["n"], ["q", "value"]]) {
      const rows = yield* sql<{ i: number }>`select i from docs where ${json.numberBetween("doc", path, ge, le)} order by i`
      expect(rows.map((row) => Number(row.i)), `${path.join(".")} in [${ge}, ${le}]`).toEqual(want)
    }
  }
})

const termValues: ReadonlyArray<unknown> = ["web", "book", 3, 3.5, true, false, null, MISSING, ["web", "radio"], [], ["x", 2, false]]
const sorted = (values: ReadonlyArray<unknown>) => values.map((value) => JSON.stringify(value)).sort()

const checkTerms = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const type = sql.onDialectOrElse({ pg: () => "jsonb", orElse: () => "text" })
  yield* sql.unsafe(`create table term_docs (i integer primary key, doc ${type})`)
  for (const [i, value] of termValues.entries()) yield* sql`insert into term_docs (i, doc) values (${i}, ${documentOf(value)})`
  const each = jsonSql(sql).elements("d.doc", ["n"])
  const rows = yield* sql<{ term: string }>`select ${each.term} as term from term_docs d, ${each.from}`
  const expected = termValues.flatMap((value) => (value === MISSING ? [] : Array.isArray(value) ? value : [value]))
  expect(sorted(rows.map((row) => JSON.parse(row.term)))).toEqual(sorted(expected))
})

for (const dialect of dialects) {
  describe(dialect, () => {
    const connection = Effect.map(freshDatabase(dialect), ({ env }) => SqlLive.pipe(Layer.provide(GlossConfig.fromRecord(env))))
    it.scopedLive("numberBetween matches numbers, and arrays holding one, within the bounds", () =>
      Effect.flatMap(connection, (layer) => Effect.provide(check, layer)), 30_000)
    it.scopedLive("terms are each scalar and each element of an array; a missing key gives none", () =>
      Effect.flatMap(connection, (layer) => Effect.provide(checkTerms, layer)), 30_000)
  })
}
