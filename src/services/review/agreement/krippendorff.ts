/**
 * Krippendorff's α = 1 − Do / De over the pairable values (those of units with two or more values), from the
 * coincidence matrix: a unit of m values adds 1 / (m − 1) for each ordered pair of its values, so every pairable value
 * counts once in the margins n_c, and n is their total.
 *
 *   Do = (1 / n) Σ_u 1 / (m_u − 1) Σ_{i ≠ j in u} δ(v_i, v_j)
 *   De = 1 / (n (n − 1)) Σ_{c, k} n_c n_k δ(c, k)
 *
 * δ is the metric's difference (squared for interval and ordinal, as Krippendorff defines them): nominal 0 or 1;
 * interval (c − k)²; ordinal (Σ_{g = c..k} n_g − (n_c + n_k) / 2)², with g running over the values between c and k in
 * order, so the distance follows the marginal ranks, not the numbers; any other distance over value ids as given.
 * α is undefined (null) without pairable values, or with a single value among them (De = 0).
 */
import { orderDistance } from "./distances.js"
import { defined, type Estimate, NO_COMPARED, ONE_VALUE, undefinedBecause } from "./figures.js"
import { unitCount, type Units, valueCounts } from "./units.js"
import { seeded } from "./seeded.js"

export type Metric =
  | { readonly kind: "nominal" }
  | { readonly kind: "interval"; readonly numbers: ArrayLike<number> }
  | { readonly kind: "ordinal"; readonly numbers: ArrayLike<number> }
  | { readonly kind: "distance"; readonly distance: (a: number, b: number) => number }
  /** Rankings as their pairs' orders (distances.ts `pairOrders`), compared by `orderDistance`. */
  | { readonly kind: "orders"; readonly orders: ReadonlyArray<Int8Array> }

/**
 * Above this many pairs of distinct values, De is estimated from SAMPLED_PAIRS random pairs of values rather than
 * summed over every pair of distinct values (sets of labels can have as many distinct values as answers). Summing two
 * million pairs of sets of up to 12 labels took about 0.2 CPU seconds (krippendorffAlpha alone, 2 000 distinct sets
 * over 100 000 records); past that the sum grows with the square of the distinct values, the sample stays the same.
 */
export const EXACT_PAIRS = 2_000_000
export const SAMPLED_PAIRS = 1_000_000

export const krippendorffAlpha = (units: Units, distinct: number, metric: Metric): Estimate => {
  const n = units.values.length
  if (n === 0) return undefinedBecause(NO_COMPARED)
  const counts = valueCounts(units, distinct)
  const used: Array<number> = []
  for (let id = 0; id < distinct; id++) if ((counts[id] ?? 0) > 0) used.push(id)
  if (used.length < 2) return undefinedBecause(ONE_VALUE)
  switch (metric.kind) {
    case "nominal":
      return nominal(units, counts, n)
    case "interval":
      return interval(units, counts, used, n, metric.numbers)
    case "ordinal":
      return ordinal(units, counts, used, n, metric.numbers)
    case "distance":
      return general(units, counts, used, n, metric.distance)
    case "orders":
      return ordered(units, counts, used, n, metric.orders)
  }
}

const alphaOf = (observed: number, expected: number): Estimate =>
  expected <= 0 ? undefinedBecause(ONE_VALUE) : defined(1 - observed / expected)

const nominal = (units: Units, counts: Float64Array, n: number): Estimate => {
  const { offsets, values } = units
  let disagreement = 0
  for (let u = 0; u < unitCount(units); u++) {
    const from = offsets[u] ?? 0
    const to = offsets[u + 1] ?? 0
    const m = to - from
    // Σ_c n_uc² = m + 2 × (equal unordered pairs), so the unit's Σ_{c ≠ k} n_uc n_uk / (m − 1) is m − 2 × equal / (m − 1).
    let equal = 0
    for (let i = from; i < to; i++) for (let j = i + 1; j < to; j++) if (values[i] === values[j]) equal++
    disagreement += m - (2 * equal) / (m - 1)
  }
  let squares = 0
  for (const count of counts) squares += count * count
  return alphaOf(disagreement / n, (n * n - squares) / (n * (n - 1)))
}

