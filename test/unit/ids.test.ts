/** New row ids: valid UUIDs that sort in the order they were made (so inserts append to primary-key indexes). */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { RecordId } from "../../src/domain/Ids.js"
import { newId } from "../../src/services/ids.js"

describe("newId", () => {
  it("makes version 7 UUIDs that every id schema accepts", () => {
    const id = newId()
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(Schema.decodeUnknownSync(RecordId)(id)).toBe(id)
  })

  it("sorts ids in the order they were made, within one millisecond too", () => {
    const ids = Array.from({ length: 5_000 }, newId)
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
  })

  it("begins with the time it was made", () => {
    const before = Date.now()
    const id = newId()
    const millis = parseInt(id.replaceAll("-", "").slice(0, 12), 16)
    expect(millis).toBeGreaterThanOrEqual(before)
    expect(millis).toBeLessThanOrEqual(Date.now())
  })
})
