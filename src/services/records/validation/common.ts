/** Small helpers shared by the record validators: the result type, JSON type guards and message formatting. */
import { Either } from "effect"

/** What every validator returns: `right(undefined)` when acceptable, else `left(message)`. */
export type Check = Either.Either<void, string>

export const ok: Check = Either.right(undefined)
export const fail = (message: string): Check => Either.left(message)

/** A JSON object as parsed from a body: not null, not an array. */
export const isJsonObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !isArray(value)

/** `Array.isArray` narrows `unknown` to `any[]`; this keeps the elements `unknown`, so each must be checked. */
export const isArray = (value: unknown): value is ReadonlyArray<unknown> => Array.isArray(value)

export const isStringArray = (value: ReadonlyArray<unknown>): value is ReadonlyArray<string> =>
  value.every((item) => typeof item === "string")

export const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value)

/**
 * A JSON integer. After `JSON.parse`, `3.0` and `3` are the same number, so `3.0` counts as an integer here, where
 * Python's strict int would refuse it; booleans are not numbers in JS, so `true` is refused (Python would accept it).
 */
export const isInteger = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value)

/**
 * Length in Unicode code points, as Python's `len` counts it: span offsets and length limits sent by Argilla clients
 * are in code points, while `string.length` counts UTF-16 units (an emoji is 2 of them).
 */
export const codePointLength = (text: string): number => {
  let count = 0
  for (const _ of text) count++
  return count
}

/**
 * Whether `text` is longer than `max` code points, without walking huge strings needlessly: a string has at least
 * as many UTF-16 units as code points, so one within `max` units is within `max` code points.
 */
export const exceedsCodePoints = (text: string, max: number): boolean =>
  text.length > max && codePointLength(text) > max

/** A value as shown in a message: strings quoted as Python's repr would, long values cut so messages stay short. */
export const show = (value: unknown): string => {
  const text = typeof value === "string"
    ? `'${value}'`
    : typeof value === "number" // JSON.stringify would print NaN and Infinity as "null"
    ? String(value)
    : (JSON.stringify(value) ?? String(value))
  return text.length > 100 ? `${text.slice(0, 97)}...` : text
}

export const showList = (values: ReadonlyArray<unknown>): string => `[${values.map(show).join(", ")}]`

/** Structural equality of JSON values (Python's `==` on parsed JSON, which terms lists rely on). */
export const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (isArray(a)) return isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]))
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && jsonEqual(a[key], b[key]))
  }
  return false
}

/** Whether a value holds NaN or ±Infinity anywhere: they have no JSON form and would be stored as `null`. */
export const hasNonFinite = (value: unknown): boolean => {
  if (typeof value === "number") return !Number.isFinite(value)
  if (isArray(value)) return value.some(hasNonFinite)
  if (isJsonObject(value)) return Object.values(value).some(hasNonFinite)
  return false
}

/** The first value that occurs more than once, if any (values compared with `===`). */
export const firstDuplicate = <A>(values: ReadonlyArray<A>): { readonly value: A } | undefined => {
  const seen = new Set<A>()
  for (const value of values) {
    if (seen.has(value)) return { value }
    seen.add(value)
  }
  return undefined
}

/**
 * A key's own value in a parsed JSON object. Plain indexing would find inherited members: a field or question may
 * legitimately be named `constructor`, and `{}["constructor"]` is a function, not "absent".
 */
export const ownValue = (object: Readonly<Record<string, unknown>>, key: string): unknown =>
  Object.hasOwn(object, key) ? object[key] : undefined
