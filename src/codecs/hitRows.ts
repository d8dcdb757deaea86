/**
 * The rows of a search's hits on the built-in engine, with their hand decoders: a page of hits (every search reads
 * one), and a text search's ranked window with the count of the matches that pass its filters.
 */
import { Schema } from "effect"
import { RecordId } from "../domain/Ids.js"
import { DbInt } from "./columns.js"
import { intOf, isNumberOrNull, isUuid, plainRows } from "./plainRows.js"

export const HitRow = Schema.Struct({ id: RecordId, score: Schema.NullOr(Schema.Number) })
/** A page of hits, decoded with a fast path (see plainRows): every search reads one. */
export const decodeHits = plainRows(
  HitRow,
  ({ id, score }) => isUuid(id) && isNumberOrNull(score) ? { id: id as RecordId, score } : undefined
)

export const RankedRow = Schema.Struct({ id: RecordId, score: Schema.NullOr(Schema.Number), n: DbInt })
export const decodeRanked = plainRows(
  RankedRow,
  ({ id, score, n }) => {
    const count = intOf(n)
    return isUuid(id) && isNumberOrNull(score) && count !== undefined ? { id: id as RecordId, score, n: count } : undefined
  }
)
