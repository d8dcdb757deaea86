/** How records and what hangs off them are stored. */
import { Schema } from "effect"
import { JsonObject } from "../../domain/Common.js"
import { DatasetId, QuestionId, RecordId, ResponseId, SuggestionId, UserId, VectorSettingsId } from "../../domain/Ids.js"
import { RecordStatus } from "../../domain/Record.js"
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

/** A vector with the name of its settings, as records show them. */
export const NamedVectorRow = Schema.Struct({ record_id: RecordId, name: Schema.String, value: DbVector })
export type NamedVectorRow = typeof NamedVectorRow.Type
