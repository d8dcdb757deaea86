/**
 * The row decoders with a hand-written fast path (src/codecs/plainRows.ts) give exactly what their
 * schemas give: for every row, the same value, or the schema's own error when the schema refuses it. And the
 * remembered decoding of a dataset's settings decodes again whenever a row changed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { intOf, plainRows, rememberedRows } from "../../src/codecs/plainRows.js"
import { DbInt } from "../../src/codecs/columns.js"
import { decodeRecordRows, RecordRow } from "../../src/codecs/recordRows.js"
import { decodeHits } from "../../src/codecs/hitRows.js"
import { decodeStamped, decodeValued, Stamped, Valued } from "../../src/codecs/vectorRows.js"
import { RecordId } from "../../src/domain/Ids.js"

const ID = "0b9f6c1e-4a57-4a8f-9d5e-2f6a1c3b7d10"
const DATASET = "6a1f0e2d-3c4b-4a59-8e7f-1d2c3b4a5f60"

const stored = {
  id: ID,
  dataset_id: DATASET,
  external_id: "r1",
  fields: JSON.stringify({ text: "Großartig 👍🏽 \"quoted\"\n", chat: [{ role: "user", content: "hi" }] }),
  metadata: JSON.stringify({ source: "web", stars: 4, score: 0.25, tags: ["a", "b"] }),
  status: "completed",
  inserted_at: "2026-11-22T08:00:00.123Z",
  updated_at: "2026-11-22T09:30:00.000Z",
  // `select *` brings columns the schema does not name (SQLite's rowid alias, PostgreSQL's seq): dropped by both.
  seq: 7
}

/** Variations of one stored row, as either database may return it, readable or not. */
const records: ReadonlyArray<[string, unknown]> = [
  ["as SQLite returns it", stored],
  ["PostgreSQL's Date timestamps", { ...stored, inserted_at: new Date("2026-11-22T08:00:00.123Z"), updated_at: new Date(0) }],
  ["timestamps without a zone", { ...stored, inserted_at: "2026-11-22 08:00:00.123", updated_at: "2026-11-22T08:00:00" }],
  ["timestamps with an offset", { ...stored, inserted_at: "2026-11-22T08:00:00+02:00" }],
  ["null metadata and external id", { ...stored, metadata: null, external_id: null }],
  ["an upper-case id", { ...stored, id: ID.toUpperCase() }],
  ["empty fields", { ...stored, fields: "{}" }],
  ["fields as an array", { ...stored, fields: "[1]" }],
  ["fields as null JSON", { ...stored, fields: "null" }],
  ["fields that are not JSON", { ...stored, fields: "{" }],
  ["fields already parsed", { ...stored, fields: { text: "x" } }],
  ["a __proto__ key in metadata", { ...stored, metadata: "{\"__proto__\": {\"x\": 1}, \"a\": 1}" }],
  ["metadata as a number", { ...stored, metadata: "3" }],
  ["an id that is not a UUID", { ...stored, id: "r1" }],
  ["a numeric external id", { ...stored, external_id: 3 }],
  ["an unknown status", { ...stored, status: "discarded" }],
  ["an unreadable timestamp", { ...stored, updated_at: "yesterday" }],
  ["a numeric timestamp", { ...stored, inserted_at: 0 }],
  ["no status", { ...stored, status: undefined }],
  ["not a row", null]
]

const bySchema = <A, I>(schema: Schema.Schema<A, I>, rows: ReadonlyArray<unknown>) =>
  Either.mapLeft(Schema.decodeUnknownEither(Schema.Array(schema))(rows), (error) => error.message)
const byFastPath = <A>(decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, { readonly message: string }>, rows: ReadonlyArray<unknown>) =>
  Either.mapLeft(Effect.runSync(Effect.either(decode(rows))), (error) => error.message)

describe("decodeRecordRows", () => {
  for (const [name, row] of records) {
    it(`decodes ${name} as Schema.decodeUnknown(RecordRow) does`, () => {
      // Alone, and after a row the fast path takes: a bad row anywhere sends the whole read through the schema.
      for (const rows of [[row], [stored, row]]) {
        expect(byFastPath(decodeRecordRows, rows)).toStrictEqual(bySchema(RecordRow, rows))
      }
    })
  }

  it("takes the rows the database writes without the schema, and gives their fields as stored", () => {
    const [row] = Effect.runSync(decodeRecordRows([stored]))
    expect(row?.fields).toStrictEqual(JSON.parse(stored.fields))
    expect(Object.keys(row ?? {})).toEqual(["id", "dataset_id", "external_id", "fields", "metadata", "status", "inserted_at", "updated_at"])
  })
})

describe("decodeHits", () => {
  const hits: ReadonlyArray<[string, unknown]> = [
    ["a scored hit", { id: ID, score: 0.25 }],
    ["an unscored hit", { id: ID, score: null }],
    ["a hit with more columns", { id: ID, score: 1, key: 3 }],
    ["a score as text", { id: ID, score: "0.5" }],
    ["no score", { id: ID }],
    ["an id that is not a UUID", { id: "x", score: 1 }]
  ]
  const Hit = Schema.Struct({ id: RecordId, score: Schema.NullOr(Schema.Number) })
  for (const [name, hit] of hits) {
    it(`decodes ${name} as the schema does`, () => {
      expect(byFastPath(decodeHits, [hit])).toStrictEqual(bySchema(Hit, [hit]))
    })
  }
})

