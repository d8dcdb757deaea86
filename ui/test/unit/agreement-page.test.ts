import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { AnnotatorPair } from "../../../src/domain/Review.js"
import { figureName, formatValue, headline, pairLookup, readingOf } from "../../src/screens/agreement/figures.js"
import { agreementRequest, filterCount } from "../../src/screens/agreement/request.js"

describe("the agreement page's figures", () => {
  it("reads a value by Krippendorff's thresholds, and has no reading without a value", () => {
    expect([1, 0.8, 0.7999, 0.667, 0.6669, 0, -0.3].map(readingOf)).toEqual(
      ["good", "good", "tentative", "tentative", "poor", "poor", "poor"]
    )
    expect(readingOf(null)).toBeUndefined()
    expect(readingOf(Number.NaN)).toBeUndefined()
  })

  it("shows two decimals with a true minus sign, and a dash for no value", () => {
    expect(formatValue(0.8567)).toBe("0.86")
    expect(formatValue(-0.125)).toBe("−0.13")
    expect(formatValue(-0.001)).toBe("0.00")
    expect(formatValue(1)).toBe("1.00")
    expect(formatValue(null)).toBe("—")
  })

  it("names a measure with its variant, and says when it is a mean over pairs", () => {
    expect(figureName({ measure: "krippendorff_alpha", variant: "nominal" })).toBe("Krippendorff’s α (nominal)")
    expect(figureName({ measure: "cohen_kappa", variant: null })).toBe("Cohen’s κ (mean over pairs)")
    expect(figureName({ measure: "f1", variant: "overlap" })).toBe("F1 (overlapping spans, mean over pairs)")
    expect(figureName({ measure: "krippendorff_alpha", variant: "something-new" })).toBe("Krippendorff’s α (something-new)")
  })

  it("takes the first figure with a value as the headline", () => {
    const figure = (value: number | null) => ({ measure: "krippendorff_alpha" as const, variant: null, value, records: 3, note: null })
    expect(headline([figure(null), figure(0.5)])?.value).toBe(0.5)
    expect(headline([figure(null)])?.value).toBeNull()
    expect(headline([])).toBeUndefined()
  })

  it("finds a pair either way round", () => {
    const [u1, u2, u3] = ["00000000-0000-4000-8000-0000000000a1", "00000000-0000-4000-8000-0000000000a2", "00000000-0000-4000-8000-0000000000a3"]
    const pair = Schema.decodeUnknownSync(AnnotatorPair)({ a: u1, b: u2, records: 4, measure: "cohen_kappa", variant: null, value: 0.4 })
    const find = pairLookup([pair])
    expect(find(u1 ?? "", u2 ?? "")).toBe(pair)
    expect(find(u2 ?? "", u1 ?? "")).toBe(pair)
    expect(find(u1 ?? "", u3 ?? "")).toBeUndefined()
  })
})

describe("the agreement request a URL describes", () => {
  it("asks for every record and question without parameters", () => {
    expect(agreementRequest(new URLSearchParams())).toEqual({})
    expect(filterCount(new URLSearchParams())).toBe(0)
  })

  it("keeps the text, metadata, suggestion and record status filters and one question, not the caller's queue", () => {
    const search = new URLSearchParams({
      _status: "draft",
      _search: "parcel",
      _metadata: JSON.stringify({ source: { kind: "terms", values: ["web"] } }),
      _response: JSON.stringify({ sentiment: { kind: "terms", values: ["positive"] } }),
      _record_status: "completed",
      _sort: "record.inserted_at:asc",
      question: "sentiment"
    })
    const request = agreementRequest(search)
    expect(request.questions).toEqual(["sentiment"])
    expect(request.query?.query).toEqual({ text: { q: "parcel" } })
    expect(request.query?.sort).toBeUndefined()
    expect(request.query?.filters?.and).toEqual([
      { type: "terms", scope: { entity: "record", property: "status" }, values: ["completed"] },
      { type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web"] }
    ])
    expect(filterCount(search)).toBe(2)
  })
})
