import { Schema } from "effect"
import { inputOf, SettingName, Title } from "./Common.js"
import { DatasetId, FieldId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

const TextSettings = Schema.Struct({
  type: Schema.Literal("text"),
  use_markdown: Schema.optionalWith(Schema.Boolean, { default: () => false })
})
const ImageSettings = Schema.Struct({ type: Schema.Literal("image") })
const ChatSettings = Schema.Struct({
  type: Schema.Literal("chat"),
  use_markdown: Schema.optionalWith(Schema.Boolean, { default: () => true })
})
/** A record value rendered by an HTML/JS template (in the UI, in a sandboxed frame). */
const CustomSettings = Schema.Struct({
  type: Schema.Literal("custom"),
  template: Schema.String,
  advanced_mode: Schema.optionalWith(Schema.Boolean, { default: () => false })
})

export const FieldSettings = Schema.Union(TextSettings, ImageSettings, ChatSettings, CustomSettings).annotations({
  identifier: "FieldSettings"
})
export type FieldSettings = typeof FieldSettings.Type
export type FieldType = FieldSettings["type"]

export const Field = Schema.Struct({
  id: FieldId,
  name: Schema.String,
  title: Schema.String,
  required: Schema.Boolean,
  settings: FieldSettings,
  dataset_id: DatasetId,
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Field" })
export type Field = typeof Field.Type

export const NewField = Schema.Struct({
  id: Schema.optional(Schema.NullOr(FieldId)),
  name: SettingName,
  title: Title,
  required: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  settings: FieldSettings
})
export type NewField = typeof NewField.Type

export const FieldCreate = inputOf(NewField).annotations({ identifier: "FieldCreate" })
export type FieldCreate = typeof FieldCreate.Type

export const FieldSettingsInput = inputOf(FieldSettings)

export const FieldUpdate = Schema.Struct({
  title: Schema.optional(Title),
  settings: Schema.optional(FieldSettingsInput)
}).annotations({ identifier: "FieldUpdate" })
export type FieldUpdate = typeof FieldUpdate.Type
