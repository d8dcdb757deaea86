/**
 * The hand-written `timestamptz` parser (src/codecs/pgTimestamp.ts) reads every text PostgreSQL writes as
 * the driver's parser does — the same instant, to the millisecond — and hands what it does not read to that parser.
 */
import { describe, expect, it } from "@effect/vitest"
import pg from "pg"
import { timestamptzParser } from "../../src/codecs/pgTimestamp.js"

const driver = pg.types.getTypeParser(1184, "text") as (text: string) => unknown
const parse = timestamptzParser(driver)

/** A Date's instant, or the value itself (the driver gives Infinity for `infinity`, null for what it cannot read). */
const instant = (value: unknown) => value instanceof Date ? value.getTime() : value

/** A deterministic spread of instants: years 1000–9999, any time of day, with 0 to 6 digits of fractions. */
const samples = () => {
  const texts: Array<string> = []
  let seed = 7
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed % n
  }
  const two = (n: number) => String(n).padStart(2, "0")
  const offsets = ["+00", "-05", "+05:30", "-03:30", "+05:45", "+14", "-12", "+00:19:32", "-00:25:21"]
  for (let i = 0; i < 3000; i++) {
    const year = 1000 + next(9000)
    const digits = next(7)
    const fraction = digits === 0 ? "" : "." + String(next(10 ** digits)).padStart(digits, "0")
    texts.push(
      `${year}-${two(1 + next(12))}-${two(1 + next(28))} ${two(next(24))}:${two(next(60))}:${two(next(60))}${fraction}${
        offsets[next(offsets.length)]
      }`
    )
  }
  return texts
}

describe("timestamptzParser", () => {
  it("reads the ISO form as the driver does, to the millisecond", () => {
    const texts = [
      "2026-11-27 08:56:07.497123+00",
      "2026-11-27 08:56:07+00",
      "2026-11-27 08:56:07.5+00",
      "2026-11-27 08:56:07.999999-05",
      "1970-01-01 00:00:00+00",
      "1969-12-31 23:59:59.999+00",
      "2024-02-29 12:00:00.001+05:30",
      "9999-12-31 23:59:59.999999+00",
      "1000-01-01 00:00:00+00",
      ...samples()
    ]
    for (const text of texts) {
      const mine = parse(text)
      expect(mine, text).toBeInstanceOf(Date)
      expect(instant(mine), text).toBe(instant(driver(text)))
    }
  })

  it("hands every other form to the driver's parser", () => {
    const others = [
      "infinity",
      "-infinity",
      "0099-01-01 00:00:00+00",
      "0001-01-01 00:00:00+00 BC",
      "12026-11-27 08:56:07+00",
      "2026-11-27T08:56:07Z",
      "2026-11-27 08:56:07",
      "2026-11-27 08:56:07.+00",
      "2026-11-27 08:56:07+0530",
      "27.11.2026 08:56:07 UTC",
      "2026-11-27",
      ""
    ]
    for (const text of others) expect(instant(parse(text)), text).toEqual(instant(driver(text)))
    // And only those: the driver is not asked about the ISO form.
    let asked = 0
    const counting = timestamptzParser((text) => {
      asked++
      return driver(text)
    })
    counting("2026-11-27 08:56:07.497123+00")
    expect(asked).toBe(0)
    for (const text of others) counting(text)
    expect(asked).toBe(others.length)
  })
})
