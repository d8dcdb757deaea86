/**
 * The words of the text search, found in a field's text the way the built-in engine matches them: whole words
 * (letters, digits, `_`), case-insensitive, accents ignored (SQLite's `unicode61 remove_diacritics 2`).
 */
const WORD = /[\p{L}\p{N}_]+/gu

const fold = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()

/** The search's words, folded, as a set to look tokens up in. */
export const searchWords = (q: string): ReadonlySet<string> => new Set(Array.from(q.matchAll(WORD), (m) => fold(m[0])))

export interface Part {
  readonly text: string
  readonly hit: boolean
}

/** `text` cut into runs that are (`hit`) or are not a word of the search; joined again they give `text` back. */
export const highlightParts = (text: string, words: ReadonlySet<string>): ReadonlyArray<Part> => {
  if (words.size === 0 || text === "") return text === "" ? [] : [{ text, hit: false }]
  const parts: Array<Part> = []
  let at = 0
  const plain = (end: number) => {
    if (end > at) parts.push({ text: text.slice(at, end), hit: false })
  }
  for (const match of text.matchAll(WORD)) {
    if (!words.has(fold(match[0]))) continue
    plain(match.index)
    parts.push({ text: match[0], hit: true })
    at = match.index + match[0].length
  }
  plain(text.length)
  return parts
}

/** Where the search's words are in `text`, as UTF-16 `[start, end)` ranges, in order (for the span editor). */
export const hitRanges = (text: string, words: ReadonlySet<string>): ReadonlyArray<{ start: number; end: number }> => {
  const hits: Array<{ start: number; end: number }> = []
  let at = 0
  for (const part of highlightParts(text, words)) {
    if (part.hit) hits.push({ start: at, end: at + part.text.length })
    at += part.text.length
  }
  return hits
}
