/**
 * The hand-checked bulk payloads (src/codecs/bulkPayload.ts) are exactly what the schemas decode: for every payload,
 * either the fast path steps aside (and the schema decides, with its own errors) or it gives what the schema gives.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { RecordsBulkCreate, RecordsBulkUpsert } from "../../src/domain/Record.js"
import { plainBulk } from "../../src/codecs/bulkPayload.js"

const ID = "0b9f6c1e-4a57-4a8f-9d5e-2f6a1c3b7d10"

/** `levels` arrays, one inside the other. */
const nested = (levels: number): unknown => {
  let value: unknown = "leaf"
  for (let i = 0; i < levels; i++) value = [value]
  return value
}

const plain = (i: number) => ({
  external_id: `rec-${i}`,
  fields: { title: "Großartig 👍🏽", body: "text", nested: { a: [1, 2] } },
  metadata: { source: "web", stars: i % 6, score: 0.5, tags: ["a"] }
})

/** Variations of one record, plain or not, valid or not. */
const variants: ReadonlyArray<[string, unknown]> = [
  ["plain", plain(1)],
  ["only fields", { fields: { text: "x" } }],
  ["null metadata and external id", { fields: { text: "x" }, metadata: null, external_id: null }],
  ["an id", { id: ID, fields: { text: "x" } }],
  ["a null id", { id: null, fields: { text: "x" } }],
  ["an upper-case id", { id: ID.toUpperCase(), fields: { text: "x" } }],
  ["no fields", { external_id: "a", metadata: { n: 1 } }],
  ["null fields", { external_id: "a", fields: null }],
  ["empty fields", { fields: {} }],
  ["fields as an array", { fields: ["x"] }],
  ["fields as a string", { fields: "x" }],
  ["metadata as an array", { fields: { text: "x" }, metadata: [1] }],
  ["an empty external id", { fields: { text: "x" }, external_id: "" }],
  ["an external id of 2000 characters", { fields: { text: "x" }, external_id: "e".repeat(2000) }],
  ["an external id of 2001 characters", { fields: { text: "x" }, external_id: "e".repeat(2001) }],
  ["a numeric external id", { fields: { text: "x" }, external_id: 7 }],
  ["a malformed id", { id: "not-a-uuid", fields: { text: "x" } }],
  ["an unknown key", { fields: { text: "x" }, status: "completed" }],
  ["responses", { fields: { text: "x" }, responses: [{ user_id: ID, status: "draft" }] }],
  ["null responses", { fields: { text: "x" }, responses: null }],
  ["suggestions", { fields: { text: "x" }, suggestions: [{ question_name: "q", value: "a" }] }],
  ["vectors", { fields: { text: "x" }, vectors: { v: [0.1, 0.2] } }],
  ["two vectors, one empty", { fields: { text: "x" }, vectors: { v: [0.1, 0.2], w: [] } }],
  ["no vectors", { fields: { text: "x" }, vectors: {} }],
  ["null vectors", { fields: { text: "x" }, vectors: null }],
  ["a vector with a string", { fields: { text: "x" }, vectors: { v: [0.1, "0.2"] } }],
  ["a vector with null", { fields: { text: "x" }, vectors: { v: [null] } }],
  ["a vector that is a number", { fields: { text: "x" }, vectors: { v: 0.1 } }],
  ["vectors as a list", { fields: { text: "x" }, vectors: [[0.1]] }],
  ["__proto__ in vectors", JSON.parse(`{"fields": {"text": "x"}, "vectors": {"__proto__": [1]}}`)],
  // The object itself is level 1: 31 more levels are the most a stored value may nest (MAX_JSON_DEPTH = 32).
  ["metadata at the depth limit", { fields: { text: "x" }, metadata: { deep: nested(31) } }],
  ["metadata past the depth limit", { fields: { text: "x" }, metadata: { deep: nested(32) } }],
  ["fields at the depth limit", { fields: { text: "x", custom: nested(31) } }],
  ["fields past the depth limit", { fields: { text: "x", custom: nested(32) } }],
  ["fields nested 100 000 deep", { fields: { custom: nested(100_000) } }],
  ["__proto__ in fields", JSON.parse(`{"fields": {"__proto__": {"x": 1}, "text": "x"}}`)],
  ["__proto__ in the record", JSON.parse(`{"fields": {"text": "x"}, "__proto__": {"x": 1}}`)],
  ["null", null],
  ["a string", "record"]
]

