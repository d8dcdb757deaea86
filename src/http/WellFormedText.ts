/**
 * Text in a request body must be well-formed Unicode. JSON can spell a lone surrogate (`"\ud800"`) that no UTF-8
 * text holds: PostgreSQL refuses it (a 500 before this check), SQLite stores it, and what reads it back (JSON
 * encoders, browsers, the search engines) each does something else with it. So a body holding one, in a key or a
 * value, is refused with 422 before any endpoint sees it, on every database.
 *
 * The body's bytes are checked to be UTF-8 where they are read (`BodyLimit.ts`), so a lone surrogate can only come
 * from a `\uD800`–`\uDFFF` escape. The pass over the text that counts its nesting before parsing (`scanJson`,
 * `codecs/jsonScan.ts`) notes an escape that is not half of a pair; only then is the parsed value walked, to say where.
 * That keeps the check off the ingest path's cost: a regular expression over the text cost two thirds of a
 * `JSON.parse`, and walking every string (`isWellFormed`) half of one for a body of escaped emoji.
 */

declare global {
  // Node 20 has it (ES2024); the project's `lib` stops at ES2023.
  interface String {
    isWellFormed(): boolean
  }
}

export type JsonPath = ReadonlyArray<string | number>

/** Why a body was refused after parsing; `ErrorResponses` answers it with 422 naming `path`. */
export class IllFormedText extends Error {
  constructor(readonly path: JsonPath) {
    super("Text must be well-formed Unicode: a lone surrogate (\\ud800-\\udfff) cannot be stored")
  }
}

/** Where in `value` a string or key holds a lone surrogate, if anywhere. Depth is bounded by `MAX_BODY_DEPTH`. */
const illFormedAt = (value: unknown, path: Array<string | number>): JsonPath | undefined => {
  if (typeof value === "string") return value.isWellFormed() ? undefined : [...path]
  if (typeof value !== "object" || value === null) return undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i)
      const found = illFormedAt(value[i], path)
      path.pop()
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const key in value) {
    path.push(key)
    const found = key.isWellFormed() ? illFormedAt((value as Record<string, unknown>)[key], path) : [...path]
    path.pop()
    if (found !== undefined) return found
  }
  return undefined
}

/** Throws `IllFormedText` naming where `value` holds a lone surrogate, if it does. */
export const refuseIllFormed = (value: unknown): void => {
  const at = illFormedAt(value, [])
  if (at !== undefined) throw new IllFormedText(at)
}
