/**
 * From how many vectors the built-in engine uses its ANN index: by the vectors' size when GLOSS_VECTOR_ANN_FROM is
 * unset (an exact scan costs vectors × dimensions), the configured count whatever the dimensions when it is set.
 */
import { describe, expect, it } from "vitest"
import { Option } from "effect"
import fc from "fast-check"
import { annThreshold, EXACT_NUMBERS, MAX_EXACT } from "../../src/services/search/vectors/annThreshold.js"

describe("the ANN threshold", () => {
  const bySize = annThreshold(Option.none())

  it("is 20 000 vectors at 384 dimensions, fewer for larger vectors, more for smaller ones, at most MAX_EXACT", () => {
    expect(bySize(384)).toBe(20_000)
    expect(bySize(768)).toBe(10_000)
    expect(bySize(1536)).toBe(5_000)
    expect(bySize(64)).toBe(120_000)
    expect(bySize(4)).toBe(MAX_EXACT)
  })

  it("keeps every exact scan within the same number of values, up to the bound on vectors", () =>
    fc.assert(fc.property(fc.integer({ min: 1, max: 4096 }), (dimensions) => {
      const threshold = bySize(dimensions)
      expect(threshold).toBeLessThanOrEqual(MAX_EXACT)
      // The largest exact matrix holds threshold - 1 vectors: within EXACT_NUMBERS values.
      expect((threshold - 1) * dimensions).toBeLessThan(EXACT_NUMBERS)
      // One more vector of that size per step would pass it, unless the bound on vectors stopped it first.
      if (threshold < MAX_EXACT) expect(threshold * dimensions).toBeGreaterThanOrEqual(EXACT_NUMBERS)
    })))

  it("is the configured count whatever the dimensions", () =>
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 4096 }), (configured, dimensions) => {
      expect(annThreshold(Option.some(configured))(dimensions)).toBe(configured)
    })))
})