const decode = (mode: "create" | "upsert", body: unknown): Either.Either<unknown, unknown> =>
  mode === "create"
    ? Schema.decodeUnknownEither(RecordsBulkCreate)(body)
    : Schema.decodeUnknownEither(RecordsBulkUpsert)(body)

const bodies: ReadonlyArray<[string, unknown]> = [
  ...variants.map(([name, item]): [string, unknown] => [`one record with ${name}`, { items: [item] }]),
  ...variants.map(([name, item]): [string, unknown] => [`${name} among plain records`, { items: [plain(0), item, plain(2)] }]),
  ["500 plain records", { items: Array.from({ length: 500 }, (_, i) => plain(i)) }],
  ["501 plain records", { items: Array.from({ length: 501 }, (_, i) => plain(i)) }],
  ["no records", { items: [] }],
  ["items not a list", { items: plain(1) }],
  ["no items", {}],
  ["another top-level key", { items: [plain(1)], extra: true }],
  ["a list", [plain(1)]],
  ["null", null]
]

describe("plainBulk", () => {
  for (const mode of ["create", "upsert"] as const) {
    for (const [name, body] of bodies) {
      it(`${mode}: ${name}`, () => {
        const fast = plainBulk(body, mode)
        const schema = decode(mode, body)
        // Where the fast path answers, the schema accepts the payload and decodes it to the same value.
        if (fast !== undefined) {
          expect(Either.isRight(schema)).toBe(true)
          if (Either.isRight(schema)) expect(fast).toStrictEqual(schema.right)
        }
      })
    }
  }

  it("takes the shape of an import, and steps aside for anything it does not check", () => {
    const importBatch = { items: Array.from({ length: 500 }, (_, i) => plain(i)) }
    expect(plainBulk(importBatch, "create")).toBeDefined()
    expect(plainBulk(importBatch, "upsert")).toBeDefined()
    expect(plainBulk({ items: [{ id: ID, fields: { text: "x" } }] }, "upsert")).toBeDefined()
    // An import with embeddings: the vectors pass through as they came (no copy of the numbers).
    const vector = [0.25, -0.5, 1]
    const withVectors = plainBulk({ items: [{ ...plain(0), vectors: { emb: vector } }] }, "create")
    expect(withVectors?.items[0]?.vectors?.emb).toBe(vector)
    for (const item of [
      { fields: { text: "x" }, responses: [] },
      { fields: { text: "x" }, external_id: "" },
      { fields: { text: "x" }, unknown: 1 },
      { fields: { text: "x" }, vectors: { v: [0.1, "0.2"] } }
    ]) {
      expect(plainBulk({ items: [item] }, "upsert")).toBeUndefined()
    }
    // Values nested past the limit are the schema's to refuse.
    expect(plainBulk({ items: [{ fields: { text: "x" }, metadata: { deep: nested(32) } }] }, "create")).toBeUndefined()
    expect(Either.isLeft(decode("create", { items: [{ fields: { text: "x" }, metadata: { deep: nested(32) } }] })))
      .toBe(true)
    // Create needs fields, and takes no id.
    expect(plainBulk({ items: [{ external_id: "a" }] }, "create")).toBeUndefined()
    expect(plainBulk({ items: [{ id: ID, fields: { text: "x" } }] }, "create")).toBeUndefined()
  })
})
