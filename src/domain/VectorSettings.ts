import { Schema } from "effect"
import { Title } from "./Common.js"
import { DatasetId, VectorSettingsId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

export const VectorSettings = Schema.Struct({
  id: VectorSettingsId,
  name: Schema.String,
  title: Schema.String,
  dimensions: Schema.Int,
  dataset_id: DatasetId,
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "VectorSettings" })
export type VectorSettings = typeof VectorSettings.Type

export const VectorSettingsCreate = Schema.Struct({
  id: Schema.optional(Schema.NullOr(VectorSettingsId)),
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  title: Title,
  dimensions: Schema.Int.pipe(Schema.positive(), Schema.lessThanOrEqualTo(65_536))
}).annotations({ identifier: "VectorSettingsCreate" })
export type VectorSettingsCreate = typeof VectorSettingsCreate.Type

export const VectorSettingsUpdate = Schema.Struct({ title: Schema.optional(Title) }).annotations({
  identifier: "VectorSettingsUpdate"
})
export type VectorSettingsUpdate = typeof VectorSettingsUpdate.Type

/** Most vector settings a dataset may have. */
export const MAX_VECTOR_SETTINGS = 5
