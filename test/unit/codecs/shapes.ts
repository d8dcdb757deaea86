/**
 * What the codec property tests share: generators for the shapes either database returns for a column (numbers or
 * PostgreSQL's bigint text, Dates or ISO text with and without a zone, JSON text or values already parsed, Buffers,
 * nulls), and for values a fast path must not vouch for; and the two ways of decoding a page compared by every test.
 *
 * The generators are Effect's bundled fast-check (`FastCheck` from "effect"), the one `Arbitrary.make(schema)` builds
 * on: its arbitraries cannot be mixed with the `fast-check` package's, whose random generator differs.
 */
import { Arbitrary, Effect, Either, FastCheck as fc, ParseResult, Schema } from "effect"

export { fc }

/** A page decoded through the schema: the values, or the schema's error message. */
export const bySchema = <A, I>(schema: Schema.Schema<A, I>, rows: ReadonlyArray<unknown>) =>
  Either.mapLeft(Schema.decodeUnknownEither(Schema.Array(schema))(rows), (error) => error.message)

/** A page decoded by a hand codec built with plainRows: the values, or its error's message. */
export const byFastPath = <A>(
  decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError>,
  rows: ReadonlyArray<unknown>
) => Either.mapLeft(Effect.runSync(Effect.either(decode(rows))), (error) => error.message)

/** How many generated cases each property runs: enough to reach the rare shapes, few enough for the unit tier. */
export const RUNS = 400

// --- ids ---------------------------------------------------------------------------------------------------------

export const uuid = fc.uuid()
/** Ids as stored (lower case), in upper case (the schema takes either), and what no UUID schema takes. */
export const idLike = fc.oneof(
  { weight: 6, arbitrary: uuid },
  { weight: 1, arbitrary: uuid.map((id) => id.toUpperCase()) },
  { weight: 1, arbitrary: fc.constantFrom("r1", "", "0b9f6c1e-4a57-4a8f-9d5e-2f6a1c3b7d1", "0b9f6c1e4a574a8f9d5e2f6a1c3b7d10") },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 7) }
)

// --- integers (DbInt) ----------------------------------------------------------------------------------------------

/** Integers as SQLite returns them (numbers) and PostgreSQL returns bigint (decimal text). */
export const dbInt = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.maxSafeInteger(),
  fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }).map(String),
  fc.integer({ min: -1000, max: -1 }).map(String)
)
/** Values near an integer that DbInt refuses, or reads though a fast path may not (the schema then decides). */
export const notDbInt = fc.oneof(
  fc.constantFrom(null, undefined, 1.5, -0.5, Number.NaN, Infinity, 2 ** 53, -(2 ** 60), "", "007", "1e3", " 4", "4 ", "+4", "-0", "0x10", "1.0", "12a"),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n }).map(String),
  fc.double(),
  fc.boolean()
)

// --- timestamps (DbTimestamp) --------------------------------------------------------------------------------------

/** Instants from years 1 to 9999, where ISO text and `Date` agree. */
export const instant = fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true })
const two = (n: number) => String(n).padStart(2, "0")
/** A zone offset as text, `±HH:MM`, `±HHMM` or `±HH`. */
const offset = fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 15, 30, 45), fc.constantFrom(":", "", "none"))
  .map(([sign, h, m, sep]) => sep === "none" ? `${sign}${two(h)}` : `${sign}${two(h)}${sep}${two(m)}`)

/** A timestamp as either database returns it: a Date (PostgreSQL), or ISO text with `Z`, an offset or no zone. */
export const dbTimestamp = fc.oneof(
  instant,
  instant.map((date) => date.toISOString()),
  // SQLite's own `datetime()` form and ISO without a zone: read as UTC.
  instant.map((date) => date.toISOString().slice(0, -1)),
  instant.map((date) => date.toISOString().slice(0, 19).replace("T", " ")),
  fc.tuple(instant, offset).map(([date, zone]) => `${date.toISOString().slice(0, -1)}${zone}`)
)
/** What DbTimestamp refuses (or a Date it takes as is, even an invalid one). */
export const notDbTimestamp = fc.oneof(
  fc.constantFrom(null, undefined, 0, 1.5, true, "", "yesterday", "2026-13-40T00:00:00Z", "2026-11-22T25:00:00", "not 2026"),
  fc.constant(new Date(Number.NaN)),
  fc.string(),
  fc.integer()
)

// --- JSON columns (DbJson) -----------------------------------------------------------------------------------------

