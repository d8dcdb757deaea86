import { describe, it } from "@effect/vitest"
import type { MetadataSpec } from "../../../src/services/records/validation/context.js"
import { validateMetadata } from "../../../src/services/records/validation/metadata.js"
import { context, datasetId, expectInvalid, expectValid } from "./fixtures.js"

const metadataProperties: ReadonlyArray<MetadataSpec> = [
  { name: "genre", settings: { type: "terms", values: ["news", "blog", 7, { lang: "en" }] } },
  { name: "tag", settings: { type: "terms", values: null } },
  { name: "words", settings: { type: "integer", min: 1, max: 10 } },
  { name: "count", settings: { type: "integer", min: null, max: null } },
  { name: "score", settings: { type: "float", min: 0.5, max: 1.5 } },
  { name: "ratio", settings: { type: "float", min: null, max: null } }
]
const check = (metadata: Readonly<Record<string, unknown>>, allowExtraMetadata = false) =>
  validateMetadata(context({ metadataProperties, allowExtraMetadata }), metadata)

describe("validateMetadata: terms", () => {
  it("accepts a value among the terms, compared as JSON", () => {
    expectValid(check({ genre: "news" }))
    expectValid(check({ genre: 7 }))
    expectValid(check({ genre: { lang: "en" } }))
  })
  it("refuses a value not among the terms, naming the property and the value", () => {
    expectInvalid(check({ genre: "poetry" }), "'genre'", "'poetry'", "not an allowed term")
    expectInvalid(check({ genre: "7" }), "'7'")
  })
  it("checks each element of a list value", () => {
    expectValid(check({ genre: ["news", "blog"] }))
    expectInvalid(check({ genre: ["news", "poetry"] }), "'genre'", "'poetry'")
  })
  it("accepts anything when the property lists no terms", () => expectValid(check({ tag: ["anything", 1, { a: 2 }] })))
})

describe("validateMetadata: integer", () => {
  it("accepts integers within the bounds, both bounds included", () => {
    expectValid(check({ words: 1 }))
    expectValid(check({ words: 10 }))
    expectValid(check({ count: -1_000_000 }))
  })
  it("refuses values below the minimum or above the maximum", () => {
    expectInvalid(check({ words: 0 }), "'words'", "0 is less than the minimum value of 1")
    expectInvalid(check({ words: 11 }), "'words'", "11 is greater than the maximum value of 10")
  })
  it("refuses a float, a numeric string and a boolean", () => {
    expectInvalid(check({ count: 3.5 }), "'count'", "3.5 is not an integer")
    expectInvalid(check({ count: "3" }), "'3' is not an integer")
    expectInvalid(check({ count: true }), "true is not an integer")
  })
})

describe("validateMetadata: float", () => {
  it("accepts floats within the bounds, both bounds included", () => {
    expectValid(check({ score: 0.5 }))
    expectValid(check({ score: 1.5 }))
    expectValid(check({ ratio: -2.25 }))
  })
  it("accepts a whole number (JSON 3 and 3.0 are the same number once parsed)", () => expectValid(check({ ratio: 3 })))
  it("refuses values outside the bounds", () => {
    expectInvalid(check({ score: 0.49 }), "'score'", "0.49 is less than the minimum value of 0.5")
    expectInvalid(check({ score: 1.51 }), "'score'", "1.51 is greater than the maximum value of 1.5")
  })
  it("refuses a non-number", () => expectInvalid(check({ ratio: "0.7" }), "'ratio'", "'0.7' is not a float"))
})

describe("validateMetadata: NaN, Infinity, null and extra keys", () => {
  it("refuses NaN and Infinity for any key, naming it", () => {
    expectInvalid(check({ ratio: Number.NaN }), "'ratio'", "NaN")
    expectInvalid(check({ count: Number.POSITIVE_INFINITY }), "'count'")
    expectInvalid(check({ extra: [1, Number.NEGATIVE_INFINITY] }, true), "'extra'")
  })
  it("accepts null for a declared property", () => expectValid(check({ words: null, genre: null })))
  it("refuses undeclared keys when extra metadata is not allowed", () =>
    expectInvalid(
      check({ words: 3, source: "web" }),
      `metadata property \`source\` does not exist for dataset \`${datasetId}\` and extra metadata is not allowed`
    ))
  it("accepts undeclared keys of any JSON value when extra metadata is allowed", () =>
    expectValid(check({ source: "web", nested: { a: [1, 2] }, nothing: null }, true)))
  it("still checks declared properties when extra metadata is allowed", () =>
    expectInvalid(check({ source: "web", words: 99 }, true), "'words'"))
  it("accepts an empty object", () => expectValid(check({})))
})
