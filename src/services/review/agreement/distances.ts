/**
 * Distances between two answers in [0, 1], 0 exactly when the answers are equal: between label sets (Jaccard and
 * MASI) and between rankings (Kendall's tau distance, ties counted half).
 */
import type { Ranks } from "./answers.js"

/** |A ∩ B| of two ascending index arrays. */
const intersection = (a: Int32Array, b: Int32Array): number => {
  let i = 0
  let j = 0
  let common = 0
  while (i < a.length && j < b.length) {
    const x = a[i] ?? 0
    const y = b[j] ?? 0
    if (x === y) {
      common++
      i++
      j++
    } else if (x < y) i++
    else j++
  }
  return common
}

/** 1 − |A ∩ B| / |A ∪ B|; two empty sets are equal (0). */
export const jaccardDistance = (a: Int32Array, b: Int32Array): number => {
  const common = intersection(a, b)
  const union = a.length + b.length - common
  return union === 0 ? 0 : 1 - common / union
}

/**
 * MASI (Passonneau): 1 − J × M, where J is the Jaccard similarity and M is 1 for equal sets, 2/3 when one contains
 * the other, 1/3 when they only overlap and 0 when they are disjoint, as NLTK's `masi_distance` computes it.
 */
export const masiDistance = (a: Int32Array, b: Int32Array): number => {
  const common = intersection(a, b)
  const union = a.length + b.length - common
  if (union === 0) return 0
  const monotonicity = common === a.length && common === b.length
    ? 1
    : common === a.length || common === b.length
    ? 2 / 3
    : common > 0
    ? 1 / 3
    : 0
  return 1 - (common / union) * monotonicity
}

/**
 * The normalised Kendall tau distance between two rankings of the same options: over every pair of options, 1 when
 * the rankings order them oppositely, ½ when one ties them and the other does not (Fagin et al.'s K⁽ᵖ⁾ with p = ½),
 * 0 otherwise; divided by the number of pairs. Without ties it is (1 − τ) / 2.
 */
export const rankDistance = (a: Ranks, b: Ranks): number => {
  const k = Math.min(a.length, b.length)
  if (k < 2) return 0
  let sum = 0
  for (let i = 0; i < k; i++) {
    const ai = a[i] ?? 0
    const bi = b[i] ?? 0
    for (let j = i + 1; j < k; j++) {
      const x = Math.sign(ai - (a[j] ?? 0))
      const y = Math.sign(bi - (b[j] ?? 0))
      if (x * y < 0) sum += 2
      else if (x !== y) sum += 1
    }
  }
  return sum / (k * (k - 1))
}

/**
 * A ranking as the order of each pair of options (i < j): −1, 0 (tied) or 1. The rank distance is then
 * Σ |x − y| / (2 × pairs) between two such vectors, which lets α's expected disagreement be summed pair of options by
 * pair of options instead of over every pair of distinct rankings (krippendorff.ts, metric `orders`).
 */
export const pairOrders = (ranks: Ranks): Int8Array => {
  const k = ranks.length
  const orders = new Int8Array((k * (k - 1)) / 2)
  let at = 0
  for (let i = 0; i < k; i++) {
    const ri = ranks[i] ?? 0
    for (let j = i + 1; j < k; j++) orders[at++] = Math.sign(ri - (ranks[j] ?? 0))
  }
  return orders
}

export const orderDistance = (a: Int8Array, b: Int8Array): number => {
  const pairs = Math.min(a.length, b.length)
  if (pairs === 0) return 0
  let sum = 0
  for (let p = 0; p < pairs; p++) sum += Math.abs((a[p] ?? 0) - (b[p] ?? 0))
  return sum / (2 * pairs)
}
