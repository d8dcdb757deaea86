/**
 * What review computes from, read a page of records at a time in insertion order: each record's id and time, its
 * submitted responses' answers and its suggestions, never its fields. Agreement, the review queue and accepting
 * agreed answers walk a whole dataset here (`npm run bench -- review`: 100 000 records × 3 answers), so the rows are
 * decoded by hand (codecs/reviewRows.ts).
 */
import { Effect, Schema } from "effect"
import {
  type AnswerRow,
  decodeAnswers,
  decodeRecordKeys,
  decodeSuggestionValues,
  type RecordKeyRow,
  type SuggestionValueRow
} from "../../codecs/reviewRows.js"
import { type DatasetId, UserId } from "../../domain/Ids.js"
import { Database } from "../database/Database.js"
import { insertionOrder, notIndexed } from "../database/ddl.js"

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
