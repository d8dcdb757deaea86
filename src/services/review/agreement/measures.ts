/**
 * What each question type measures: its codec, the figure two coders are compared by (annotator pairs, each
 * annotator against the suggestion, the suggestion against the majority), and the question's own figures.
 */
import type { AgreementFigure, AgreementMeasure, LabelAgreement } from "../../../domain/Review.js"
import type { Codec } from "./answers.js"
import type { Collected } from "./collect.js"
import type { Estimate } from "./figures.js"

export interface PairResult {
  /** Indices into the annotators. */
  readonly a: number
  readonly b: number
  /** `[a0, b0, …]` over the records both answered. */
  readonly values: Int32Array
  readonly estimate: Estimate
}

export interface Measures<T> {
  readonly codec: Codec<T>
  readonly pairFigure: { readonly measure: AgreementMeasure; readonly variant: string | null }
  pair(values: Int32Array, data: Collected<T>): Estimate
  figures(data: Collected<T>, pairs: ReadonlyArray<PairResult>): {
    readonly figures: ReadonlyArray<AgreementFigure>
    readonly labels: ReadonlyArray<LabelAgreement>
  }
}

export const figure = (
  measure: AgreementMeasure,
  variant: string | null,
  estimate: Estimate,
  records: number
): AgreementFigure => ({ measure, variant, value: estimate.value, records, note: estimate.note })
