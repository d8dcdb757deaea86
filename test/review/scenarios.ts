/**
 * Generated answers for the agreement tests: per question type, seeded random datasets where annotators mostly
 * agree on a hidden true answer, and the edge cases (all agree, one category only, missing answers, 2 and 3 answers
 * per record, a single compared record, none). A table is records × annotators, null where an annotator gave no
 * answer; annotator i is `ann-0i`, so username order is column order.
 */
import type { AgreementQuestion } from "../../src/domain/Review.js"
import type { QuestionSettings } from "../../src/domain/Question.js"
import { seeded } from "../../src/services/review/agreement/seeded.js"

export interface Scenario {
  readonly name: string
  readonly question: AgreementQuestion
  readonly table: ReadonlyArray<ReadonlyArray<unknown>>
  /** Per record, undefined where it has none. */
  readonly suggestions: ReadonlyArray<unknown>
}

export const userId = (i: number) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`
export const username = (i: number) => `ann-${String(i).padStart(2, "0")}`


type Random = () => number
const pick = <A>(random: Random, items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)] as A
const int = (random: Random, from: number, to: number) => from + Math.floor(random() * (to - from + 1))

const labels = (names: ReadonlyArray<string>) => names.map((value) => ({ value, text: value, description: null }))

export const questions = {
  label: (options = ["pos", "neg", "neu", "mix"]): AgreementQuestion => ({
    name: "sentiment",
    settings: { type: "label_selection", options: labels(options), visible_options: null }
  }),
  multi: (options = ["a", "b", "c", "d", "e"]): AgreementQuestion => ({
    name: "topics",
    settings: { type: "multi_label_selection", options: labels(options), visible_options: null, options_order: "natural" }
  }),
  rating: (values = [1, 2, 3, 4, 5]): AgreementQuestion => ({
    name: "quality",
    settings: { type: "rating", options: values.map((value) => ({ value })) }
  }),
  ranking: (options = ["w", "x", "y", "z"]): AgreementQuestion => ({
    name: "preference",
    settings: { type: "ranking", options: labels(options) }
  }),
  span: (options = ["PER", "ORG", "LOC"]): AgreementQuestion => ({
    name: "entities",
    settings: {
      type: "span",
      field: "text",
      options: labels(options),
      visible_options: null,
      allow_overlapping: true,
      allow_character_annotation: true
    } satisfies QuestionSettings
  }),
  text: (): AgreementQuestion => ({ name: "comment", settings: { type: "text", use_markdown: false } })
}

export interface Shape {
  readonly records: number
  readonly annotators: number
  /** Chance an annotator leaves a record unanswered. */
  readonly missing: number
  /** Chance an annotator departs from the true answer. */
  readonly noise: number
  /** Chance a record has a suggestion. */
  readonly suggested: number
}

/** A table where each annotator gives `truth(record)` or, with chance `noise`, `vary(truth)`. */
const generate = (
  random: Random,
  shape: Shape,
  truth: () => unknown,
  vary: (truth: unknown) => unknown
): Pick<Scenario, "table" | "suggestions"> => {
  const table: Array<Array<unknown>> = []
  const suggestions: Array<unknown> = []
  for (let r = 0; r < shape.records; r++) {
    const answer = truth()
    table.push(Array.from({ length: shape.annotators }, () =>
      random() < shape.missing ? null : random() < shape.noise ? vary(answer) : answer))
    suggestions.push(random() < shape.suggested ? (random() < 0.7 ? answer : vary(answer)) : undefined)
  }
  return { table, suggestions }
}

const sets = (random: Random, options: ReadonlyArray<string>) => () => {
  const chosen = options.filter(() => random() < 0.35)
  return chosen.length > 0 ? chosen : [pick(random, options)]
}

const flip = (random: Random, options: ReadonlyArray<string>) => (value: unknown) => {
  const set = new Set(Array.isArray(value) ? value : [])
  const label = pick(random, options)
  if (set.has(label) && set.size > 1) set.delete(label)
  else set.add(label)
  return [...set]
}

/** A complete ranking: every option, ranks 1…k, some tied. */
const ranking = (random: Random, options: ReadonlyArray<string>) => () =>
  options.map((value) => ({ value, rank: int(random, 1, options.length) }))

const reorder = (random: Random) => (value: unknown) => {
  const items = Array.isArray(value) ? value.map((item: { value: string; rank: number }) => ({ ...item })) : []
  const i = int(random, 0, items.length - 1)
  const j = int(random, 0, items.length - 1)
  const a = items[i]
  const b = items[j]
  if (a !== undefined && b !== undefined) [a.rank, b.rank] = [b.rank, a.rank === b.rank ? Math.max(1, a.rank - 1) : a.rank]
  return items
}

interface SpanValue {
  readonly label: string
  readonly start: number
  readonly end: number
}

const spans = (random: Random, options: ReadonlyArray<string>) => () => {
  const result: Array<SpanValue> = []
  let at = int(random, 0, 5)
  while (at < 60 && random() < 0.8) {
    const end = at + int(random, 1, 6)
    result.push({ label: pick(random, options), start: at, end })
    at = end + int(random, 0, 6)
  }
  return result
}

const shift = (random: Random, options: ReadonlyArray<string>) => (value: unknown) => {
  const list: Array<SpanValue> = Array.isArray(value) ? [...value] : []
  const i = int(random, 0, Math.max(0, list.length - 1))
  const span = list[i]
  const roll = random()
  if (span === undefined || roll < 0.2) list.push({ label: pick(random, options), start: int(random, 0, 60), end: 62 })
  else if (roll < 0.45) list.splice(i, 1)
  else if (roll < 0.7) list[i] = { ...span, end: span.end + 1 }
  else if (roll < 0.85) list[i] = { ...span, label: pick(random, options) }
  else list[i] = { ...span, start: span.start + 1, end: span.end + 2 }
  return list
}

const TEXTS = ["Fine", "needs work", "Off topic", "great"]
const retype = (random: Random) => (value: unknown) =>
  random() < 0.5 ? ` ${String(value).toUpperCase()} ` : pick(random, TEXTS)

export const generated = (type: keyof typeof questions, seed: number, shape: Shape): Scenario => {
  const random = seeded(seed)
  const name = `${type}: ${shape.annotators} annotators, ${shape.records} records, missing ${shape.missing}, noise ${shape.noise} (seed ${seed})`
  switch (type) {
    case "label": {
      const options = ["pos", "neg", "neu", "mix"]
      const truth = () => (random() < 0.5 ? "pos" : pick(random, options))
      return { name, question: questions.label(options), ...generate(random, shape, truth, () => pick(random, options)) }
    }
    case "multi": {
      const options = ["a", "b", "c", "d", "e"]
      return { name, question: questions.multi(options), ...generate(random, shape, sets(random, options), flip(random, options)) }
    }
    case "rating": {
      const truth = () => int(random, 1, 5)
      const vary = (value: unknown) => Math.min(5, Math.max(1, Number(value) + pick(random, [-2, -1, 1, 2])))
      return { name, question: questions.rating(), ...generate(random, shape, truth, vary) }
    }
    case "ranking": {
      const options = ["w", "x", "y", "z"]
      return { name, question: questions.ranking(options), ...generate(random, shape, ranking(random, options), reorder(random)) }
    }
    case "span": {
      const options = ["PER", "ORG", "LOC"]
      return { name, question: questions.span(options), ...generate(random, shape, spans(random, options), shift(random, options)) }
    }
    case "text":
      return { name, question: questions.text(), ...generate(random, shape, () => pick(random, TEXTS), retype(random)) }
  }
}

/** Hand-written tables: a name, the question, the answers. */
export const fixed = (name: string, question: AgreementQuestion, table: ReadonlyArray<ReadonlyArray<unknown>>): Scenario =>
  ({ name, question, table, suggestions: table.map(() => undefined) })
