/**
 * Span questions: F1 between two annotators over the records both answered, with spans matched exactly (same
 * label, start and end; the pairs' figure) or by overlap (same label, ranges sharing a character), the mean over
 * annotator pairs, for all spans and per label.
 *
 * For annotators a and b, P = (a's spans matched in b) / (a's spans), R = (b's spans matched in a) / (b's spans),
 * F1 = 2PR / (P + R), summed over the records first (micro-averaged). Exact matching is one to one, so F1 is
 * 2 × matches / (|a| + |b|). F1 is 0 when only one of the two marked spans, and undefined when neither did.
 */
import type { LabelAgreement } from "../../../domain/Review.js"
import type { Codec, Span } from "./answers.js"
import type { Collected } from "./collect.js"
import { defined, type Estimate, undefinedBecause } from "./figures.js"
import { figure, type Measures } from "./measures.js"
import { meanOverPairs } from "./pairMeans.js"
import { unitCount } from "./units.js"

type Spans = Collected<ReadonlyArray<Span>>

const NO_SPANS = "no spans marked on the records compared"

/** Counts per label (index `labels` holds every label together). */
interface Tally {
  readonly first: Float64Array
  readonly second: Float64Array
  readonly exact: Float64Array
  readonly firstOverlapping: Float64Array
  readonly secondOverlapping: Float64Array
}

const tally = (labels: number, values: Int32Array, items: ReadonlyArray<ReadonlyArray<Span>>): Tally => {
  const size = labels + 1
  const t: Tally = {
    first: new Float64Array(size),
    second: new Float64Array(size),
    exact: new Float64Array(size),
    firstOverlapping: new Float64Array(size),
    secondOverlapping: new Float64Array(size)
  }
  const add = (counts: Float64Array, label: number, by = 1) => {
    counts[label] = (counts[label] ?? 0) + by
    counts[labels] = (counts[labels] ?? 0) + by
  }
  for (let i = 0; i < values.length; i += 2) {
    const a = items[values[i] ?? 0] ?? []
    const b = items[values[i + 1] ?? 0] ?? []
    for (const span of a) add(t.first, span.label)
    for (const span of b) add(t.second, span.label)
    if (values[i] === values[i + 1]) {
      for (const span of a) {
        add(t.exact, span.label)
        add(t.firstOverlapping, span.label)
        add(t.secondOverlapping, span.label)
      }
      continue
    }
    countExact(a, b, (label) => add(t.exact, label))
    countOverlapping(a, b, (label) => add(t.firstOverlapping, label))
    countOverlapping(b, a, (label) => add(t.secondOverlapping, label))
  }
  return t
}

/** Spans in both lists (each sorted by start, end, label), merged in order. */
const countExact = (a: ReadonlyArray<Span>, b: ReadonlyArray<Span>, found: (label: number) => void) => {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const x = a[i]
    const y = b[j]
    if (x === undefined || y === undefined) break
    const order = x.start - y.start || x.end - y.end || x.label - y.label
    if (order === 0) {
      found(x.label)
      i++
      j++
    } else if (order < 0) i++
    else j++
  }
}

/** The spans of `a` that share a character with a span of `b` of the same label (b sorted by start). */
const countOverlapping = (a: ReadonlyArray<Span>, b: ReadonlyArray<Span>, found: (label: number) => void) => {
  for (const x of a) {
    for (const y of b) {
      if (y.start >= x.end) break
      if (y.label === x.label && y.end > x.start) {
        found(x.label)
        break
      }
    }
  }
}

const f1 = (first: number, second: number, firstMatched: number, secondMatched: number): Estimate => {
  if (first + second === 0) return undefinedBecause(NO_SPANS)
  if (first === 0 || second === 0) return defined(0)
  const precision = firstMatched / first
  const recall = secondMatched / second
  return defined(precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall))
}

const exactOf = (t: Tally, at: number) =>
  f1(t.first[at] ?? 0, t.second[at] ?? 0, t.exact[at] ?? 0, t.exact[at] ?? 0)
const overlapOf = (t: Tally, at: number) =>
  f1(t.first[at] ?? 0, t.second[at] ?? 0, t.firstOverlapping[at] ?? 0, t.secondOverlapping[at] ?? 0)

export const spanMeasures = (codec: Codec<ReadonlyArray<Span>>): Measures<ReadonlyArray<Span>> => {
  // An annotator pair is tallied once for its own figure and reused for the question's.
  const tallied = new WeakMap<Int32Array, Tally>()
  const tallyOf = (values: Int32Array, data: Spans): Tally => {
    let found = tallied.get(values)
    if (found === undefined) {
      found = tally(codec.labels.size, values, data.items)
      tallied.set(values, found)
    }
    return found
  }
  return {
    codec,
    pairFigure: { measure: "f1", variant: "exact" },
    pair: (values, data) => exactOf(tallyOf(values, data), codec.labels.size),
    figures: (data, pairs) => {
      const labels = codec.labels.size
      const tallies = new Map(pairs.map((pair) => [pair, tallyOf(pair.values, data)]))
      const records = unitCount(data.units)
      const mean = (at: number, of: (t: Tally, at: number) => Estimate) =>
        meanOverPairs(pairs, (pair) => of(tallies.get(pair) ?? tallyOf(pair.values, data), at))
      const byLabel = (at: number) => [
        figure("f1", "exact", mean(at, exactOf), records),
        figure("f1", "overlap", mean(at, overlapOf), records)
      ]
      return {
        figures: byLabel(labels),
        // The question's options, and labels no longer options that the compared answers still hold.
        labels: codec.labels.names.flatMap((label, at): Array<LabelAgreement> =>
          at < codec.options.length || [...tallies.values()].some((t) => (t.first[at] ?? 0) + (t.second[at] ?? 0) > 0)
            ? [{ label, figures: byLabel(at) }]
            : [])
      }
    }
  }
}

/** F1 with exact matching between two answers, for one record's agreement (1 when neither marked a span). */
export const spanF1 = (a: ReadonlyArray<Span>, b: ReadonlyArray<Span>): number => {
  if (a.length + b.length === 0) return 1
  let matched = 0
  countExact(a, b, () => matched++)
  return (2 * matched) / (a.length + b.length)
}
