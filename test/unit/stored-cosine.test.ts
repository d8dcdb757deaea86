/**
 * `storedCosine` (PostgreSQL's rescoring on the main thread, SQLite's `gloss_cosine` in the search worker) copies its
 * operands into buffers it keeps, made again when the dimensions change. Its scores must stay the exact search's,
 * bit for bit, whatever came before: other dimensions, unaligned views into a larger buffer (as Node's Buffer pool
 * hands out).
 */
import { describe, expect, it } from "vitest"
import { normalise, storedCosine, topK, unitBytes } from "../../src/services/search/vectors/math.js"

/** The exact search's score of `stored` against `query`: a one-row matrix, as VectorIndex builds it. */
const exactScore = (stored: ReadonlyArray<number>, query: ReadonlyArray<number>) => {
  const data = new Float32Array(stored.length)
  normalise(stored, data, 0)
  return topK({ ids: ["x"], dimensions: stored.length, data }, query, 1, { least: false })[0]?.score
}

/** Little-endian float64 bytes, as the vectors table holds them, at an odd offset of a larger buffer. */
const unaligned = (vector: ReadonlyArray<number>) => {
  const backing = new Uint8Array(vector.length * 8 + 3)
  backing.set(new Uint8Array(Float64Array.from(vector).buffer), 3)
  return backing.subarray(3)
}

const vector = (dimensions: number, seed: number) => Array.from({ length: dimensions }, (_, i) => Math.sin(seed * 7.1 + i * 1.37) * (i % 3 + 1))

describe("storedCosine", () => {
  it("scores as the exact search does, across changes of dimensions and unaligned views", () => {
    for (const dimensions of [7, 384, 7, 3, 384]) {
      const query = vector(dimensions, dimensions)
      for (let seed = 0; seed < 4; seed++) {
        const stored = vector(dimensions, seed)
        expect(storedCosine(unaligned(stored), unitBytes(query))).toBe(exactScore(stored, query))
      }
      expect(storedCosine(unaligned(Array(dimensions).fill(0)), unitBytes(query))).toBe(0)
    }
  })

  it("is null for a stored vector of other dimensions, and leaves the next score alone", () => {
    const query = vector(5, 1)
    expect(storedCosine(unaligned(vector(4, 2)), unitBytes(query))).toBeNull()
    expect(storedCosine(unaligned(vector(5, 2)), unitBytes(query))).toBe(exactScore(vector(5, 2), query))
  })
})
