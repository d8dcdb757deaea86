/**
 * PostgreSQL's `timestamptz` (oid 1184) as the server writes it in text, `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]]`
 * (DateStyle ISO, PostgreSQL's default), read into a `Date` by hand. The driver's own parser (postgres-date 1.0.7)
 * matches a regular expression per value, ~500 bytes of garbage each, and a vector search reads ~150 timestamps (its
 * candidates' stamps and its page of records): a tenth of what such a search allocated on the main thread, whose
 * collections made the search's latency tail. Anything else — years before 1000 or past 9999, BC, `infinity`,
 * another DateStyle — goes to the driver's parser, which this one equals wherever both apply (a test checks).
 */

const ZERO = 48
const NINE = 57

/** The number written in `text` from `from` to `to`, or NaN when a character is not a digit. */
const digits = (text: string, from: number, to: number) => {
  let n = 0
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c < ZERO || c > NINE) return Number.NaN
    n = n * 10 + c - ZERO
  }
  return n
}

/** The ISO form's epoch milliseconds, or NaN when `text` is not in it. */
const isoMillis = (text: string) => {
  if (text.length < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32) return Number.NaN
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return Number.NaN
  const year = digits(text, 0, 4)
  if (!(year >= 1000)) return Number.NaN
  let at = 19
  let ms = 0
  if (text.charCodeAt(at) === 46) {
    // Fractions of a second, to the millisecond (truncated, as the driver's parser and Date do).
    const start = ++at
    while (at < text.length && text.charCodeAt(at) >= ZERO && text.charCodeAt(at) <= NINE) at++
    if (at === start) return Number.NaN
    for (let i = start, scale = 100; i < start + 3; i++, scale /= 10) ms += i < at ? (text.charCodeAt(i) - ZERO) * scale : 0
  }
  const sign = text.charCodeAt(at)
  if (sign !== 43 && sign !== 45) return Number.NaN
  // The offset: ±HH, ±HH:MM or ±HH:MM:SS, and nothing after it.
  const rest = text.length - at - 1
  if (rest !== 2 && rest !== 5 && rest !== 8) return Number.NaN
  if (rest >= 5 && text.charCodeAt(at + 3) !== 58) return Number.NaN
  if (rest === 8 && text.charCodeAt(at + 6) !== 58) return Number.NaN
  const offset = digits(text, at + 1, at + 3) * 3_600_000 +
    (rest >= 5 ? digits(text, at + 4, at + 6) * 60_000 : 0) +
    (rest === 8 ? digits(text, at + 7, at + 9) * 1000 : 0)
  const utc = Date.UTC(
    year,
    digits(text, 5, 7) - 1,
    digits(text, 8, 10),
    digits(text, 11, 13),
    digits(text, 14, 16),
    digits(text, 17, 19),
    ms
  )
  return sign === 45 ? utc + offset : utc - offset
}

/** A `timestamptz` parser for the driver: this one where the text is in the ISO form, else `fallback`. */
export const timestamptzParser = (fallback: (text: string) => unknown) => (text: string): unknown => {
  const millis = isoMillis(text)
  return Number.isNaN(millis) ? fallback(text) : new Date(millis)
}
