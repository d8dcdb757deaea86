/**
 * Span geometry. The contract counts offsets in Unicode code points (the server checks them against Python's
 * `len`); the DOM counts UTF-16 code units. Everything on screen works in UTF-16 and converts at the boundary with
 * `CodePoints`. Selections snap to tokens (words or single punctuation marks, by `Intl.Segmenter`), or with Shift
 * to whole characters (grapheme clusters: an emoji or a letter with its combining marks is never cut).
 */

export interface Span {
  readonly label: string
  /** code points */
  readonly start: number
  readonly end: number
}

/** A span in UTF-16 units, as the DOM measures it. */
export interface Range16 {
  readonly start: number
  readonly end: number
}

/** Converts between UTF-16 offsets and code-point offsets of one text, in O(1) after an O(n) scan. */
export class CodePoints {
  /** code-point index of each UTF-16 offset (length + 1 entries) */
  private readonly toCp: Uint32Array
  /** UTF-16 offset of each code-point index (count + 1 entries) */
  private readonly to16: Uint32Array
  readonly length: number

  constructor(text: string) {
    this.toCp = new Uint32Array(text.length + 1)
    const to16: Array<number> = []
    let cp = 0
    for (let i = 0; i < text.length; i++) {
      this.toCp[i] = cp
      const code = text.charCodeAt(i)
      const isHighSurrogate = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length
      const next = text.charCodeAt(i + 1)
      to16.push(i)
      if (isHighSurrogate && next >= 0xdc00 && next <= 0xdfff) {
        this.toCp[i + 1] = cp // the middle of a pair counts as its start
        i++
      }
      cp++
    }
    this.toCp[text.length] = cp
    to16.push(text.length)
    this.to16 = Uint32Array.from(to16)
    this.length = cp
  }

  codePoint(offset16: number): number {
    return this.toCp[Math.max(0, Math.min(offset16, this.toCp.length - 1))] ?? 0
  }

  utf16(codePoint: number): number {
    return this.to16[Math.max(0, Math.min(codePoint, this.to16.length - 1))] ?? 0
  }

  toWire(label: string, range: Range16): Span {
    return { label, start: this.codePoint(range.start), end: this.codePoint(range.end) }
  }

  fromWire(span: Span): Range16 {
    return { start: this.utf16(span.start), end: this.utf16(span.end) }
  }
}

const words = new Intl.Segmenter(undefined, { granularity: "word" })
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })
const SPACE = /^\s+$/u

const isSpaceAt = (text: string, i: number) => SPACE.test(text[i] ?? "")

/**
 * The snapped range of a selection `[start, end)` (UTF-16), or undefined when nothing but white space is selected.
 * `token`: grow both ends to whole tokens; `character`: to whole grapheme clusters. White space at either end is
 * left out in both modes.
 */
export const snap = (text: string, start: number, end: number, mode: "token" | "character"): Range16 | undefined => {
  let s = Math.max(0, Math.min(start, end))
  let e = Math.min(text.length, Math.max(start, end))
  while (s < e && isSpaceAt(text, s)) s++
  while (e > s && isSpaceAt(text, e - 1)) e--
  if (s >= e) return undefined
  const segmenter = mode === "token" ? words : graphemes
  const first = segmenter.segment(text).containing(s)
  const last = segmenter.segment(text).containing(e - 1)
  if (first === undefined || last === undefined) return undefined
  return { start: first.index, end: last.index + last.segment.length }
}

/** Token boundaries of a text (no white space), for moving a keyboard cursor token by token. */
export const tokens = (text: string): ReadonlyArray<Range16> => {
  const out: Array<Range16> = []
  for (const { index, segment } of words.segment(text)) {
    if (!SPACE.test(segment)) out.push({ start: index, end: index + segment.length })
  }
  return out
}

/** Grapheme boundaries, for moving the keyboard cursor character by character. */
export const characters = (text: string): ReadonlyArray<Range16> => {
  const out: Array<Range16> = []
  for (const { index, segment } of graphemes.segment(text)) {
    if (!SPACE.test(segment)) out.push({ start: index, end: index + segment.length })
  }
  return out
}

export const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end

/**
 * Adds a span. Without overlapping allowed, spans it overlaps are replaced by it. The same range with the same
 * label is not added twice.
 */
export const addSpan = (spans: ReadonlyArray<Span>, span: Span, allowOverlapping: boolean): ReadonlyArray<Span> => {
  if (spans.some((s) => s.start === span.start && s.end === span.end && s.label === span.label)) return spans
  const kept = allowOverlapping ? spans : spans.filter((s) => !overlaps(s, span))
  return [...kept, span].sort((a, b) => a.start - b.start || a.end - b.end)
}

/** Spans that overlap another one, by index: what the server would refuse when overlapping is not allowed. */
export const overlapping = (spans: ReadonlyArray<Span>): ReadonlyArray<number> => {
  const out = new Set<number>()
  spans.forEach((a, i) =>
    spans.forEach((b, j) => {
      if (i < j && overlaps(a, b)) {
        out.add(i)
        out.add(j)
      }
    })
  )
  return [...out].sort((a, b) => a - b)
}

/**
 * Lanes for drawing: overlapping spans go on different lines (lane 0 nearest the text). Greedy by start, which
 * uses as few lanes as the deepest overlap needs.
 */
export const lanes = (ranges: ReadonlyArray<Range16>): ReadonlyArray<number> => {
  const order = ranges.map((_, i) => i).sort((a, b) => (ranges[a]?.start ?? 0) - (ranges[b]?.start ?? 0))
  const laneEnds: Array<number> = []
  const result = new Array<number>(ranges.length).fill(0)
  for (const i of order) {
    const range = ranges[i]
    if (range === undefined) continue
    let lane = laneEnds.findIndex((end) => end <= range.start)
    if (lane === -1) lane = laneEnds.length
    laneEnds[lane] = range.end
    result[i] = lane
  }
  return result
}

export interface Segment extends Range16 {
  /** indices of the ranges covering this piece of text */
  readonly covering: ReadonlyArray<number>
}

/** Cuts `length` characters at every range boundary, so each piece is covered by a fixed set of ranges. */
export const segments = (length: number, ranges: ReadonlyArray<Range16>): ReadonlyArray<Segment> => {
  const cuts = new Set<number>([0, length])
  for (const r of ranges) {
    cuts.add(Math.max(0, Math.min(length, r.start)))
    cuts.add(Math.max(0, Math.min(length, r.end)))
  }
  const points = [...cuts].sort((a, b) => a - b)
  // Sweep: ranges sorted by start, active set updated at each cut.
  const byStart = ranges.map((_, i) => i).sort((a, b) => (ranges[a]?.start ?? 0) - (ranges[b]?.start ?? 0))
  const active = new Set<number>()
  let next = 0
  const out: Array<Segment> = []
  for (let k = 0; k + 1 < points.length; k++) {
    const start = points[k] ?? 0
    const end = points[k + 1] ?? 0
    for (const i of [...active]) if ((ranges[i]?.end ?? 0) <= start) active.delete(i)
    while (next < byStart.length && (ranges[byStart[next] ?? 0]?.start ?? 0) <= start) {
      const i = byStart[next] ?? 0
      if ((ranges[i]?.end ?? 0) > start) active.add(i)
      next++
    }
    out.push({ start, end, covering: [...active].sort((a, b) => a - b) })
  }
  return out
}
