import { describe, expect, it } from "vitest"
import type { QueueSettings } from "../../../src/domain/Assignment.js"
import { clockTime, queueApplies, REASON_TEXT } from "../../src/data/queueRules.js"

const defaults: QueueSettings = {
  assigned: "first",
  order: "inserted",
  lease_minutes: 30,
  blind: false,
  quota: null,
  min_submitted: 1,
  in_use: false
}

describe("whether the caller's own queue applies", () => {
  it("not in a dataset whose queue the server says is not in use: that one is Argilla's, its Pending view a search", () => {
    expect(queueApplies(defaults, 0)).toBe(false)
    // Blind mode or the distribution say nothing about who gets which records.
    expect(queueApplies({ ...defaults, blind: true, min_submitted: 3 }, 0)).toBe(false)
  })

  it("as soon as the queue is in use (anyone's records assigned, or the lead set how queues are made), or records are assigned to the caller", () => {
    expect(queueApplies({ ...defaults, in_use: true }, 0)).toBe(true)
    expect(queueApplies(defaults, 1)).toBe(true)
  })
})

describe("why here", () => {
  it("says why in words", () => {
    expect(REASON_TEXT).toEqual({ assigned: "Assigned to you", pool: "From the pool" })
  })

  it("reads a reservation's end as a time today, with the day on another", () => {
    const now = new Date(2026, 10, 28, 9, 0)
    const today = clockTime(new Date(2026, 10, 28, 14, 32), now)
    expect(today).toMatch(/^(14|02):32/)
    const later = clockTime(new Date(2026, 11, 2, 14, 32), now)
    expect(later).toContain(today)
    expect(later).not.toBe(today)
    expect(later).toMatch(/2/)
  })
})
