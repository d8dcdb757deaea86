import { Schema } from "effect"
import { inputOf, JsonValue, SettingName, Title } from "./Common.js"
import { DatasetId, MetadataPropertyId } from "./Ids.js"
import { withinDepth } from "./Json.js"
import { Timestamp } from "./Timestamp.js"

const minBelowMax = <S extends { readonly min: number | null; readonly max: number | null }>(settings: S) =>
  settings.min === null || settings.max === null || settings.min < settings.max ||
  `min (${settings.min}) must be lower than max (${settings.max})`

const TermsSettings = Schema.Struct({
  type: Schema.Literal("terms"),
  values: Schema.optionalWith(
    Schema.NullOr(Schema.Array(JsonValue).pipe(Schema.minItems(1), Schema.maxItems(250))),
    { default: () => null }
  )
})
const IntegerSettings = Schema.Struct({
  type: Schema.Literal("integer"),
  min: Schema.optionalWith(Schema.NullOr(Schema.Int), { default: () => null }),
  max: Schema.optionalWith(Schema.NullOr(Schema.Int), { default: () => null })
}).pipe(Schema.filter(minBelowMax))
const FloatSettings = Schema.Struct({
  type: Schema.Literal("float"),
  min: Schema.optionalWith(Schema.NullOr(Schema.Number), { default: () => null }),
  max: Schema.optionalWith(Schema.NullOr(Schema.Number), { default: () => null })
}).pipe(Schema.filter(minBelowMax))

export const MetadataSettings = Schema.Union(TermsSettings, IntegerSettings, FloatSettings).annotations({
  identifier: "MetadataSettings"
})
export type MetadataSettings = typeof MetadataSettings.Type

export const MetadataProperty = Schema.Struct({
  id: MetadataPropertyId,
  name: Schema.String,
  title: Schema.String,
  settings: MetadataSettings,
  visible_for_annotators: Schema.Boolean,
  dataset_id: DatasetId,
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "MetadataProperty" })
export type MetadataProperty = typeof MetadataProperty.Type

export const NewMetadataProperty = Schema.Struct({
  id: Schema.optional(Schema.NullOr(MetadataPropertyId)),
  name: SettingName,
  title: Title,
  // Terms lists are stored JSON like any other: bounded in depth.
  settings: MetadataSettings.pipe(Schema.filter(withinDepth)),
  visible_for_annotators: Schema.optionalWith(Schema.Boolean, { default: () => true })
})
export type NewMetadataProperty = typeof NewMetadataProperty.Type

export const MetadataPropertyCreate = inputOf(NewMetadataProperty).annotations({ identifier: "MetadataPropertyCreate" })
export type MetadataPropertyCreate = typeof MetadataPropertyCreate.Type

export const MetadataPropertyUpdate = Schema.Struct({
  title: Schema.optional(Title),
  visible_for_annotators: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "MetadataPropertyUpdate" })
export type MetadataPropertyUpdate = typeof MetadataPropertyUpdate.Type
