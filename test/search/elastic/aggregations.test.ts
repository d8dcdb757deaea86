import { describe, expect, it } from "@effect/vitest"
import { metricsBody, metricsResult } from "../../../src/services/search/elastic/dsl/aggregations.js"
import { schema } from "./fixtures.js"

const property = (name: string) => {
  const found = schema.metadataProperties.find((p) => p.name === name)
  if (found === undefined) throw new Error(`no metadata property ${name}`)
  return found
}

describe("metadata metrics requests", () => {
  it("terms: how many records have a value, and a bucket per term (at most 16 384)", () => {
    expect(metricsBody(property("source"))).toEqual({
      size: 0,
      aggs: {
        total: { filter: { exists: { field: "metadata.source" } } },
        values: { terms: { field: "metadata.source", size: 16_384 } }
      }
    })
  })

  it("integer and float: their bounds", () => {
    expect(metricsBody(property("length"))).toEqual({ size: 0, aggs: { stats: { stats: { field: "metadata.length" } } } })
    expect(metricsBody(property("quality"))).toEqual({ size: 0, aggs: { stats: { stats: { field: "metadata.quality" } } } })
  })
})

describe("metadata metrics results", () => {
  it("terms: total and counts per term", () => {
    const aggregations = {
      total: { doc_count: 5 },
      values: { buckets: [{ key: "web", doc_count: 3 }, { key: "book", doc_count: 2 }] }
    }
    expect(metricsResult(property("source"), aggregations)).toEqual({
      type: "terms",
      total: 5,
      values: [{ term: "web", count: 3 }, { term: "book", count: 2 }]
    })
  })

  it("floats are rounded to 5 decimals, integers kept; no values means null bounds", () => {
    expect(metricsResult(property("quality"), { stats: { min: 0.10000000149011612, max: 0.699999988079071 } }))
      .toEqual({ type: "float", min: 0.1, max: 0.7 })
    expect(metricsResult(property("length"), { stats: { min: 3, max: 1_234_567_890_123 } }))
      .toEqual({ type: "integer", min: 3, max: 1_234_567_890_123 })
    expect(metricsResult(property("length"), { stats: { min: null, max: null } })).toEqual({ type: "integer", min: null, max: null })
    expect(metricsResult(property("source"), {})).toEqual({ type: "terms", total: 0, values: [] })
  })
})
