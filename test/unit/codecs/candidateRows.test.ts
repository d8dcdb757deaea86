/**
 * The queue's candidate decoder (src/codecs/candidateRows.ts `decodeCandidates`) equals
 * `CandidateRow` on every page either database returns. test/unit/assignment-rows.test.ts checks the same with its own
 * generators; this one uses the shapes every codec test shares (shapes.ts), with rows the schema does not name.
 */
import { describe, expect, it } from "@effect/vitest"
import { CandidateRow, decodeCandidates } from "../../../src/codecs/candidateRows.js"
import { dbInt, equalsSchema, idLike, notDbInt, RUNS, rows, uuid } from "./shapes.js"

describe("decodeCandidates", () => {
  it("equals CandidateRow on every generated page, accepted or refused", () => {
    const pages = rows({
      id: { valid: uuid, invalid: idLike },
      seq: { valid: dbInt, invalid: notDbInt },
      priority: { valid: dbInt, invalid: notDbInt }
    }, { maxLength: 6 })
    const { accepted, refused } = equalsSchema(CandidateRow, decodeCandidates, pages, (fast, slow) => expect(fast).toStrictEqual(slow))
    expect(Math.min(accepted, refused)).toBeGreaterThan(RUNS / 10)
  })
})
