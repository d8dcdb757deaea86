/** How datasets and their settings are stored: the API shapes, with JSON and booleans in portable columns. */
import { Schema } from "effect"
import { JsonObject } from "../../domain/Common.js"
import { DatasetStatus, Distribution } from "../../domain/Dataset.js"
import { FieldSettings } from "../../domain/Field.js"
import { DatasetId, FieldId, MetadataPropertyId, QuestionId, VectorSettingsId, WorkspaceId } from "../../domain/Ids.js"
import { MetadataSettings } from "../../domain/MetadataProperty.js"
import { QuestionSettings } from "../../domain/Question.js"
import { DbBoolean, DbJson, DbTimestamp, timestampColumns } from "../../codecs/columns.js"

export const DatasetRow = Schema.Struct({
  id: DatasetId,
  name: Schema.String,
  guidelines: Schema.NullOr(Schema.String),
  allow_extra_metadata: DbBoolean,
  status: DatasetStatus,
  distribution: DbJson(Distribution),
  metadata: Schema.NullOr(DbJson(JsonObject)),
  workspace_id: WorkspaceId,
  last_activity_at: DbTimestamp,
  ...timestampColumns
})
export type DatasetRow = typeof DatasetRow.Type

export const FieldRow = Schema.Struct({
  id: FieldId,
  name: Schema.String,
  title: Schema.String,
  required: DbBoolean,
  settings: DbJson(FieldSettings),
  dataset_id: DatasetId,
  ...timestampColumns
})
export type FieldRow = typeof FieldRow.Type

export const QuestionRow = Schema.Struct({
  id: QuestionId,
  name: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  required: DbBoolean,
  settings: DbJson(QuestionSettings),
  dataset_id: DatasetId,
  ...timestampColumns
})
export type QuestionRow = typeof QuestionRow.Type

export const MetadataPropertyRow = Schema.Struct({
  id: MetadataPropertyId,
  name: Schema.String,
  title: Schema.String,
  settings: DbJson(MetadataSettings),
  visible_for_annotators: DbBoolean,
  dataset_id: DatasetId,
  ...timestampColumns
})
export type MetadataPropertyRow = typeof MetadataPropertyRow.Type

export const VectorSettingsRow = Schema.Struct({
  id: VectorSettingsId,
  name: Schema.String,
  title: Schema.String,
  dimensions: Schema.Int,
  dataset_id: DatasetId,
  ...timestampColumns
})
export type VectorSettingsRow = typeof VectorSettingsRow.Type
