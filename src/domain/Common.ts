import { Either, ParseResult, Schema } from "effect"

/** The contract wraps every collection: `{"items": [...]}`. */
export const Items = <S extends Schema.Schema.Any>(item: S) => Schema.Struct({ items: Schema.Array(item) })

/**
 * Names of workspaces, fields, questions, metadata properties: lowercase, digits, `-` and `_`, not first. (Patterns
 * here avoid lookaheads: they go into the OpenAPI document, and test-data generators are ~25× slower on them.)
 */
export const ResourceName = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(200),
  Schema.pattern(/^[a-z0-9][a-z0-9_-]*$/, {
    message: () => "must contain only lowercase letters, digits, - and _, and must not start with - or _"
  })
)

/**
 * The first two positions of `items` that share a key, and the key; items whose key is `undefined` are skipped.
 * Payload rules use it to name the items at fault ("items 0 and 3 have the same id …").
 */
export const firstRepeated = <A, K>(
  items: ReadonlyArray<A>,
  keyOf: (item: A) => K | undefined
): { readonly first: number; readonly second: number; readonly key: K } | undefined => {
  const seen = new Map<K, number>()
  for (let second = 0; second < items.length; second++) {
    const key = keyOf(items[second]!)
    if (key === undefined) continue
    const first = seen.get(key)
    if (first !== undefined) return { first, second, key }
    seen.set(key, second)
  }
  return undefined
}

/** Free text that is trimmed and then must not be empty. */
export const NonBlank = (max: number) => Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(max))

/**
 * Names of fields, questions and metadata properties: lowercase letters, digits, `_` and `-`, with at least one
 * letter or digit (they become keys in records, responses and search documents).
 */
export const SettingName = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(200),
  Schema.pattern(/^[a-z0-9_-]*[a-z0-9][a-z0-9_-]*$/, {
    message: () => "must contain only lowercase letters, digits, _ and -, and at least one letter or digit"
  })
)

/**
 * A refinement refusing the characters `forbidden` matches, with a message that says which one and where. The JSON
 * Schema says the same with a pattern, so generated clients and fuzzers know.
 */
const refusing = (forbidden: string, what: string) => {
  const regex = new RegExp(`[${forbidden}]`, "u")
  const check = (text: string) => {
    const found = regex.exec(text)
    if (found === null) return true
    const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")
    return `must not contain ${what} (found U+${code} at position ${found.index})`
  }
  const annotations = { jsonSchema: { pattern: `^[^${forbidden}]*$` } }
  return <A extends string, I, R>(self: Schema.Schema<A, I, R>): Schema.filter<Schema.Schema<A, I, R>> =>
    self.pipe(Schema.filter(check, annotations))
}

/**
 * For names and titles people see (usernames, first and last names, dataset names, titles): no control characters
 * (C0, DEL, C1), no line or paragraph separators and no bidirectional overrides, which are invisible and can break
 * or disguise the text shown around them (a NUL is also refused by PostgreSQL).
 */
export const SingleLine = refusing(
  "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069",
  "control characters"
)

/** For free text (guidelines, descriptions): tabs and line breaks are fine, other C0 controls and DEL are not. */
export const FreeText = refusing(
  "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f",
  "control characters other than tabs and line breaks"
)

export const Title = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500), SingleLine)

/**
 * Any JSON value; services check it against the dataset's settings. Its JSON Schema names the six JSON types:
 * `Schema.Unknown` alone becomes `{"$id": "/schemas/unknown"}`, a reference OpenAPI tools cannot resolve.
 */
export const JsonValue = Schema.Unknown.annotations({
  jsonSchema: { type: ["string", "number", "boolean", "object", "array", "null"], description: "Any JSON value" }
})

/** A free-form JSON object (dataset metadata, custom field values). */
export const JsonObject = Schema.Record({ key: Schema.String, value: JsonValue })

/**
 * What a client sends for a schema whose keys have defaults: those keys may be left out (the typed client's payload
 * type is a schema's decoded type, where defaults are filled in), yet every rule of `full` is still checked when
 * the server decodes it. Services then decode with `full` to fill the defaults in.
 */
export const inputOf = <A, I>(full: Schema.Schema<A, I>) => {
  const decode = ParseResult.decodeUnknownEither(full)
  return Schema.encodedBoundSchema(full).pipe(
    Schema.filter((value) => {
      const result = decode(value)
      return Either.isLeft(result) ? result.left : true
    })
  )
}
