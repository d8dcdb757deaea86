/**
 * The built-in engine's range filter over JSON values (metadata, suggestion scores, response values), on both
 * databases: a number within the bounds, or an array with one, matches; anything else (strings of digits, booleans,
 * null, a missing key, nested arrays) does not. PostgreSQL compares a number directly and expands only arrays; SQLite
 * expands both shapes with json_each. Every shape against every pair of bounds, checked against the rule in
 * JavaScript.
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

for (const dialect of dialects) {
  describe(`${dialect}: numberBetween`, () => {
    it.scopedLive("matches numbers, and arrays holding one, within the bounds", () =>
      Effect.gen(function*() {
        const { env } = yield* freshDatabase(dialect)
        yield* Effect.provide(check, SqlLive.pipe(Layer.provide(GlossConfig.fromRecord(env))))
      }), 30_000)
  })
}
