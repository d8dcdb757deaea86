/**
 * What review computes from, read a page of records at a time in insertion order: each record's id and time, its
 * submitted responses' answers and its suggestions, never its fields. Agreement, the review queue and accepting
 * agreed answers walk a whole dataset here (`npm run bench -- review`: 100 000 records × 3 answers), so the rows are
 * decoded by hand (see plainRows; test/unit/review-rows.test.ts keeps each fast path equal to its schema).
 */
import { Effect, Schema } from "effect"
import { QuestionId, RecordId, UserId, type DatasetId } from "../../domain/Ids.js"
import { DbInt, DbJson, DbTimestamp, timestampOf } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"
import { insertionOrder, notIndexed } from "../database/ddl.js"
import { intOf, isUuid, plainRows, type Row } from "../../codecs/plainRows.js"

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

export interface ReviewPage {
  readonly records: ReadonlyArray<RecordKeyRow>
  readonly answers: ReadonlyArray<AnswerRow>
  readonly suggestions: ReadonlyArray<SuggestionValueRow>
  /** The key to read the next page after; undefined on the last page. */
  readonly next: number | undefined
}

export class ReviewRowsRepo extends Effect.Service<ReviewRowsRepo>()("Gloss/ReviewRowsRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database
    const order = sql.unsafe(insertionOrder(sql))
    const byKey = sql.unsafe(notIndexed(sql))

    /**
     * Up to `limit` records after `after` (keyset on the insertion order, as RecordsRepo.pageAfter walks a dataset),
     * with the submitted answers and, when asked, the suggestions of that key range: joined by the range, not by a
     * list of ids.
     */
    const page = (datasetId: DatasetId, after: number | undefined, limit: number, withSuggestions: boolean) =>
      Effect.gen(function*() {
        const from = after === undefined ? sql`` : sql` and r.${order} > ${after}`
        const records = yield* Effect.flatMap(
          sql`select r.${order} as insertion_key, r.id, r.inserted_at from records r
            where ${byKey}r.dataset_id = ${datasetId}${from} order by r.${order} limit ${limit}`,
          decodeRecordKeys
        )
        const last = records[records.length - 1]
        if (last === undefined) return { records, answers: [], suggestions: [], next: undefined } satisfies ReviewPage
        const range = sql`${byKey}r.dataset_id = ${datasetId}${from} and r.${order} <= ${last.insertion_key}`
        const answers = yield* Effect.flatMap(
          sql`select s.record_id, s.user_id, s."values" from records r join responses s on s.record_id = r.id
            where ${range} and s.status = 'submitted'`,
          decodeAnswers
        )
        const suggestions = withSuggestions
          ? yield* Effect.flatMap(
            sql`select s.record_id, s.question_id, s.value from records r join suggestions s on s.record_id = r.id
              where ${range}`,
            decodeSuggestionValues
          )
          : []
        return { records, answers, suggestions, next: records.length < limit ? undefined : last.insertion_key } satisfies ReviewPage
      })

    const usernames = (ids: ReadonlyArray<string>) =>
      Effect.flatMap(
        sql`select id, username from users where ${sql.in("id", ids)}`,
        Schema.decodeUnknown(Schema.Array(Schema.Struct({ id: UserId, username: Schema.String })))
      )

    return {
      page: (datasetId: DatasetId, after: number | undefined, limit: number, withSuggestions: boolean) =>
        page(datasetId, after, limit, withSuggestions).pipe(Effect.orDie),
      /** Usernames by user id. */
      usernames: (ids: ReadonlyArray<string>) =>
        ids.length === 0
          ? Effect.succeed(new Map<string, string>())
          : Effect.map(usernames(ids), (rows) => new Map(rows.map((row) => [row.id, row.username]))).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
