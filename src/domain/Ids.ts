/** Branded UUIDs: an id of one resource cannot be passed where another's is expected. */
import { Schema } from "effect"

const id = <const B extends string>(brand: B) => Schema.UUID.pipe(Schema.brand(brand))

export const UserId = id("UserId")
export type UserId = typeof UserId.Type
export const WorkspaceId = id("WorkspaceId")
export type WorkspaceId = typeof WorkspaceId.Type
export const DatasetId = id("DatasetId")
export type DatasetId = typeof DatasetId.Type
export const FieldId = id("FieldId")
export type FieldId = typeof FieldId.Type
export const QuestionId = id("QuestionId")
export type QuestionId = typeof QuestionId.Type
export const MetadataPropertyId = id("MetadataPropertyId")
export type MetadataPropertyId = typeof MetadataPropertyId.Type
export const VectorSettingsId = id("VectorSettingsId")
export type VectorSettingsId = typeof VectorSettingsId.Type
export const RecordId = id("RecordId")
export type RecordId = typeof RecordId.Type
export const ResponseId = id("ResponseId")
export type ResponseId = typeof ResponseId.Type
export const SuggestionId = id("SuggestionId")
export type SuggestionId = typeof SuggestionId.Type
export const WebhookId = id("WebhookId")
export type WebhookId = typeof WebhookId.Type
