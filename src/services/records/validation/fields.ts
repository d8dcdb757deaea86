/** Record field values against the dataset's fields (which exist, which are required, what each type accepts). */
import { Either } from "effect"
import { validateChatMessages } from "./chatMessages.js"
import { type Check, fail, isJsonObject, ok, ownValue, show } from "./common.js"
import type { FieldSpec, ValidationContext } from "./context.js"
import { validateImageUrl } from "./imageUrl.js"

/**
 * `create`: a new record, so at least one field and every required field with a value. `update`: a partial change
 * of an existing record's fields, so fields may be left out, but a required one may not be set to `null`.
 */
export type FieldsMode = "create" | "update"

const isAbsent = (value: unknown) => value === undefined || value === null

const validateValue = (ctx: ValidationContext, field: FieldSpec, value: unknown): Check => {
  switch (field.settings.type) {
    case "text":
      return typeof value === "string" ? ok : fail(`text field '${field.name}' value must be a string, found ${show(value)}`)
    case "image":
      return validateImageUrl(field.name, value)
    case "chat":
      return validateChatMessages(field.name, value, ctx.limits)
    case "custom":
      return isJsonObject(value) ? ok : fail(`custom field '${field.name}' value must be a dictionary, found ${show(value)}`)
  }
}

// Written with early returns rather than `Either.gen`: this runs for every record of a bulk write, where the
// generator's cost shows in an ingest.
export const validateRecordFields = (
  ctx: ValidationContext,
  fields: Readonly<Record<string, unknown>>,
  mode: FieldsMode
): Check => {
  if (mode === "create" && Object.keys(fields).length === 0) return fail("fields cannot be empty")
  for (const field of ctx.fields) {
    const given = Object.hasOwn(fields, field.name)
    // On update a left-out field keeps its stored value; only an explicit null would empty it.
    if (field.required && (mode === "create" || given) && isAbsent(ownValue(fields, field.name))) {
      return fail(`missing required value for field: '${field.name}'`)
    }
  }
  const unknown = Object.keys(fields).filter((name) => !ctx.fields.some((field) => field.name === name))
  if (unknown.length > 0) {
    return fail(`found fields values for non configured fields: [${unknown.map(show).join(", ")}]`)
  }
  for (const field of ctx.fields) {
    const value = ownValue(fields, field.name)
    if (isAbsent(value)) continue
    const checked = validateValue(ctx, field, value)
    if (Either.isLeft(checked)) return checked
  }
  return ok
}
