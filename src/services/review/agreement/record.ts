/**
 * One record's agreement on one question, for the review queue: 1 − the mean distance between its submitted
 * answers, each pair's distance normalised to [0, 1] (null with fewer than two answers), and whether they differ at
 * all. The distances: 0 or 1 for labels and texts (after trimming and case folding); |a − b| over the rating scale's
 * range; Jaccard distance for label sets; the normalised Kendall tau distance for rankings; 1 − F1 with exact
 * matching for spans.
 */
import type { AgreementQuestion } from "../../../domain/Review.js"
import { type AnyCodec, codecOf, type Span } from "./answers.js"
import { jaccardDistance, rankDistance } from "./distances.js"
import { spanF1 } from "./span.js"

type Parsed = { readonly key: string; readonly item: unknown }

/** The codec per question settings: the queue asks once per record and question. */
const codecs = new WeakMap<AgreementQuestion["settings"], AnyCodec>()

const codecFor = (question: AgreementQuestion): AnyCodec => {
  let codec = codecs.get(question.settings)
  if (codec === undefined) {
    codec = codecOf(question)
    codecs.set(question.settings, codec)
  }
  return codec
}

const isNumber = (value: unknown): value is number => typeof value === "number"
const isInt32Array = (value: unknown): value is Int32Array => value instanceof Int32Array
const isSpans = (value: unknown): value is ReadonlyArray<Span> => Array.isArray(value)

/** The normalised distance between two parsed answers with different keys. */
const distanceOf = (codec: AnyCodec, a: unknown, b: unknown): number => {
  switch (codec.type) {
    case "rating": {
      const ratings = codec.options.filter(isNumber)
      const range = Math.max(...ratings) - Math.min(...ratings)
      return isNumber(a) && isNumber(b) && range > 0 ? Math.min(1, Math.abs(a - b) / range) : 1
    }
    case "multi_label_selection":
      return isInt32Array(a) && isInt32Array(b) ? jaccardDistance(a, b) : 1
    case "ranking":
      return isInt32Array(a) && isInt32Array(b) ? rankDistance(a, b) : 1
    case "span":
      return isSpans(a) && isSpans(b) ? 1 - spanF1(a, b) : 1
    case "label_selection":
    case "text":
      return 1
  }
}

export const recordAgreement = (
  question: AgreementQuestion,
  answers: ReadonlyArray<unknown>
): { readonly agreement: number | null; readonly disagree: boolean } => {
  const codec = codecFor(question)
  const parsed: Array<Parsed> = []
  for (const answer of answers) {
    if (answer === null || answer === undefined) continue
    const one = codec.parse(answer)
    if (one !== undefined) parsed.push(one)
  }
  if (parsed.length < 2) return { agreement: null, disagree: false }
  let distance = 0
  let pairs = 0
  let disagree = false
  for (let i = 0; i < parsed.length; i++) {
    for (let j = i + 1; j < parsed.length; j++) {
      const a = parsed[i]
      const b = parsed[j]
      if (a === undefined || b === undefined) continue
      if (a.key !== b.key) {
        disagree = true
        distance += distanceOf(codec, a.item, b.item)
      }
      pairs++
    }
  }
  return { agreement: 1 - distance / pairs, disagree }
}
