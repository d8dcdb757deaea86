import { describe, it } from "@effect/vitest"
import { validateVectors } from "../../../src/services/records/validation/vectors.js"
import { context, datasetId, expectInvalid, expectValid } from "./fixtures.js"

const ctx = context({ vectorSettings: [{ name: "embedding", dimensions: 3 }, { name: "small", dimensions: 1 }] })

describe("validateVectors", () => {
  it("accepts vectors of declared names with the declared dimensions", () => {
    expectValid(validateVectors(ctx, { embedding: [0.1, -2, 3e10], small: [0] }))
    expectValid(validateVectors(ctx, {}))
  })
  it("refuses a name that is not a vector setting of the dataset", () =>
    expectInvalid(validateVectors(ctx, { embeddings: [1, 2, 3] }), "'embeddings'", datasetId))
  it("refuses a vector shorter or longer than its dimensions", () => {
    expectInvalid(validateVectors(ctx, { embedding: [1, 2] }), "'embedding'", "must have 3 elements, got 2")
    expectInvalid(validateVectors(ctx, { embedding: [1, 2, 3, 4] }), "got 4")
  })
  it("refuses NaN, Infinity and non-numbers, naming the index", () => {
    expectInvalid(validateVectors(ctx, { embedding: [1, Number.NaN, 3] }), "'embedding'", "NaN", "index 1")
    expectInvalid(validateVectors(ctx, { embedding: [1, 2, Number.POSITIVE_INFINITY] }), "Infinity", "index 2")
    expectInvalid(validateVectors(ctx, { small: ["1"] }), "'small'", "'1'")
  })
})
