/** How records and what hangs off them are stored. */
import { Schema } from "effect"
import { JsonObject } from "../../domain/Common.js"
import { DatasetId, QuestionId, RecordId, ResponseId, SuggestionId, UserId, VectorSettingsId } from "../../domain/Ids.js"
import { RecordStatus } from "../../domain/Record.js"
import { isoString } from "../../domain/Timestamp.js"
import { ResponseStatus, ResponseValues } from "../../domain/Response.js"
import { Score, SuggestionType } from "../../domain/Suggestion.js"
import { DbJson, DbTimestamp, DbVector } from "../database/columns.js"

const timestamps = { inserted_at: DbTimestamp, updated_at: DbTimestamp }

export const RecordRow = Schema.Struct({
  id: RecordId,
  dataset_id: DatasetId,
  external_id: Schema.NullOr(Schema.String),
  fields: DbJson(JsonObject),
  metadata: Schema.NullOr(DbJson(JsonObject)),
  status: RecordStatus,
  ...timestamps
})
export type RecordRow = typeof RecordRow.Type

/**
 * `RecordRow`'s encoding, written out for bulk inserts. The rows come from the service, built from input the API
 * has already decoded, so the schema's checks hold; running them again through `Schema.encode` cost ~14 µs a row,
 * a tenth of a bulk upsert. A test keeps this equal to the schema's own encoding.
 */
export const encodeRecordRow = (row: RecordRow): typeof RecordRow.Encoded => ({
  id: row.id,
  dataset_id: row.dataset_id,
  external_id: row.external_id,
  fields: JSON.stringify(row.fields),
  metadata: row.metadata === null ? null : JSON.stringify(row.metadata),
  status: row.status,
  inserted_at: isoString(row.inserted_at),
  updated_at: isoString(row.updated_at)
})

export const ResponseRow = Schema.Struct({
  id: ResponseId,
  record_id: RecordId,
  user_id: UserId,
  values: Schema.NullOr(DbJson(ResponseValues)),
  status: ResponseStatus,
  ...timestamps
})
export type ResponseRow = typeof ResponseRow.Type

export const SuggestionRow = Schema.Struct({
  id: SuggestionId,
  record_id: RecordId,
  question_id: QuestionId,
  value: DbJson(Schema.Unknown),
  score: Schema.NullOr(DbJson(Score)),
  agent: Schema.NullOr(Schema.String),
  type: Schema.NullOr(SuggestionType),
  ...timestamps
})
export type SuggestionRow = typeof SuggestionRow.Type

export const VectorRow = Schema.Struct({
  id: Schema.UUID,
  record_id: RecordId,
  vector_settings_id: VectorSettingsId,
  value: DbVector,
  ...timestamps
})
export type VectorRow = typeof VectorRow.Type

/** A vector keyed by the id of its settings, as search documents hold them. */
export const SettingsVectorRow = VectorRow.pipe(Schema.pick("record_id", "vector_settings_id", "value"))
export type SettingsVectorRow = typeof SettingsVectorRow.Type

/** A vector with the name of its settings, as records show them. */
export const NamedVectorRow = Schema.Struct({ record_id: RecordId, name: Schema.String, value: DbVector })
export type NamedVectorRow = typeof NamedVectorRow.Type
