import { Either, ParseResult, Schema } from "effect"

/**
 * The contract's timestamps: UTC, ISO-8601 *without* a zone suffix (`2024-09-02T11:41:57.561`), as Argilla
 * serialises its naive datetimes. Decoding treats a string without an offset as UTC (not local time, which is what
 * `new Date(s)` would do) and also accepts strings that carry `Z` or an offset.
 */
export const Timestamp = Schema.transformOrFail(Schema.String, Schema.DateFromSelf, {
  strict: true,
  decode: (s, _, ast) => {
    const withZone = /(?:Z|[+-]\d\d:?\d\d)$/i.test(s) ? s : `${s}Z`
    const date = new Date(withZone)
    return Number.isNaN(date.getTime())
      ? ParseResult.fail(new ParseResult.Type(ast, s, `Expected an ISO-8601 timestamp, got ${JSON.stringify(s)}`))
      : ParseResult.succeed(date)
  },
  encode: (date) => Either.right(date.toISOString().slice(0, -1))
}).annotations({ identifier: "Timestamp", description: "UTC timestamp, ISO-8601 without a zone suffix" })

/**
 * `date.toISOString()`, remembered for the last instant asked about: the hundreds of rows of one bulk write share
 * one timestamp, and are written out twice each (stored, then answered).
 */
export const isoString = (() => {
  let lastTime = Number.NaN
  let lastText = ""
  return (date: Date): string => {
    const time = date.getTime()
    if (time !== lastTime) {
      lastText = date.toISOString()
      lastTime = time
    }
    return lastText
  }
})()
