/**
 * Answers as the measures compare them. Each stored value is parsed once into a canonical form, and equal answers
 * share one id (`Interner`), so the statistics work over distinct values, never over strings or objects per pair.
 * Equality is the review's: a label by value, a multi-label answer as a set, a rating by number, a ranking by its
 * order (the rank numbers do not matter, ties do), spans as a set of (label, start, end), a text after trimming and
 * case folding. A value that is no answer of the question's type (null, a wrong shape) is no answer at all.
 */
import type { AgreementQuestion } from "../../../domain/Review.js"

export interface Span {
  readonly label: number
  readonly start: number
  readonly end: number
}

/** A ranking as the rank of each option (by the question's option order): dense ranks from 0, ties equal. */
export type Ranks = Int32Array

/** The canonical form of each question type's answers. */
export interface Canonical {
  readonly label_selection: string
  readonly text: string
  readonly rating: number
  /** Indices into the question's label table, ascending, no repeats. */
  readonly multi_label_selection: Int32Array
  readonly ranking: Ranks
  /** Sorted by start, end, label; no repeats. */
  readonly span: ReadonlyArray<Span>
}

export type QuestionType = keyof Canonical

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isArray = (value: unknown): value is ReadonlyArray<unknown> => Array.isArray(value)

const isInteger = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value)

/**
 * Label names to indices: the question's options first, in their order, then labels met in answers that are no
 * longer options (options can be removed after answers were given), in the order met.
 */
export class LabelTable {
  readonly names: Array<string>
  private readonly index = new Map<string, number>()
  constructor(options: ReadonlyArray<string>) {
    this.names = []
    for (const name of options) this.of(name)
  }
  of(name: string): number {
    let at = this.index.get(name)
    if (at === undefined) {
      at = this.names.length
      this.names.push(name)
      this.index.set(name, at)
    }
    return at
  }
  get size(): number {
    return this.names.length
  }
}

/** One question's answers parsed into `T`, with a key equal for two answers exactly when the review calls them equal. */
export interface Codec<T> {
  readonly type: QuestionType
  /** Labels (multi-label and span questions), else empty. */
  readonly labels: LabelTable
  /** The question's option values in order (ranking), or ratings (rating), else empty. */
  readonly options: ReadonlyArray<string | number>
  parse(value: unknown): { readonly key: string; readonly item: T } | undefined
}

export const labelCodec = (): Codec<string> => ({
  type: "label_selection",
  labels: new LabelTable([]),
  options: [],
  parse: (value) => (typeof value === "string" ? { key: value, item: value } : undefined)
})

/** Case folding as `toLowerCase` does it: full Unicode lower-casing, without locale rules. */
export const textCodec = (): Codec<string> => ({
  type: "text",
  labels: new LabelTable([]),
  options: [],
  parse: (value) => {
    if (typeof value !== "string") return undefined
    const folded = value.trim().toLowerCase()
    return { key: folded, item: folded }
  }
})

export const ratingCodec = (ratings: ReadonlyArray<number>): Codec<number> => ({
  type: "rating",
  labels: new LabelTable([]),
  options: ratings,
  parse: (value) => (typeof value === "number" && Number.isFinite(value) ? { key: String(value), item: value } : undefined)
})

export const multiLabelCodec = (options: ReadonlyArray<string>): Codec<Int32Array> => {
  const labels = new LabelTable(options)
  return {
    type: "multi_label_selection",
    labels,
    options,
    parse: (value) => {
      if (!isArray(value) || value.length === 0) return undefined
      const indices = new Int32Array(value.length)
      for (let i = 0; i < value.length; i++) {
        const label = value[i]
        if (typeof label !== "string") return undefined
        indices[i] = labels.of(label)
      }
      indices.sort()
      let size = 0
      for (let i = 0; i < indices.length; i++) if (i === 0 || indices[i] !== indices[i - 1]) indices[size++] = indices[i] ?? 0
      const item = size === indices.length ? indices : indices.slice(0, size)
      return { key: item.join(","), item }
    }
  }
}

/**
 * Rankings: each option's rank, made dense (1, 3, 3, 7 → 0, 1, 1, 2) so that only the order and the ties count.
 * An option left out or ranked null (drafts and suggestions may rank some options only) ties after every ranked one.
 */
