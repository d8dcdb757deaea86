/**
 * The review walk's hand decoders (src/codecs/reviewRows.ts) equal their schemas on every page either
 * database returns: the same values, or the schema's own error for a page with a row they cannot vouch for.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  AnswerRow,
  decodeAnswers,
  decodeRecordKeys,
  decodeSuggestionValues,
  RecordKeyRow,
  SuggestionValueRow
} from "../../../src/codecs/reviewRows.js"
import {
  dbInt,
  dbTimestamp,
  equalsSchema,
  fc,
  idLike,
  jsonText,
  notDbInt,
  notDbTimestamp,
  notJsonText,
  RUNS,
  rows,
  uuid
} from "./shapes.js"

const id = { valid: uuid, invalid: idLike }
const both = (fast: unknown, slow: unknown) => expect(fast).toStrictEqual(slow)

describe("the review rows' decoders", () => {
  it("decodeRecordKeys equals RecordKeyRow", () => {
    const pages = rows({ insertion_key: { valid: dbInt, invalid: notDbInt }, id, inserted_at: { valid: dbTimestamp, invalid: notDbTimestamp } })
    const { accepted, refused } = equalsSchema(RecordKeyRow, decodeRecordKeys, pages, both)
    expect(Math.min(accepted, refused)).toBeGreaterThan(RUNS / 10)
  })

  it("decodeAnswers equals AnswerRow", () => {
    const pages = rows({
      record_id: id,
      user_id: id,
      values: { valid: fc.option(jsonText, { nil: null }), invalid: notJsonText }
    })
    const { accepted, refused } = equalsSchema(AnswerRow, decodeAnswers, pages, both)
    expect(Math.min(accepted, refused)).toBeGreaterThan(RUNS / 10)
  })

  it("decodeSuggestionValues equals SuggestionValueRow", () => {
    const pages = rows({
      record_id: id,
      question_id: id,
      value: { valid: jsonText, invalid: fc.oneof(notJsonText, fc.constant(null)) }
    })
    const { accepted, refused } = equalsSchema(SuggestionValueRow, decodeSuggestionValues, pages, both)
    expect(Math.min(accepted, refused)).toBeGreaterThan(RUNS / 10)
  })
})
