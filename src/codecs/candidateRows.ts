/** A queue's candidate records as the pool and a user's assignments read them: id, insertion order, priority. */
import { Schema } from "effect"
import { RecordId } from "../domain/Ids.js"
import { DbInt } from "./columns.js"
import { intOf, isUuid, plainRows, type Row } from "./plainRows.js"

export const CandidateRow = Schema.Struct({ id: RecordId, seq: DbInt, priority: DbInt })
export type CandidateRow = typeof CandidateRow.Type

/**
 * A queue's candidates, decoded by hand: `npm run bench -- queue` spent most of a queue page decoding 20 000 of them
 * through the schema (a union parser per `DbInt`); its tests keep it equal to the schema.
 */
export const decodeCandidates = plainRows(CandidateRow, (row: Row): CandidateRow | undefined => {
  const seq = intOf(row.seq)
  const priority = intOf(row.priority)
  if (!isUuid(row.id) || seq === undefined || priority === undefined) return undefined
  return { id: RecordId.make(row.id, { disableValidation: true }), seq, priority }
})