export const rankingCodec = (options: ReadonlyArray<string>): Codec<Ranks> => {
  const position = new Map(options.map((option, index) => [option, index]))
  return {
    type: "ranking",
    labels: new LabelTable([]),
    options,
    parse: (value) => {
      if (!isArray(value) || value.length === 0) return undefined
      const raw: Array<number> = new Array<number>(options.length).fill(Number.POSITIVE_INFINITY)
      let ranked = 0
      for (const entry of value) {
        if (!isObject(entry) || typeof entry["value"] !== "string") return undefined
        const at = position.get(entry["value"])
        const rank = entry["rank"]
        if (at === undefined || !isInteger(rank)) continue
        raw[at] = rank
        ranked++
      }
      if (ranked === 0) return undefined
      // The distinct ranks in order; each option's dense rank is the index of its rank among them.
      const levels = raw.slice().sort((a, b) => a - b).filter((rank, i, sorted) => i === 0 || sorted[i - 1] !== rank)
      const item = new Int32Array(options.length)
      for (let i = 0; i < raw.length; i++) item[i] = levelOf(levels, raw[i] ?? 0)
      return { key: item.join(","), item }
    }
  }
}

/** The index of `rank` in the ascending `levels` (binary search). */
const levelOf = (levels: ReadonlyArray<number>, rank: number): number => {
  let low = 0
  let high = levels.length - 1
  while (low < high) {
    const middle = (low + high) >> 1
    if ((levels[middle] ?? 0) < rank) low = middle + 1
    else high = middle
  }
  return low
}

const compareSpans = (a: Span, b: Span): number => a.start - b.start || a.end - b.end || a.label - b.label

const inOrder = (spans: ReadonlyArray<Span>): boolean => {
  for (let i = 1; i < spans.length; i++) {
    const before = spans[i - 1]
    const span = spans[i]
    if (before !== undefined && span !== undefined && compareSpans(before, span) > 0) return false
  }
  return true
}

export const spanCodec = (options: ReadonlyArray<string>): Codec<ReadonlyArray<Span>> => {
  const labels = new LabelTable(options)
  return {
    type: "span",
    labels,
    options,
    parse: (value) => {
      if (!isArray(value)) return undefined
      const spans: Array<Span> = []
      for (const entry of value) {
        if (!isObject(entry)) return undefined
        const { end, label, start } = entry
        if (typeof label !== "string" || !isInteger(start) || !isInteger(end) || end <= start) return undefined
        spans.push({ label: labels.of(label), start, end })
      }
      // Clients mostly send spans in text order: sorting is skipped when they already are.
      if (!inOrder(spans)) spans.sort(compareSpans)
      const unique: Array<Span> = []
      let key = ""
      for (const span of spans) {
        const before = unique[unique.length - 1]
        if (before !== undefined && before.start === span.start && before.end === span.end && before.label === span.label) continue
        unique.push(span)
        key += `${span.start}:${span.end}:${span.label},`
      }
      return { key, item: unique }
    }
  }
}

export type AnyCodec =
  | Codec<string>
  | Codec<number>
  | Codec<Int32Array>
  | Codec<Ranks>
  | Codec<ReadonlyArray<Span>>

/** The codec of a question's answers, from its settings. */
export const codecOf = (question: AgreementQuestion): AnyCodec => {
  const settings = question.settings
  switch (settings.type) {
    case "label_selection":
      return labelCodec()
    case "text":
      return textCodec()
    case "rating":
      return ratingCodec(settings.options.map((option) => option.value))
    case "multi_label_selection":
      return multiLabelCodec(settings.options.map((option) => option.value))
    case "ranking":
      return rankingCodec(settings.options.map((option) => option.value))
    case "span":
      return spanCodec(settings.options.map((option) => option.value))
  }
}

/** Distinct answers by id: the first answer with a key gets the next id, its canonical form kept once. */
export class Interner<T> {
  readonly items: Array<T> = []
  private readonly ids = new Map<string, number>()
  constructor(private readonly codec: Codec<T>) {}
  /** The answer's id, or -1 when the value is no answer of this type. */
  intern(value: unknown): number {
    if (value === null || value === undefined) return -1
    const parsed = this.codec.parse(value)
    if (parsed === undefined) return -1
    let id = this.ids.get(parsed.key)
    if (id === undefined) {
      id = this.items.length
      this.items.push(parsed.item)
      this.ids.set(parsed.key, id)
    }
    return id
  }
  get size(): number {
    return this.items.length
  }
}
