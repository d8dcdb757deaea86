/**
 * A file's cell as a question's answer (a suggestion's or a response's value), a suggestion's score, or a vector.
 * CSV cells are text, so each kind says how its value is written in one: a label as the option's value, several
 * labels as a JSON list or comma-separated, a rating as a number, a ranking as a list (JSON or comma-separated, best
 * first), spans as a JSON list of `{"label", "start", "end"}`, text as it is. JSON Lines values are taken as they
 * are where they already have the right shape. Whether the value fits the question (its options, its range) is
 * checked afterwards by the server's own rules (`validate.ts`); this module only reads the cell.
 */
import type { QuestionSettings } from "../../../../src/domain/Question.js"

export type Parsed = { readonly value: unknown } | { readonly error: string }

const parseJson = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** A JSON list (`[…]`) or a comma-separated one; `undefined` when the cell is neither (a `[` that is not JSON). */
const listOf = (text: string): ReadonlyArray<unknown> | undefined => {
  const trimmed = text.trim()
  if (trimmed.startsWith("[")) {
    const parsed = parseJson(trimmed)
    return parsed.ok && Array.isArray(parsed.value) ? parsed.value : undefined
  }
  return trimmed.split(",").map((item) => item.trim()).filter((item) => item !== "")
}

/** A number written as one (`4`, `-0.5`, `1e-3`); anything else stays text, for the check to name. */
const numberOf = (value: unknown): unknown => {
  if (typeof value !== "string") return value
  const trimmed = value.trim()
  const number = trimmed === "" ? Number.NaN : Number(trimmed)
  return Number.isFinite(number) ? number : value
}

/** A ranking as the server takes it: `{value, rank}` items; a plain list of option values is ranked by position. */
const ranked = (items: ReadonlyArray<unknown>): ReadonlyArray<unknown> =>
  items.map((item, i) => (typeof item === "string" ? { value: item, rank: i + 1 } : item))

export const parseAnswer = (settings: QuestionSettings, raw: unknown): Parsed => {
  switch (settings.type) {
    case "text":
      return { value: typeof raw === "number" || typeof raw === "boolean" ? String(raw) : raw }
    case "label_selection":
      return { value: typeof raw === "string" ? raw.trim() : raw }
    case "rating":
      return { value: numberOf(raw) }
    case "multi_label_selection": {
      if (typeof raw !== "string") return { value: raw }
      const list = listOf(raw)
      return list === undefined ? { error: `expects a JSON list or comma-separated labels, found ${JSON.stringify(raw)}` } : { value: list }
    }
    case "ranking": {
      const list = typeof raw === "string" ? listOf(raw) : Array.isArray(raw) ? raw : undefined
      return list === undefined ? { error: `expects a list of options, best first, found ${JSON.stringify(raw)}` } : { value: ranked(list) }
    }
    case "span": {
      if (typeof raw !== "string") return { value: raw }
      const parsed = parseJson(raw)
      return parsed.ok ? { value: parsed.value } : { error: `expects a JSON list of spans ({"label", "start", "end"}), found ${JSON.stringify(raw)}` }
    }
  }
}

/** A suggestion's score: a number (0 to 1, which the check says), or a list of them (one per label, ranked option or span). */
export const parseScore = (raw: unknown): { readonly value: number | ReadonlyArray<number> } | { readonly error: string } => {
  if (typeof raw === "number") return { value: raw }
  const text = typeof raw === "string" ? raw.trim() : undefined
  if (Array.isArray(raw) || text?.startsWith("[") === true) {
    const list = parseVector(raw)
    return "error" in list ? { error: `a list of scores ${list.error}` } : list
  }
  const number = text === undefined ? undefined : numberOf(text)
  return typeof number === "number" ? { value: number } : { error: `a score must be a number from 0 to 1, found ${JSON.stringify(raw)}` }
}

/** A vector: a JSON list of numbers, or numbers separated by commas (brackets optional). */
export const parseVector = (raw: unknown): { readonly value: ReadonlyArray<number> } | { readonly error: string } => {
  let items: ReadonlyArray<unknown> | undefined
  if (Array.isArray(raw)) items = raw
  else if (typeof raw === "string") {
    const trimmed = raw.trim()
    const parsed = trimmed.startsWith("[") ? parseJson(trimmed) : undefined
    items = parsed === undefined
      ? trimmed.split(",").map((item) => item.trim())
      : parsed.ok && Array.isArray(parsed.value) ? parsed.value : undefined
  }
  if (items === undefined) return { error: `expects a list of numbers, found ${JSON.stringify(raw)}` }
  const numbers: Array<number> = []
  for (const [i, item] of items.entries()) {
    const number = numberOf(item)
    if (typeof number !== "number" || !Number.isFinite(number)) {
      return { error: `expects a list of numbers, found ${JSON.stringify(item)} at index ${i}` }
    }
    numbers.push(number)
  }
  return { value: numbers }
}