export const jsonValue = fc.jsonValue({ maxDepth: 3 })
export const jsonObject = fc.dictionary(fc.string(), jsonValue, { maxKeys: 5 })
/** JSON text of an object, as both databases return a JSON column. */
export const jsonObjectText = jsonObject.map((value) => JSON.stringify(value))
/** Text that is JSON but not an object, or not JSON at all, or a value already parsed, or a key the schema drops. */
export const notJsonObjectText = fc.oneof(
  fc.constantFrom("[1]", "null", "3", "\"x\"", "true", "{", "", "{\"a\": }", "{\"__proto__\": {\"x\": 1}, \"a\": 1}", "{\"a\": 1}x"),
  jsonValue.filter((value) => typeof value !== "object" || value === null || Array.isArray(value)).map((value) => JSON.stringify(value)),
  jsonObject,
  fc.string(),
  fc.constantFrom(7, true, undefined)
)
/** JSON text of any value: what `DbJson(Schema.Unknown)` takes. */
export const jsonText = jsonValue.map((value) => JSON.stringify(value))
export const notJsonText = fc.oneof(
  fc.constantFrom("{", "", "a", "{\"a\": }", "[1,]", "undefined", "NaN"),
  jsonValue.filter((value) => typeof value !== "string"),
  fc.constantFrom(undefined)
)

// --- bytes (vectors) -----------------------------------------------------------------------------------------------

/** Stored vectors: float64 bytes as a Uint8Array (SQLite) or a Node Buffer (PostgreSQL), any length. */
export const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.uint8Array({ maxLength: 64 }).map((array) => Buffer.from(array)),
  // A view into a larger pool, as small Buffers are: odd offsets included.
  fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.nat(7)).map(([array, skip]) =>
    Buffer.from(Buffer.concat([Buffer.alloc(skip), Buffer.from(array)]).buffer, skip, array.length)
  )
)
export const notBytes = fc.constantFrom(null, undefined, [1, 2], "AAAA", 3, {})

// --- rows ----------------------------------------------------------------------------------------------------------

/** A generator of the value of one column of a row: its valid shapes most of the time, else something else. */
export interface Column {
  readonly valid: fc.Arbitrary<unknown>
  readonly invalid: fc.Arbitrary<unknown>
}

/**
 * Rows from their columns: most are valid in every column, the others have one column (or a missing one) that is
 * not, so that a page of a few rows is often accepted and often refused. Rows may carry a column the schema does not
 * name (`select *` reads SQLite's rowid alias, PostgreSQL's seq), which both drop.
 */
export const rows = (columns: Readonly<Record<string, Column>>, options?: { readonly maxLength?: number }) => {
  const names = Object.keys(columns)
  const valid = fc.record(Object.fromEntries(names.map((name) => [name, columns[name]!.valid])))
  const extra = fc.option(dbInt, { nil: undefined })
  const row = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(valid, extra) },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, extra, fc.constantFrom(...names)).chain(([row, seq, name]) =>
        fc.oneof(columns[name]!.invalid, fc.constant(missing)).map((value) => {
          const broken: Record<string, unknown> = { ...row }
          if (value === missing) delete broken[name]
          else broken[name] = value
          return [broken, seq] as const
        })
      )
    }
  ).map(([row, seq]) => (seq === undefined ? row : { ...row, seq }))
  const page = fc.array(fc.oneof({ weight: 30, arbitrary: row }, { weight: 1, arbitrary: fc.constantFrom(null, "row", 3) }), {
    maxLength: options?.maxLength ?? 4
  })
  return page
}
const missing = Symbol("missing")

/**
 * Checks that `decode` equals the schema on every generated page, and that the pages went both ways (some accepted,
 * some refused), so that the property cannot pass by generating only one kind.
 */
export const equalsSchema = <A, I>(
  schema: Schema.Schema<A, I>,
  decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError>,
  pages: fc.Arbitrary<ReadonlyArray<unknown>>,
  same: (fast: unknown, slow: unknown) => void
) => {
  let accepted = 0
  let refused = 0
  fc.assert(
    fc.property(pages, (page) => {
      const slow = bySchema(schema, page)
      if (Either.isRight(slow) && page.length > 0) accepted++
      if (Either.isLeft(slow)) refused++
      same(byFastPath(decode, page), slow)
    }),
    { numRuns: RUNS }
  )
  return { accepted, refused }
}

// --- values for the hand encoders -----------------------------------------------------------------------------------

/** Whether every Date in `value` is a real instant (the schemas cannot encode an invalid one either). */
const realDates = (value: unknown): boolean =>
  value instanceof Date
    ? !Number.isNaN(value.getTime())
    : typeof value === "object" && value !== null
    ? Object.values(value).every(realDates)
    : true

/**
 * Values of `schema` as the service holds them before a hand encoder writes them: decoded by the schemas (rows read
 * back, payloads taken in), which is what an encoding decoded again gives. A map the schemas type as a record
 * (`fields`, `metadata`, a response's `values`, `vectors`) then never holds an own `__proto__` key: the schemas copy
 * keys into a new object, where that key sets the prototype instead. `Arbitrary.make` can build such a map, which the schema's encoding would drop and
 * `JSON.stringify` would write, but no value the service holds has one.
 */
export const decoded = <A, I>(schema: Schema.Schema<A, I>) =>
  Arbitrary.make(schema).filter(realDates).map((value) => Schema.decodeSync(schema)(Schema.encodeSync(schema)(value)))

