/**
 * The rows review computes from, with their hand decoders: each record's id and time, its submitted responses'
 * answers and its suggestions' values. Agreement, the review queue and accepting agreed answers walk a whole dataset
 * through these (`npm run bench -- review`: 100 000 records × 3 answers), too many rows to decode through the schemas.
 */
import { Schema } from "effect"
import { QuestionId, RecordId, UserId } from "../domain/Ids.js"
import { DbInt, DbJson, DbTimestamp, timestampOf } from "./columns.js"
import { intOf, isUuid, plainRows, type Row } from "./plainRows.js"

export const RecordKeyRow = Schema.Struct({ insertion_key: DbInt, id: RecordId, inserted_at: DbTimestamp })
export type RecordKeyRow = typeof RecordKeyRow.Type

export const AnswerRow = Schema.Struct({ record_id: RecordId, user_id: UserId, values: Schema.NullOr(DbJson(Schema.Unknown)) })
export type AnswerRow = typeof AnswerRow.Type

export const SuggestionValueRow = Schema.Struct({ record_id: RecordId, question_id: QuestionId, value: DbJson(Schema.Unknown) })
export type SuggestionValueRow = typeof SuggestionValueRow.Type

// The fast paths check ids with `isUuid` (the brands' own predicate) and then brand them without checking again:
// the check ran twice for each of the 600 000 ids of a 100 000-record walk.
const checked = { disableValidation: true } as const

/** JSON text parsed, or undefined when it is not JSON (the schema then reports it). */
const parsed = (text: unknown): { readonly value: unknown } | undefined => {
  if (typeof text !== "string") return undefined
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

export const decodeRecordKeys = plainRows(RecordKeyRow, (row: Row): RecordKeyRow | undefined => {
  const key = intOf(row.insertion_key)
  const at = row.inserted_at instanceof Date || typeof row.inserted_at === "string" ? timestampOf(row.inserted_at) : undefined
  if (key === undefined || !isUuid(row.id) || at === undefined) return undefined
  return { insertion_key: key, id: RecordId.make(row.id, checked), inserted_at: at }
})

export const decodeAnswers = plainRows(AnswerRow, (row: Row): AnswerRow | undefined => {
  if (!isUuid(row.record_id) || !isUuid(row.user_id)) return undefined
  const values = row.values === null ? { value: null } : parsed(row.values)
  if (values === undefined) return undefined
  return {
    record_id: RecordId.make(row.record_id, checked),
    user_id: UserId.make(row.user_id, checked),
    values: values.value
  }
})

export const decodeSuggestionValues = plainRows(SuggestionValueRow, (row: Row): SuggestionValueRow | undefined => {
  if (!isUuid(row.record_id) || !isUuid(row.question_id)) return undefined
  const value = parsed(row.value)
  if (value === undefined) return undefined
  return {
    record_id: RecordId.make(row.record_id, checked),
    question_id: QuestionId.make(row.question_id, checked),
    value: value.value
  }
})
