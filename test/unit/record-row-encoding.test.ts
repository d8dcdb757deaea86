/** The hand-written encoding of record rows (bulk inserts) stays exactly the schema's. */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { encodeRecordRow, RecordRow } from "../../src/codecs/recordRows.js"

const decode = Schema.decodeUnknownSync(RecordRow)
const rows = [
  {
    id: "0b9f6c1e-4a57-4a8f-9d5e-2f6a1c3b7d10",
    dataset_id: "6a1f0e2d-3c4b-4a59-8e7f-1d2c3b4a5f60",
    external_id: "r1",
    fields: JSON.stringify({ text: "Großartig 👍🏽 \"quoted\"\n", chat: [{ role: "user", content: "hi" }] }),
    metadata: JSON.stringify({ source: "web", stars: 4, score: 0.25, tags: ["a", "b"] }),
    status: "completed",
    inserted_at: "2026-11-22T08:00:00.123Z",
    updated_at: "2026-11-22T09:30:00.000Z"
  },
  {
    id: "1c9f6c1e-4a57-4a8f-9d5e-2f6a1c3b7d11",
    dataset_id: "6a1f0e2d-3c4b-4a59-8e7f-1d2c3b4a5f60",
    external_id: null,
    fields: JSON.stringify({ text: "" }),
    metadata: null,
    status: "pending",
    inserted_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z"
  }
].map((encoded) => decode(encoded))

describe("encodeRecordRow", () => {
  it("writes what Schema.encode(RecordRow) writes, key for key", () => {
    for (const row of rows) {
      const bySchema = Schema.encodeSync(RecordRow)(row)
      expect(encodeRecordRow(row)).toStrictEqual(bySchema)
      expect(Object.keys(encodeRecordRow(row)).sort()).toEqual(Object.keys(bySchema).sort())
    }
  })
})