describe("decodeValued and decodeStamped", () => {
  const vector = { key: 3, id: ID, value: new Uint8Array(16), at: "2026-11-22T08:00:00.123Z", version: 0 }
  const rows: ReadonlyArray<[string, unknown]> = [
    ["as SQLite returns it", vector],
    ["PostgreSQL's bigint key, row version and Date", { ...vector, key: "42", version: "3735928559", at: new Date(5) }],
    ["no row version", { ...vector, version: undefined }],
    ["a Buffer value", { ...vector, value: Buffer.from([1, 2, 3]) }],
    ["a timestamp without a zone", { ...vector, at: "2026-11-22 08:00:00" }],
    ["an unreadable timestamp", { ...vector, at: "yesterday" }],
    ["a value that is not bytes", { ...vector, value: [1, 2] }],
    ["a fractional key", { ...vector, key: 1.5 }],
    ["no id", { ...vector, id: undefined }]
  ]
  for (const [name, row] of rows) {
    it(`decodes ${name} as the schema does`, () => {
      for (const read of [[row], [vector, row]]) {
        expect(byFastPath(decodeValued, read)).toStrictEqual(bySchema(Valued, read))
        // A stamp is the same row without its value (which then is ignored, as any column the schema does not name).
        expect(byFastPath(decodeStamped, read)).toStrictEqual(bySchema(Stamped, read))
      }
    })
  }
})

describe("intOf", () => {
  const values: ReadonlyArray<unknown> = [0, 7, -3, 2 ** 53, 1.5, Number.NaN, "0", "42", "123456789012345", "-1", "007", "1e3", " 4", "", null]
  it("reads what DbInt reads, and leaves to the schema what it does not recognise", () => {
    for (const value of values) {
      const decoded = Schema.decodeUnknownEither(DbInt)(value)
      const fast = intOf(value)
      // Every value the fast path reads, the schema reads the same; the rest only the schema judges.
      if (fast !== undefined) expect(decoded).toStrictEqual(Either.right(fast))
    }
    expect([0, 7, -3, "0", "42", "123456789012345"].map(intOf)).toEqual([0, 7, -3, 0, 42, 123456789012345])
    expect([2 ** 53, 1.5, "-1", "007", "1e3", " 4", "", null].map(intOf)).toEqual(Array(8).fill(undefined))
  })
})

describe("plainRows", () => {
  it("goes through the schema, with its error, when the fast path does not vouch for a row", () => {
    const Row = Schema.Struct({ n: Schema.Int })
    const decode = plainRows(Row, ({ n }) => (n === 1 ? { n } : undefined))
    expect(byFastPath(decode, [{ n: 1 }, { n: 2 }])).toStrictEqual(Either.right([{ n: 1 }, { n: 2 }]))
    expect(byFastPath(decode, [{ n: 1 }, { n: "2" }])).toStrictEqual(bySchema(Row, [{ n: 1 }, { n: "2" }]))
    expect(Either.isLeft(byFastPath(decode, [{ n: "2" }]))).toBe(true)
  })
})

describe("rememberedRows", () => {
  const Row = Schema.Struct({ id: Schema.String, settings: Schema.parseJson(Schema.Struct({ n: Schema.Number })), at: Schema.DateFromSelf })
  const row = (n: number, at = new Date(0)) => ({ id: "a", settings: JSON.stringify({ n }), at })

  it("decodes again exactly when a row changed, a row came or went, and per key", () => {
    const decode = rememberedRows(Row)
    const first = Effect.runSync(decode("d1", [row(1)]))
    // The same rows, read again (new objects, an equal Date): the same decoded value.
    expect(Effect.runSync(decode("d1", [row(1, new Date(0))]))).toBe(first)
    const changed = Effect.runSync(decode("d1", [row(2)]))
    expect(changed).not.toBe(first)
    expect(changed[0]?.settings.n).toBe(2)
    expect(Effect.runSync(decode("d1", [row(2, new Date(1))]))[0]?.at).toEqual(new Date(1))
    expect(Effect.runSync(decode("d1", [row(2, new Date(1)), row(3)]))).toHaveLength(2)
    expect(Effect.runSync(decode("d1", []))).toEqual([])
    // Another dataset's rows are its own.
    expect(Effect.runSync(decode("d2", [row(5)]))[0]?.settings.n).toBe(5)
    expect(Effect.runSync(decode("d1", [row(1)]))[0]?.settings.n).toBe(1)
  })

  it("fails as the schema does, and remembers nothing from a failure", () => {
    const decode = rememberedRows(Row)
    const bad = [{ id: "a", settings: "{", at: new Date(0) }]
    expect(byFastPath((rows) => decode("d", rows), bad)).toStrictEqual(bySchema(Row, bad))
    expect(Effect.runSync(decode("d", [row(1)]))[0]?.settings.n).toBe(1)
  })

  it("holds at most its capacity of keys, forgetting the one decoded longest ago", () => {
    let decodes = 0
    const Counted = Schema.transform(Schema.Number, Schema.Number, { strict: true, decode: (n) => (decodes++, n), encode: (n) => n })
    const decode = rememberedRows(Schema.Struct({ n: Counted }), 2)
    const read = (key: string) => Effect.runSync(decode(key, [{ n: 1 }]))
    read("a"), read("b"), read("a")
    expect(decodes).toBe(2)
    read("c") // "a" was decoded longest ago: it goes
    read("b")
    expect(decodes).toBe(3)
    read("a")
    expect(decodes).toBe(4)
  })
})
