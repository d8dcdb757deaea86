import { Schema } from "effect"
import { FreeText, inputOf, JsonObject, SingleLine } from "./Common.js"
import { DatasetId, WorkspaceId } from "./Ids.js"
import { JsonObjectInput } from "./Json.js"
import { Timestamp } from "./Timestamp.js"

/** How many submitted responses complete a record (the only strategy is `overlap`). */
export const Distribution = Schema.Struct({
  strategy: Schema.Literal("overlap"),
  min_submitted: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))
}).annotations({ identifier: "Distribution" })
export type Distribution = typeof Distribution.Type

export const DatasetStatus = Schema.Literal("draft", "ready")
export type DatasetStatus = typeof DatasetStatus.Type

export const Dataset = Schema.Struct({
  id: DatasetId,
  name: Schema.String,
  guidelines: Schema.NullOr(Schema.String),
  allow_extra_metadata: Schema.Boolean,
  status: DatasetStatus,
  distribution: Distribution,
  metadata: Schema.NullOr(JsonObject),
  workspace_id: WorkspaceId,
  last_activity_at: Timestamp,
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Dataset" })
export type Dataset = typeof Dataset.Type

const DatasetName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200), SingleLine)
const Guidelines = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(10_000), FreeText)

/** A new dataset with every default filled in. */
export const NewDataset = Schema.Struct({
  id: Schema.optional(Schema.NullOr(DatasetId)),
  name: DatasetName,
  guidelines: Schema.optional(Schema.NullOr(Guidelines)),
  allow_extra_metadata: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  distribution: Schema.optionalWith(Distribution, {
    default: () => ({ strategy: "overlap" as const, min_submitted: 1 })
  }),
  metadata: Schema.optional(Schema.NullOr(JsonObjectInput)),
  workspace_id: WorkspaceId
})
export type NewDataset = typeof NewDataset.Type

export const DatasetCreate = inputOf(NewDataset).annotations({ identifier: "DatasetCreate" })
export type DatasetCreate = typeof DatasetCreate.Type

/** Partial: absent keys are left alone; `guidelines` and `metadata` may be set to null. */
export const DatasetUpdate = Schema.Struct({
  name: Schema.optional(DatasetName),
  guidelines: Schema.optional(Schema.NullOr(Guidelines)),
  allow_extra_metadata: Schema.optional(Schema.Boolean),
  distribution: Schema.optional(Distribution),
  metadata: Schema.optional(Schema.NullOr(JsonObjectInput))
}).annotations({ identifier: "DatasetUpdate" })
export type DatasetUpdate = typeof DatasetUpdate.Type

export const DatasetsFilter = Schema.Struct({
  workspace_id: Schema.optional(WorkspaceId),
  name: Schema.optional(Schema.String),
  status: Schema.optional(DatasetStatus)
})
