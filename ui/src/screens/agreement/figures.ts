/**
 * How the agreement page words its figures, free of I/O: a value to two decimals, its reading in plain words (the
 * thresholds of docs/explanation/agreement.md), and the names of the measures and their variants.
 */
import type { AgreementFigure, AgreementMeasure, AnnotatorPair } from "../../../../src/domain/Review.js"

/** Krippendorff's thresholds: at 0.8 and above, conclusions can be drawn; from 2/3, only tentative ones. */
export const GOOD = 0.8
export const TENTATIVE = 0.667

export type Reading = "good" | "tentative" | "poor"

export const readingOf = (value: number | null): Reading | undefined =>
  value === null || !Number.isFinite(value) ? undefined : value >= GOOD ? "good" : value >= TENTATIVE ? "tentative" : "poor"

/** Two decimals, a true minus sign; "—" where the statistic is undefined. */
export const formatValue = (value: number | null): string =>
  value === null || !Number.isFinite(value) ? "—" : value.toFixed(2).replace(/^-/, "−").replace(/^−0\.00$/, "0.00")

export const MEASURES: Readonly<Record<AgreementMeasure, string>> = {
  krippendorff_alpha: "Krippendorff’s α",
  cohen_kappa: "Cohen’s κ",
  fleiss_kappa: "Fleiss’ κ",
  f1: "F1",
  exact_match: "Exact match",
  kendall_w: "Kendall’s W"
}

const VARIANTS: Readonly<Record<string, string>> = {
  nominal: "nominal",
  ordinal: "ordinal",
  interval: "interval",
  masi: "MASI distance",
  jaccard: "Jaccard distance",
  rank: "rank distance",
  exact: "exact spans",
  overlap: "overlapping spans"
}

/** What a figure's number is, in a few words: "Cohen’s κ (mean over pairs)". */
export const figureName = (figure: { readonly measure: AgreementMeasure; readonly variant: string | null }): string => {
  const variant = figure.variant === null ? undefined : VARIANTS[figure.variant] ?? figure.variant
  const mean = figure.measure === "cohen_kappa" || figure.measure === "f1" ? "mean over pairs" : undefined
  const details = [variant, mean].filter((d) => d !== undefined)
  return details.length === 0 ? MEASURES[figure.measure] : `${MEASURES[figure.measure]} (${details.join(", ")})`
}

/** The question's headline: the first figure with a value, else the first one. */
export const headline = (figures: ReadonlyArray<AgreementFigure>): AgreementFigure | undefined =>
  figures.find((f) => f.value !== null) ?? figures[0]

/** The annotator × annotator matrix: each unordered pair once, looked up either way round. */
export const pairLookup = (pairs: ReadonlyArray<AnnotatorPair>) => {
  const byKey = new Map<string, AnnotatorPair>()
  for (const pair of pairs) {
    byKey.set(`${pair.a} ${pair.b}`, pair)
    byKey.set(`${pair.b} ${pair.a}`, pair)
  }
  return (a: string, b: string): AnnotatorPair | undefined => byKey.get(`${a} ${b}`)
}
