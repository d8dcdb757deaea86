/**
 * The one pass over a request body's JSON text before `JSON.parse` (`BodyLimit.ts` makes it): how deep the JSON nests,
 * and whether a string in it spells a lone surrogate. It stands for parsing the text and walking the value, which
 * would come too late for the first (a body nested 100 000 levels deep parses, then overflows the stack of whatever
 * walks it recursively) and cost too much for the second (a regular expression over the text cost two thirds of a
 * `JSON.parse`, and walking every string half of one for a body of escaped emoji; see http/WellFormedText.ts).
 */

const NOT_SURROGATE = 0
const HIGH_SURROGATE = 1
const LOW_SURROGATE = 2

/** Which half of a surrogate pair the four hex digits of a `\u` escape at `at` in `text` spell, if any. */
const surrogateEscape = (text: string, at: number): number => {
  const d = text.charCodeAt(at)
  if (d !== 0x64 && d !== 0x44) return NOT_SURROGATE
  const c = text.charCodeAt(at + 1) | 0x20 // lower case for letters; digits unchanged
  if (c === 0x38 || c === 0x39 || c === 0x61 || c === 0x62) return HIGH_SURROGATE
  return c >= 0x63 && c <= 0x66 ? LOW_SURROGATE : NOT_SURROGATE
}

/**
 * One pass over JSON text before it is parsed: whether it opens more than `max` objects and arrays inside one another
 * (brackets in strings do not count), and whether a string in it has a `\u` escape of half a surrogate pair without
 * the other half. Strings, most of a body, are crossed with `indexOf` to their next quote or backslash rather than a
 * character at a time: several times faster on text with few escapes.
 */
export const scanJson = (text: string, max: number): { readonly tooDeep: boolean; readonly loneSurrogate: boolean } => {
  let depth = 0
  let loneSurrogate = false
  // The first quote and backslash at or after where the scan is, found again only once it has passed them.
  let quote = -1
  let backslash = text.indexOf("\\")
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // The string: to the next quote that no backslash escapes.
      for (i++;;) {
        if (quote < i) quote = text.indexOf("\"", i)
        if (quote === -1) return { tooDeep: false, loneSurrogate } // unterminated: JSON.parse says so
        if (backslash !== -1 && backslash < i) backslash = text.indexOf("\\", i)
        if (backslash === -1 || backslash > quote) {
          i = quote
          break
        }
        // An escape: the character after the backslash is skipped; after `\u`, four hex digits.
        i = backslash + 2
        if (text.charCodeAt(backslash + 1) !== 0x75) continue
        const half = surrogateEscape(text, i)
        if (half === NOT_SURROGATE) continue
        const paired = half === HIGH_SURROGATE && text.charCodeAt(i + 4) === 0x5c && text.charCodeAt(i + 5) === 0x75 &&
          surrogateEscape(text, i + 6) === LOW_SURROGATE
        if (paired) i += 6 // onto the second escape's digits, which are no quote or backslash
        else loneSurrogate = true
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return { tooDeep: true, loneSurrogate }
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    }
  }
  return { tooDeep: false, loneSurrogate }
}
