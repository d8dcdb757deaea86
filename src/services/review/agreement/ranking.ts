/**
 * Ranking questions: Krippendorff's α with the normalised Kendall tau distance (distances.ts; the pairs' figure),
 * and Kendall's W per record (its annotators ranking the same options), the mean over the records.
 */
import type { Codec, Ranks } from "./answers.js"
import type { Collected } from "./collect.js"
import { pairOrders } from "./distances.js"
import { defined, type Estimate, NO_COMPARED, undefinedBecause } from "./figures.js"
import { krippendorffAlpha } from "./krippendorff.js"
import { figure, type Measures } from "./measures.js"
import { pairUnits, unitCount } from "./units.js"

type Rankings = Collected<Ranks>

const EMPTY = new Int32Array(0)

/** The rank metric over the rankings' pair orders, built once per collection of answers. */
const orderCache = new WeakMap<ReadonlyArray<Ranks>, ReadonlyArray<Int8Array>>()
const rank = (data: Rankings) => {
  let orders = orderCache.get(data.items)
  if (orders === undefined || orders.length !== data.items.length) {
    orders = data.items.map(pairOrders)
    orderCache.set(data.items, orders)
  }
  return { kind: "orders" as const, orders }
}

export const rankingMeasures = (codec: Codec<Ranks>): Measures<Ranks> => ({
  codec,
  pairFigure: { measure: "krippendorff_alpha", variant: "rank" },
  pair: (values, data) => krippendorffAlpha(pairUnits(values), data.distinct, rank(data)),
  figures: (data) => {
    const records = unitCount(data.units)
    const w = kendallW(data)
    return {
      figures: [
        figure("krippendorff_alpha", "rank", krippendorffAlpha(data.units, data.distinct, rank(data)), records),
        figure("kendall_w", null, w.estimate, w.records)
      ],
      labels: []
    }
  }
})

/** A ranking's mid-ranks (1 … k, tied options sharing the mean of their places) and its tie term Σ (t³ − t). */
const midRanks = (ranks: Ranks): { readonly ranks: Float64Array; readonly ties: number } => {
  const groups = new Map<number, number>()
  for (const r of ranks) groups.set(r, (groups.get(r) ?? 0) + 1)
  const place = new Map<number, number>()
  let before = 0
  let ties = 0
  for (const r of [...groups.keys()].sort((a, b) => a - b)) {
    const t = groups.get(r) ?? 0
    place.set(r, before + (t + 1) / 2)
    before += t
    ties += t * t * t - t
  }
  return { ranks: Float64Array.from(ranks, (r) => place.get(r) ?? 0), ties }
}

/**
 * Kendall's W with the correction for ties, W = 12 S / (m² (k³ − k) − m Σ T), for each compared record's m answers
 * over its k options, then the mean over the records where it is defined (not where every answer ties every option).
 */
const kendallW = (data: Rankings): { readonly estimate: Estimate; readonly records: number } => {
  const { offsets, values } = data.units
  const cache = new Map<number, ReturnType<typeof midRanks>>()
  const of = (id: number) => {
    let found = cache.get(id)
    if (found === undefined) {
      found = midRanks(data.items[id] ?? EMPTY)
      cache.set(id, found)
    }
    return found
  }
  let sum = 0
  let records = 0
  let sums = new Float64Array(0)
  for (let u = 0; u < unitCount(data.units); u++) {
    const from = offsets[u] ?? 0
    const to = offsets[u + 1] ?? 0
    const m = to - from
    const k = (data.items[values[from] ?? 0] ?? EMPTY).length
    if (k < 2) continue
    if (sums.length !== k) sums = new Float64Array(k)
    else sums.fill(0)
    let ties = 0
    for (let i = from; i < to; i++) {
      const ranking = of(values[i] ?? 0)
      ties += ranking.ties
      for (let j = 0; j < k; j++) sums[j] = (sums[j] ?? 0) + (ranking.ranks[j] ?? 0)
    }
    const mean = (m * (k + 1)) / 2
    let s = 0
    for (const total of sums) s += (total - mean) ** 2
    const denominator = m * m * (k * k * k - k) - m * ties
    if (denominator <= 0) continue
    sum += (12 * s) / denominator
    records++
  }
  if (records === 0) {
    return {
      estimate: undefinedBecause(unitCount(data.units) === 0 ? NO_COMPARED : "every answer ties every option"),
      records
    }
  }
  return { estimate: defined(sum / records, `the mean of Kendall's W over ${records} records, each over its own annotators`), records }
}
