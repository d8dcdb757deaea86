/**
 * The records' answers written by hand (src/codecs/recordsJson.ts) equal their schemas: `bulkJson` and `searchJson`
 * write the JSON that `Schema.encode(RecordsBulk)` and `Schema.encode(SearchRecordsResult)` give, for every value of
 * those schemas the service builds (from decoded values: see `decoded` in shapes.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { bulkJson, searchJson } from "../../../src/codecs/recordsJson.js"
import { RecordsBulk } from "../../../src/domain/Record.js"
import { SearchRecordsResult } from "../../../src/domain/Search.js"
import { decoded, fc, RUNS } from "./shapes.js"

/** The JSON the schema's encoding gives, as a client reads it. */
const asJson = (encoded: unknown) => JSON.parse(JSON.stringify(encoded)) as unknown

describe("bulkJson and searchJson", () => {
  it("bulkJson writes what Schema.encode(RecordsBulk) gives", () => {
    fc.assert(
      fc.property(decoded(RecordsBulk), (bulk) => {
        expect(JSON.parse(bulkJson(bulk))).toStrictEqual(asJson(Schema.encodeSync(RecordsBulk)(bulk)))
      }),
      { numRuns: RUNS / 4 }
    )
  })

  it("searchJson writes what Schema.encode(SearchRecordsResult) gives", () => {
    fc.assert(
      fc.property(decoded(SearchRecordsResult), (result) => {
        expect(JSON.parse(searchJson(result))).toStrictEqual(asJson(Schema.encodeSync(SearchRecordsResult)(result)))
      }),
      { numRuns: RUNS / 4 }
    )
  })
})
