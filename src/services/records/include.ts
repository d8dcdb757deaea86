/**
 * The `include` query parameter of record lists and searches: each occurrence is a list of keys
 * (`responses,suggestions`) or one key with values (`vectors:embedding,other`).
 */
import { Either } from "effect"

export interface Include {
  readonly responses: boolean
  readonly suggestions: boolean
  /** Which vectors to include: none, all of them, or those with these names. */
  readonly vectors: "none" | "all" | ReadonlyArray<string>
}

export const INCLUDE_NOTHING: Include = { responses: false, suggestions: false, vectors: "none" }
export const INCLUDE_EVERYTHING: Include = { responses: true, suggestions: true, vectors: "all" }

const GRAMMAR = "'include' query parameter must be of the form 'key1,key2,key3' or 'key:value1,value2,value3'"
const KEYS = new Set(["responses", "suggestions", "vectors"])

export const parseInclude = (occurrences: ReadonlyArray<string>): Either.Either<Include, string> => {
  let responses = false
  let suggestions = false
  let allVectors = false
  const named: Array<string> = []
  for (const occurrence of occurrences) {
    const colon = occurrence.indexOf(":")
    if (colon === -1) {
      const keys = occurrence.split(",").map((key) => key.trim())
      if (keys.some((key) => !KEYS.has(key))) return Either.left(GRAMMAR)
      responses ||= keys.includes("responses")
      suggestions ||= keys.includes("suggestions")
      allVectors ||= keys.includes("vectors")
    } else {
      const key = occurrence.slice(0, colon).trim()
      const values = occurrence.slice(colon + 1).split(",").map((value) => value.trim())
      if (key !== "vectors" || values.some((value) => value === "" || value.includes(":"))) return Either.left(GRAMMAR)
      named.push(...values)
    }
  }
  if (allVectors && named.length > 0) {
    return Either.left("'include' cannot ask for all vectors and for named vectors at the same time")
  }
  return Either.right({ responses, suggestions, vectors: allVectors ? "all" : named.length > 0 ? named : "none" })
}
