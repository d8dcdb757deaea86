import { Schema } from "effect"

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
