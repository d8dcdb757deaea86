/** How what hangs off a record is stored: responses, suggestions, vectors (the record itself: codecs/recordRows.ts). */
import { Schema } from "effect"
import { DbJson, DbVector, timestampColumns } from "../../codecs/columns.js"
import { QuestionId, RecordId, ResponseId, SuggestionId, UserId, VectorSettingsId } from "../../domain/Ids.js"
import { ResponseStatus, ResponseValues } from "../../domain/Response.js"
import { Score, SuggestionType } from "../../domain/Suggestion.js"

export const ResponseRow = Schema.Struct({
  id: ResponseId,
  record_id: RecordId,
  user_id: UserId,
  values: Schema.NullOr(DbJson(ResponseValues)),
  status: ResponseStatus,
  ...timestampColumns
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
  ...timestampColumns
})
export type SuggestionRow = typeof SuggestionRow.Type

export const VectorRow = Schema.Struct({
  id: Schema.UUID,
  record_id: RecordId,
  vector_settings_id: VectorSettingsId,
  value: DbVector,
  ...timestampColumns
})
export type VectorRow = typeof VectorRow.Type

/** A vector keyed by the id of its settings, as search documents hold them. */
export const SettingsVectorRow = VectorRow.pipe(Schema.pick("record_id", "vector_settings_id", "value"))
export type SettingsVectorRow = typeof SettingsVectorRow.Type

/** A vector with the name of its settings, as records show them. */
export const NamedVectorRow = Schema.Struct({ record_id: RecordId, name: Schema.String, value: DbVector })
export type NamedVectorRow = typeof NamedVectorRow.Type
