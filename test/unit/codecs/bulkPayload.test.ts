/**
 * The bulk payloads' fast path (src/codecs/bulkPayload.ts) equals its schemas: `plainBulk` vouches only for bodies
 * `RecordsBulkCreate` / `RecordsBulkUpsert` accept, and gives what they decode to; everything else it leaves to the
 * schema (which then answers with its own error).
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { plainBulk } from "../../../src/codecs/bulkPayload.js"
import { RecordsBulkCreate, RecordsBulkUpsert } from "../../../src/domain/Record.js"
import { fc, jsonObject, RUNS } from "./shapes.js"

/** `levels` arrays, one inside the other. */
const nested = (levels: number): unknown => {
  let value: unknown = "leaf"
  for (let i = 0; i < levels; i++) value = [value]
  return value
}

/** JSON objects a client sends as fields or metadata, and objects the schemas take differently or refuse. */
const object = fc.oneof({ weight: 6, arbitrary: jsonObject }, {
  weight: 1,
  arbitrary: fc.constantFrom(
    { deep: nested(30) },
    { deep: nested(31) },
    { deep: nested(32) },
    JSON.parse("{\"__proto__\": {\"x\": 1}, \"a\": 1}") as unknown
  )
})
const notObject = fc.constantFrom([1], "x", 3, true, undefined)
const vectors = fc.dictionary(fc.string({ maxLength: 5 }), fc.array(fc.double(), { maxLength: 4 }), { maxKeys: 3 })
const notVectors = fc.constantFrom([[0.1]], { v: [0.1, "0.2"] }, { v: [null] }, { v: 0.1 }, JSON.parse("{\"__proto__\": [1]}") as unknown)
const externalId = fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom("e".repeat(2000)))
const notExternalId = fc.constantFrom("", "e".repeat(2001), 7)

/**
 * A record of a bulk body: the keys of an import (each valid or not, present or not), and at times another key. A
 * create takes no `id`: for it, most records have none.
 */
const itemOf = (mode: "create" | "upsert") => fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      fields: fc.oneof({ weight: 8, arbitrary: object }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: notObject }),
      metadata: fc.oneof({ weight: 6, arbitrary: object }, { weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: notObject }),
      external_id: fc.oneof({ weight: 6, arbitrary: externalId }, { weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: notExternalId }),
      id: fc.oneof({ weight: 6, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom("not-a-uuid", "") }),
      vectors: fc.oneof({ weight: 6, arbitrary: vectors }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: notVectors })
    }, { requiredKeys: [] }).chain((record) => {
      if (mode === "upsert" || !Object.hasOwn(record, "id")) return fc.constant(record)
      const { id: _, ...withoutId } = record
      return fc.oneof({ weight: 1, arbitrary: fc.constant(record) }, { weight: 9, arbitrary: fc.constant(withoutId) })
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({
      fields: jsonObject,
      status: fc.constant("completed"),
      responses: fc.constantFrom(null, [], [{ user_id: "0b9f6c1e-4a57-4a8f-9d5e-2f6a1c3b7d10", status: "draft" }]),
      suggestions: fc.constantFrom(null, [{ question_name: "q", value: "a" }])
    }, { requiredKeys: ["fields"] })
  },
  { weight: 1, arbitrary: fc.constantFrom(null, "record", [], JSON.parse("{\"fields\": {\"a\": 1}, \"__proto__\": {\"x\": 1}}") as unknown) }
)

const bodyOf = (mode: "create" | "upsert") => {
  const item = itemOf(mode)
  return fc.oneof(
  { weight: 12, arbitrary: fc.record({ items: fc.array(item, { maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ items: fc.array(item, { maxLength: 2 }), extra: fc.jsonValue({ maxDepth: 1 }) }) },
  { weight: 1, arbitrary: fc.constantFrom(null, [], {}, { items: {} }, { items: "x" }) },
  {
    weight: 1,
    arbitrary: fc.tuple(item, fc.constantFrom(500, 501)).map(([one, n]) => ({ items: Array.from({ length: n }, () => one) }))
  }
  )
}

const decode = (mode: "create" | "upsert", value: unknown): Either.Either<unknown, unknown> =>
  mode === "create" ? Schema.decodeUnknownEither(RecordsBulkCreate)(value) : Schema.decodeUnknownEither(RecordsBulkUpsert)(value)

describe("plainBulk", () => {
  for (const mode of ["create", "upsert"] as const) {
    it(`${mode}: vouches only for what the schema accepts, and gives what it decodes to`, () => {
      let vouched = 0
      let refused = 0
      fc.assert(
        fc.property(bodyOf(mode), (value) => {
          const fast = plainBulk(value, mode)
          const slow = decode(mode, value)
          if (Either.isLeft(slow)) refused++
          if (fast === undefined) return
          vouched++
          expect(slow).toStrictEqual(Either.right(fast))
        }),
        { numRuns: RUNS }
      )
      // Both kinds came up: plain bodies the fast path took, and bodies left to the schema.
      expect(Math.min(vouched, refused)).toBeGreaterThan(RUNS / 20)
    })
  }
})