const interval = (
  units: Units,
  counts: Float64Array,
  used: ReadonlyArray<number>,
  n: number,
  numbers: ArrayLike<number>
): Estimate => {
  const { offsets, values } = units
  // Σ_{i ≠ j} (x_i − x_j)² = 2 (m Σ x² − (Σ x)²), per unit and over the margins; centred on the mean for precision.
  let total = 0
  for (const id of used) total += (counts[id] ?? 0) * (numbers[id] ?? 0)
  const mean = total / n
  let disagreement = 0
  for (let u = 0; u < unitCount(units); u++) {
    const from = offsets[u] ?? 0
    const to = offsets[u + 1] ?? 0
    const m = to - from
    let sum = 0
    let squares = 0
    for (let i = from; i < to; i++) {
      const x = (numbers[values[i] ?? 0] ?? 0) - mean
      sum += x
      squares += x * x
    }
    disagreement += (2 * (m * squares - sum * sum)) / (m - 1)
  }
  let squares = 0
  for (const id of used) {
    const x = (numbers[id] ?? 0) - mean
    squares += (counts[id] ?? 0) * x * x
  }
  // Centred, Σ n_c x_c = 0, so Σ_{c,k} n_c n_k (x_c − x_k)² = 2 n Σ n_c x_c².
  return alphaOf(disagreement / n, (2 * n * squares) / (n * (n - 1)))
}

const ordinal = (
  units: Units,
  counts: Float64Array,
  used: ReadonlyArray<number>,
  n: number,
  numbers: ArrayLike<number>
): Estimate => {
  const order = [...used].sort((a, b) => (numbers[a] ?? 0) - (numbers[b] ?? 0))
  const d = order.length
  const position = new Int32Array(counts.length)
  order.forEach((id, at) => (position[id] = at))
  // cumulative[g] = Σ of the margins of the first g values in order.
  const cumulative = new Float64Array(d + 1)
  for (let g = 0; g < d; g++) cumulative[g + 1] = (cumulative[g] ?? 0) + (counts[order[g] ?? 0] ?? 0)
  const delta = new Float64Array(d * d)
  for (let c = 0; c < d; c++) {
    for (let k = c + 1; k < d; k++) {
      const between = (cumulative[k + 1] ?? 0) - (cumulative[c] ?? 0)
      const ends = ((counts[order[c] ?? 0] ?? 0) + (counts[order[k] ?? 0] ?? 0)) / 2
      const squared = (between - ends) ** 2
      delta[c * d + k] = squared
      delta[k * d + c] = squared
    }
  }
  return tabled(units, counts, order, position, n, delta)
}

/** Do and De from a table of δ between the used values (`position` maps an id to its row). */
const tabled = (
  units: Units,
  counts: Float64Array,
  order: ReadonlyArray<number>,
  position: Int32Array,
  n: number,
  delta: Float64Array
): Estimate => {
  const { offsets, values } = units
  const d = order.length
  let disagreement = 0
  for (let u = 0; u < unitCount(units); u++) {
    const from = offsets[u] ?? 0
    const to = offsets[u + 1] ?? 0
    let sum = 0
    for (let i = from; i < to; i++) {
      const row = (position[values[i] ?? 0] ?? 0) * d
      for (let j = i + 1; j < to; j++) sum += delta[row + (position[values[j] ?? 0] ?? 0)] ?? 0
    }
    disagreement += (2 * sum) / (to - from - 1)
  }
  let expected = 0
  for (let c = 0; c < d; c++) {
    const nc = counts[order[c] ?? 0] ?? 0
    for (let k = c + 1; k < d; k++) expected += 2 * nc * (counts[order[k] ?? 0] ?? 0) * (delta[c * d + k] ?? 0)
  }
  return alphaOf(disagreement / n, expected / (n * (n - 1)))
}

