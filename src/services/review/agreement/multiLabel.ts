/**
 * Multi-label questions: Krippendorff's α with MASI (the pairs' figure) and with Jaccard distance over label sets;
 * and per label, whether each answer includes it: α (nominal, over two values) and Cohen's κ per annotator pair,
 * their mean.
 */
import type { LabelAgreement } from "../../../domain/Review.js"
import type { Codec } from "./answers.js"
import type { Collected } from "./collect.js"
import { jaccardDistance, masiDistance } from "./distances.js"
import { defined, type Estimate, meanOf, NO_COMPARED, ONE_CATEGORY, ONE_VALUE, undefinedBecause } from "./figures.js"
import { krippendorffAlpha } from "./krippendorff.js"
import { figure, type Measures, type PairResult } from "./measures.js"
import { pairUnits, unitCount } from "./units.js"

type Sets = Collected<Int32Array>

const masi = (data: Sets) => ({
  kind: "distance" as const,
  distance: (a: number, b: number) => masiDistance(data.items[a] ?? EMPTY, data.items[b] ?? EMPTY)
})
const EMPTY = new Int32Array(0)

export const multiLabelMeasures = (codec: Codec<Int32Array>): Measures<Int32Array> => ({
  codec,
  pairFigure: { measure: "krippendorff_alpha", variant: "masi" },
  pair: (values, data) => krippendorffAlpha(pairUnits(values), data.distinct, masi(data)),
  figures: (data, pairs) => {
    const records = unitCount(data.units)
    const jaccard = {
      kind: "distance" as const,
      distance: (a: number, b: number) => jaccardDistance(data.items[a] ?? EMPTY, data.items[b] ?? EMPTY)
    }
    return {
      figures: [
        figure("krippendorff_alpha", "masi", krippendorffAlpha(data.units, data.distinct, masi(data)), records),
        figure("krippendorff_alpha", "jaccard", krippendorffAlpha(data.units, data.distinct, jaccard), records)
      ],
      labels: perLabel(codec.labels.names, codec.options.length, data, pairs)
    }
  }
})

/** Per label: the question's options, and labels no longer options that compared answers still hold. */
const perLabel = (
  names: ReadonlyArray<string>,
  options: number,
  data: Sets,
  pairs: ReadonlyArray<PairResult>
): Array<LabelAgreement> => {
  const records = unitCount(data.units)
  const { alphas, chosen } = labelAlphas(names.length, data)
  const kappas = pairs.map((pair) => labelKappas(names.length, pair.values, data.items))
  return names.flatMap((label, at): Array<LabelAgreement> => {
    if (at >= options && (chosen[at] ?? 0) === 0) return []
    const perPair = kappas.map((byLabel) => byLabel[at] ?? null)
    const mean = meanOf(perPair)
    const kappa: Estimate = mean !== null
      ? defined(mean)
      : undefinedBecause(pairs.length === 0 ? NO_COMPARED : ONE_CATEGORY)
    return [{
      label,
      figures: [
        figure("krippendorff_alpha", "nominal", alphas[at] ?? undefinedBecause(NO_COMPARED), records),
        figure("cohen_kappa", null, kappa, records)
      ]
    }]
  })
}

/**
 * α per label over "chosen or not": a unit of m answers of which c chose the label adds 2 c (m − c) / (m − 1) to
 * the observed disagreement, so one pass over the chosen labels serves every label at once.
 */
const labelAlphas = (labels: number, data: Sets): { readonly alphas: Array<Estimate>; readonly chosen: Float64Array } => {
  const { offsets, values } = data.units
  const n = values.length
  const chosen = new Float64Array(labels)
  const observed = new Float64Array(labels)
  const inUnit = new Int32Array(labels)
  const touched: Array<number> = []
  for (let u = 0; u < unitCount(data.units); u++) {
    const from = offsets[u] ?? 0
    const to = offsets[u + 1] ?? 0
    const m = to - from
    for (let i = from; i < to; i++) {
      for (const label of data.items[values[i] ?? 0] ?? EMPTY) {
        if (inUnit[label] === 0) touched.push(label)
        inUnit[label] = (inUnit[label] ?? 0) + 1
      }
    }
    for (const label of touched) {
      const c = inUnit[label] ?? 0
      chosen[label] = (chosen[label] ?? 0) + c
      observed[label] = (observed[label] ?? 0) + (2 * c * (m - c)) / (m - 1)
      inUnit[label] = 0
    }
    touched.length = 0
  }
  const alphas = Array.from({ length: labels }, (_, label) => {
    if (n === 0) return undefinedBecause(NO_COMPARED)
    const ones = chosen[label] ?? 0
    const expected = (2 * ones * (n - ones)) / (n * (n - 1))
    return expected === 0 ? undefinedBecause(ONE_VALUE) : defined(1 - (observed[label] ?? 0) / n / expected)
  })
  return { alphas, chosen }
}

/** Cohen's κ per label for one pair of annotators (null where one category only: both always, or never, chose it). */
const labelKappas = (labels: number, values: Int32Array, items: ReadonlyArray<Int32Array>): Array<number | null> => {
  const records = values.length / 2
  const first = new Float64Array(labels)
  const second = new Float64Array(labels)
  const both = new Float64Array(labels)
  const mark = new Int32Array(labels).fill(-1)
  for (let i = 0; i < values.length; i += 2) {
    for (const label of items[values[i] ?? 0] ?? EMPTY) {
      first[label] = (first[label] ?? 0) + 1
      mark[label] = i
    }
    for (const label of items[values[i + 1] ?? 0] ?? EMPTY) {
      second[label] = (second[label] ?? 0) + 1
      if (mark[label] === i) both[label] = (both[label] ?? 0) + 1
    }
  }
  return Array.from({ length: labels }, (_, label) => {
    if (records === 0) return null
    const a = first[label] ?? 0
    const b = second[label] ?? 0
    const agree = (both[label] ?? 0) * 2 + records - a - b
    const chance = (a * b + (records - a) * (records - b)) / (records * records)
    return chance >= 1 - 1e-12 ? null : (agree / records - chance) / (1 - chance)
  })
}
