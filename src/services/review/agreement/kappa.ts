/**
 * Chance-corrected agreement on categories, κ = (p_o − p_e) / (1 − p_e).
 *
 * Cohen's κ compares two annotators on the records both answered: p_o is the share of those records where they chose
 * the same category, p_e = Σ_c p_a(c) p_b(c) from each annotator's own category shares. Fleiss' κ takes every
 * compared record with the same number m of answers: p_o is the mean over records of the share of agreeing answer
 * pairs, p_e = Σ_c p(c)² from the pooled category shares. Both are undefined (null) when p_e = 1: one category only.
 */
import { defined, type Estimate, NO_COMPARED, ONE_CATEGORY, undefinedBecause } from "./figures.js"
import { unitCount, type Units } from "./units.js"

/** Cohen's κ over `[a0, b0, a1, b1, …]`: value ids of annotator a and annotator b on the records both answered. */
export const cohenKappa = (pairs: Int32Array, distinct: number): Estimate => {
  const records = pairs.length / 2
  if (records === 0) return undefinedBecause(NO_COMPARED)
  const first = new Float64Array(distinct)
  const second = new Float64Array(distinct)
  let equal = 0
  for (let i = 0; i < pairs.length; i += 2) {
    const a = pairs[i] ?? 0
    const b = pairs[i + 1] ?? 0
    first[a] = (first[a] ?? 0) + 1
    second[b] = (second[b] ?? 0) + 1
    if (a === b) equal++
  }
  let chance = 0
  for (let c = 0; c < distinct; c++) chance += (first[c] ?? 0) * (second[c] ?? 0)
  chance /= records * records
  return kappaOf(equal / records, chance)
}

/** Fleiss' κ over units that all have the same number of values; null with a note when they do not. */
export const fleissKappa = (units: Units, distinct: number): Estimate => {
  const count = unitCount(units)
  if (count === 0) return undefinedBecause(NO_COMPARED)
  const { offsets, values } = units
  const m = (offsets[1] ?? 0) - (offsets[0] ?? 0)
  const totals = new Float64Array(distinct)
  let observed = 0
  for (let u = 0; u < count; u++) {
    const from = offsets[u] ?? 0
    const to = offsets[u + 1] ?? 0
    if (to - from !== m) {
      return undefinedBecause("records have different numbers of answers (Fleiss' κ needs the same number on each)")
    }
    let equal = 0
    for (let i = from; i < to; i++) {
      const a = values[i] ?? 0
      totals[a] = (totals[a] ?? 0) + 1
      for (let j = i + 1; j < to; j++) if (values[j] === a) equal++
    }
    // (Σ_c n_uc² − m) / (m (m − 1)): the share of ordered answer pairs that agree.
    observed += (2 * equal) / (m * (m - 1))
  }
  const n = count * m
  let chance = 0
  for (const total of totals) chance += (total / n) ** 2
  return kappaOf(observed / count, chance)
}

const kappaOf = (observed: number, chance: number): Estimate =>
  // Shares are sums of fractions; a p_e a rounding error short of 1 is still one category only.
  chance >= 1 - 1e-12 ? undefinedBecause(ONE_CATEGORY) : defined((observed - chance) / (1 - chance))