const general = (
  units: Units,
  counts: Float64Array,
  used: ReadonlyArray<number>,
  n: number,
  distance: (a: number, b: number) => number
): Estimate => {
  const { offsets, values } = units
  let disagreement = 0
  for (let u = 0; u < unitCount(units); u++) {
    const from = offsets[u] ?? 0
    const to = offsets[u + 1] ?? 0
    let sum = 0
    for (let i = from; i < to; i++) {
      const a = values[i] ?? 0
      for (let j = i + 1; j < to; j++) {
        const b = values[j] ?? 0
        if (a !== b) sum += distance(a, b)
      }
    }
    disagreement += (2 * sum) / (to - from - 1)
  }
  const d = used.length
  if ((d * (d - 1)) / 2 <= EXACT_PAIRS) {
    let expected = 0
    for (let c = 0; c < d; c++) {
      const a = used[c] ?? 0
      const nc = counts[a] ?? 0
      for (let k = c + 1; k < d; k++) {
        const b = used[k] ?? 0
        expected += 2 * nc * (counts[b] ?? 0) * distance(a, b)
      }
    }
    return alphaOf(disagreement / n, expected / (n * (n - 1)))
  }
  // Too many distinct values to sum every pair: the mean δ over random pairs of (different) pairable values is an
  // unbiased estimate of De, and a fixed seed keeps the figure the same from one call to the next.
  const random = seeded(0x9e3779b9)
  let sum = 0
  for (let s = 0; s < SAMPLED_PAIRS; s++) {
    const i = Math.floor(random() * n)
    let j = Math.floor(random() * (n - 1))
    if (j >= i) j++
    const a = values[i] ?? 0
    const b = values[j] ?? 0
    if (a !== b) sum += distance(a, b)
  }
  const estimate = alphaOf(disagreement / n, sum / SAMPLED_PAIRS)
  return estimate.value === null
    ? estimate
    : defined(
      estimate.value,
      `expected disagreement estimated from ${SAMPLED_PAIRS} random pairs of answers (${d} distinct answers)`
    )
}

/**
 * The rank distance is a sum over pairs of options of |x − y| with x, y in {−1, 0, 1}, so De is too: for each pair of
 * options, Σ_{c,k} n_c n_k |x_c − x_k| = 2 (N₋ N₀ + N₀ N₊ + 2 N₋ N₊), where N₋, N₀, N₊ count the pairable values
 * ordering that pair each way. Linear in the distinct rankings, however many there are.
 */
const ordered = (
  units: Units,
  counts: Float64Array,
  used: ReadonlyArray<number>,
  n: number,
  orders: ReadonlyArray<Int8Array>
): Estimate => {
  const none = new Int8Array(0)
  const { offsets, values } = units
  let disagreement = 0
  for (let u = 0; u < unitCount(units); u++) {
    const from = offsets[u] ?? 0
    const to = offsets[u + 1] ?? 0
    let sum = 0
    for (let i = from; i < to; i++) {
      const a = orders[values[i] ?? 0] ?? none
      for (let j = i + 1; j < to; j++) sum += orderDistance(a, orders[values[j] ?? 0] ?? none)
    }
    disagreement += (2 * sum) / (to - from - 1)
  }
  const pairs = (orders[used[0] ?? 0] ?? none).length
  if (pairs === 0) return undefinedBecause(ONE_VALUE)
  const below = new Float64Array(pairs)
  const tied = new Float64Array(pairs)
  const above = new Float64Array(pairs)
  for (const id of used) {
    const count = counts[id] ?? 0
    const vector = orders[id] ?? none
    for (let p = 0; p < pairs; p++) {
      const x = vector[p] ?? 0
      if (x < 0) below[p] = (below[p] ?? 0) + count
      else if (x > 0) above[p] = (above[p] ?? 0) + count
      else tied[p] = (tied[p] ?? 0) + count
    }
  }
  let expected = 0
  for (let p = 0; p < pairs; p++) {
    const lo = below[p] ?? 0
    const mid = tied[p] ?? 0
    const hi = above[p] ?? 0
    expected += 2 * (lo * mid + mid * hi + 2 * lo * hi)
  }
  return alphaOf(disagreement / n, expected / (2 * pairs) / (n * (n - 1)))
}

