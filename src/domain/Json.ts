/**
 * Free JSON that clients send and Gloss stores (record fields and metadata, response and suggestion values, dataset
 * metadata, terms lists) may nest at most `MAX_JSON_DEPTH` levels of objects and arrays. Deeper values break the
 * readers downstream: SQLite's JSON functions refuse text nested 1 000 levels deep ("malformed JSON", and then every
 * metadata filter over the dataset fails), and recursive walks (`JSON.stringify`, validators) overflow the stack.
 *
 * Response schemas keep plain `JsonObject` / `JsonValue`, so what is already stored can still be read.
 */
import { Schema } from "effect"
import { JsonObject, JsonValue } from "./Common.js"

export const MAX_JSON_DEPTH = 32

const isContainer = (value: unknown): value is object => typeof value === "object" && value !== null

/**
 * A JSON object whose keys are all data, as a `JsonObject` schema gives it back: the schema copies the keys into a
 * new object, where a `__proto__` key would set the prototype instead (and so be dropped).
 */
export const isPlainObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  isContainer(value) && !Array.isArray(value) && !Object.hasOwn(value, "__proto__")

/**
 * The key (or index) of the first child of `container` that is an object or array nesting more than `levels`
 * levels, counting the child's own; the recursion stops at the limit, so it never goes deeper than `levels`.
 */
const keyOfTooDeepChild = (container: object, levels: number): string | number | undefined => {
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) if (tooDeep(container[i], levels)) return i
    return undefined
  }
  const object = container as Readonly<Record<string, unknown>>
  for (const key in object) if (tooDeep(object[key], levels)) return key
  return undefined
}

const tooDeep = (value: unknown, levels: number): boolean =>
  isContainer(value) && (levels <= 0 || keyOfTooDeepChild(value, levels - 1) !== undefined)

/**
 * The key (or index) of `value` under which an object or array sits more than `max` levels deep, counting `value`
 * itself as level 1; undefined when `value` nests no deeper than `max`. Safe on any depth: the walk stops at `max`.
 */
export const keyNestedTooDeep = (value: unknown, max: number = MAX_JSON_DEPTH): string | number | undefined =>
  isContainer(value) ? keyOfTooDeepChild(value, max - 1) : undefined

/** A `Schema.filter` predicate: passes, or names the key under which `value` nests too deep. */
export const withinDepth = (value: unknown) => {
  const key = keyNestedTooDeep(value)
  return key === undefined || { path: [key], message: `exceeds the maximum nesting depth of ${MAX_JSON_DEPTH}` }
}

const depthAnnotations = { description: `JSON nested at most ${MAX_JSON_DEPTH} levels deep` }

/** Any JSON value a client sends to be stored. */
export const JsonValueInput = JsonValue.pipe(Schema.filter(withinDepth, depthAnnotations))

/** A JSON object a client sends to be stored (metadata, record fields). */
export const JsonObjectInput = JsonObject.pipe(Schema.filter(withinDepth, depthAnnotations))
