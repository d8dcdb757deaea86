/**
 * A JSON array of objects read piece by piece (`records.json` can be far larger than memory should hold): text goes
 * in as it is read, each complete top-level element comes out as its own JSON text, for `JSON.parse`. Only the
 * array's structure is followed here (strings, escapes, nesting); each element's own syntax is `JSON.parse`'s job.
 * And the other way: an array written element by element.
 */

export type Pushed =
  | { readonly _tag: "Elements"; readonly elements: ReadonlyArray<string> }
  /** The elements completed before the break, and what is wrong. */
  | { readonly _tag: "Malformed"; readonly elements: ReadonlyArray<string>; readonly detail: string }

const WHITESPACE = new Set([0x20, 0x0a, 0x0d, 0x09])
const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c

/** Where the reader is: before `[`, between elements, inside one, or after `]`. */
type Place = "start" | "between" | "element" | "end"

export const jsonArrayReader = () => {
  let place: Place = "start"
  /** After an element, a comma is needed before the next one. */
  let needComma = false
  let depth = 0
  let inString = false
  let escaped = false
  /** The current element's text from earlier pieces. */
  let pending = ""
  let index = 0
  let offset = 0

  const push = (text: string): Pushed => {
    const elements: Array<string> = []
    const malformed = (detail: string): Pushed => ({ _tag: "Malformed", elements, detail: `${detail} (character ${offset})` })
    let start = place === "element" ? 0 : -1
    for (let i = 0; i < text.length; i++, offset++) {
      const c = text.charCodeAt(i)
      if (place === "element") {
        if (inString) {
          if (escaped) escaped = false
          else if (c === BACKSLASH) escaped = true
          else if (c === QUOTE) inString = false
          continue
        }
        if (c === QUOTE) inString = true
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++
        else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          depth--
          if (depth === 0) {
            elements.push(pending + text.slice(start, i + 1))
            pending = ""
            start = -1
            place = "between"
            needComma = true
            index++
          }
        }
        continue
      }
      if (WHITESPACE.has(c)) continue
      if (place === "start") {
        if (c !== OPEN_BRACKET) return malformed("the file is not a JSON array")
        place = "between"
      } else if (place === "between") {
        if (c === CLOSE_BRACKET && (needComma || index === 0)) place = "end"
        else if (c === COMMA && needComma) needComma = false
        else if (c === OPEN_BRACE && !needComma) {
          place = "element"
          depth = 1
          start = i
        } else if (c === OPEN_BRACE || c === COMMA || c === CLOSE_BRACKET) {
          return malformed(`expected ${needComma ? "',' or ']'" : "a record"} after record ${index}`)
        } else return malformed(`record ${index + 1} is not a JSON object`)
      } else return malformed("text after the end of the array")
    }
    if (place === "element" && start !== -1) pending += text.slice(start)
    return { _tag: "Elements", elements }
  }

  /** After the last piece: `undefined` when the array was complete. */
  const end = (): string | undefined =>
    place === "end" ? undefined : place === "start" ? "the file is empty" : "the file ends before the array does"

  return { push, end }
}

/**
 * The array's text, a few elements at a time: `[` first, then each batch's elements with `, ` between them (as
 * Python's `json.dump` separates them), `]` last.
 */
export const jsonArrayText = () => {
  let first = true
  return {
    open: "[",
    elements: (values: ReadonlyArray<unknown>) => {
      if (values.length === 0) return ""
      const text = `${first ? "" : ", "}${values.map((value) => JSON.stringify(value)).join(", ")}`
      first = false
      return text
    },
    close: "]"
  }
}
