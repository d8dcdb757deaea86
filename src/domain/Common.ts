import { Either, ParseResult, Schema } from "effect"

/** The contract wraps every collection: `{"items": [...]}`. */
export const Items = <S extends Schema.Schema.Any>(item: S) => Schema.Struct({ items: Schema.Array(item) })

/** Names of workspaces, fields, questions, metadata properties: lowercase, digits, `-` and `_`, not first. */
export const ResourceName = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(200),
  Schema.pattern(/^(?![-_])[a-z0-9_-]+$/, {
    message: () => "must contain only lowercase letters, digits, - and _, and must not start with - or _"
  })
)

/** Free text that is trimmed and then must not be empty. */
export const NonBlank = (max: number) => Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(max))

/**
 * Names of fields, questions and metadata properties: lowercase letters, digits, `_` and `-`, with at least one
 * letter or digit (they become keys in records, responses and search documents).
 */
export const SettingName = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(200),
  Schema.pattern(/^(?=.*[a-z0-9])[a-z0-9_-]+$/, {
    message: () => "must contain only lowercase letters, digits, _ and -, and at least one letter or digit"
  })
)

export const Title = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))

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
