/**
 * The hand `timestamptz` parser (src/codecs/pgTimestamp.ts) reads every text PostgreSQL writes in its ISO
 * DateStyle as the driver's parser does — the same instant, to the millisecond — and, for any other text (a near miss
 * of that form included), gives what the driver's parser gives.
 */
import { describe, expect, it } from "@effect/vitest"
import pg from "pg"
import { timestamptzParser } from "../../../src/codecs/pgTimestamp.js"
import { fc, RUNS } from "./shapes.js"

const driver = pg.types.getTypeParser(1184, "text") as (text: string) => unknown
const parse = timestamptzParser(driver)

/** A Date's instant, or the value itself (the driver gives Infinity for `infinity`, null for what it cannot read). */
const instant = (value: unknown) => value instanceof Date ? value.getTime() : value

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/** An offset from UTC as PostgreSQL writes it: `±HH`, `±HH:MM` when it has minutes, `±HH:MM:SS` with seconds. */
const zone = (seconds: number) => {
  const abs = Math.abs(seconds)
  const [h, m, s] = [Math.floor(abs / 3600), Math.floor(abs / 60) % 60, abs % 60]
  return `${seconds < 0 ? "-" : "+"}${pad(h)}${m > 0 || s > 0 ? `:${pad(m)}` : ""}${s > 0 ? `:${pad(s)}` : ""}`
}

/**
 * A `timestamptz` as PostgreSQL writes it in a session's time zone: the local time at that offset, with the
 * microseconds it holds (trailing zeros dropped, none when whole), and the offset.
 */
const written = fc.record({
  at: fc.date({ min: new Date("1000-01-02T00:00:00Z"), max: new Date("9999-12-30T00:00:00Z"), noInvalidDate: true }),
  micros: fc.integer({ min: 0, max: 999 }),
  offset: fc.oneof(
    fc.constant(0),
    fc.integer({ min: -12, max: 14 }).map((h) => h * 3600),
    fc.integer({ min: -12 * 60, max: 14 * 60 }).map((m) => m * 60),
    // Local mean time, as zones had before standard time (Europe/Amsterdam was +00:19:32).
    fc.integer({ min: -15 * 3600, max: 15 * 3600 })
  )
}).map(({ at, micros, offset }) => {
  const local = new Date(at.getTime() + offset * 1000)
  const fraction = `${pad(local.getUTCMilliseconds(), 3)}${pad(micros, 3)}`.replace(/0+$/, "")
  const text = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${fraction === "" ? "" : `.${fraction}`}${zone(offset)}`
  return { text, millis: at.getTime() }
})

/** A written timestamp with one character changed, removed or added: what another DateStyle or a bug might give. */
const nearMiss = fc.tuple(written, fc.nat(), fc.constantFrom("replace", "delete", "insert"), fc.constantFrom(..."0123456789 -+:.TZBCab"))
  .map(([{ text }, at, how, char]) => {
    const i = at % (text.length + 1)
    return how === "replace" ? text.slice(0, i) + char + text.slice(i + 1)
      : how === "delete" ? text.slice(0, i) + text.slice(i + 1)
      : text.slice(0, i) + char + text.slice(i)
  })

describe("timestamptzParser", () => {
  it("reads every ISO text PostgreSQL writes to its instant, as the driver does", () => {
    fc.assert(
      fc.property(written, ({ text, millis }) => {
        const mine = parse(text)
        expect(mine, text).toBeInstanceOf(Date)
        expect(instant(mine), text).toBe(millis)
        expect(instant(mine), text).toBe(instant(driver(text)))
      }),
      { numRuns: RUNS * 5 }
    )
  })

  it("gives what the driver gives for near misses of that form and for any text", () => {
    fc.assert(
      fc.property(fc.oneof(nearMiss, fc.string(), fc.constantFrom("infinity", "-infinity")), (text) => {
        expect(instant(parse(text)), text).toEqual(instant(driver(text)))
      }),
      { numRuns: RUNS * 5 }
    )
  })
})
