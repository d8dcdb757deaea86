/** The `final_answers` table (migration 0017_review): one settled answer per record and question. */
import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DatasetId, QuestionId, RecordId, UserId } from "../../domain/Ids.js"
import { FinalAnswerSource } from "../../domain/Review.js"
import { DbJson, DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"

export const FinalAnswerRow = Schema.Struct({
  record_id: RecordId,
  question_id: QuestionId,
  dataset_id: DatasetId,
  value: DbJson(Schema.Unknown),
  source: FinalAnswerSource,
  source_user_id: Schema.NullOr(UserId),
  note: Schema.NullOr(Schema.String),
  settled_by: UserId,
  inserted_at: DbTimestamp,
  updated_at: DbTimestamp
})
export type FinalAnswerRow = typeof FinalAnswerRow.Type

/** A row with its question's name, as the API shows it. */
export const NamedFinalAnswerRow = Schema.Struct({ ...FinalAnswerRow.fields, question: Schema.String })
export type NamedFinalAnswerRow = typeof NamedFinalAnswerRow.Type

/** Which questions of which records are settled: what the review queue's settled state is computed from. */
export const SettledKey = Schema.Struct({ record_id: RecordId, question_id: QuestionId })
export type SettledKey = typeof SettledKey.Type

/** Rows written per statement: below both databases' limits on bound parameters (10 columns a row). */
const INSERT_BATCH = 500

export class FinalAnswersRepo extends Effect.Service<FinalAnswersRepo>()("Gloss/FinalAnswersRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    // In the order of the dataset's questions, so that a record's final answers read as its form does.
    const ofRecords = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: NamedFinalAnswerRow,
      execute: (ids) =>
        sql`select f.*, q.name as question from final_answers f join questions q on q.id = f.question_id
          where ${sql.in("f.record_id", ids)} order by q.inserted_at, q.id`
    })
    const settledOfDataset = SqlSchema.findAll({
      Request: DatasetId,
      Result: SettledKey,
      execute: (datasetId) => sql`select record_id, question_id from final_answers where dataset_id = ${datasetId}`
    })
    const upsert = SqlSchema.void({
      Request: Schema.Array(FinalAnswerRow),
      execute: (rows) =>
        sql`insert into final_answers ${sql.insert(rows)} on conflict (record_id, question_id) do update set
          value = excluded.value, source = excluded.source, source_user_id = excluded.source_user_id,
          note = excluded.note, settled_by = excluded.settled_by, updated_at = excluded.updated_at`
    })
    // A question settled meanwhile (another reviewer, another accept) keeps its answer.
    const insertNew = SqlSchema.findAll({
      Request: Schema.Array(FinalAnswerRow),
      Result: SettledKey,
      execute: (rows) =>
        sql`insert into final_answers ${sql.insert(rows)} on conflict (record_id, question_id) do nothing
          returning record_id, question_id`
    })
    const remove = SqlSchema.findOne({
      Request: SettledKey,
      Result: SettledKey,
      execute: ({ question_id, record_id }) =>
        sql`delete from final_answers where record_id = ${record_id} and question_id = ${question_id}
          returning record_id, question_id`
    })

    return {
      ofRecords: (ids: ReadonlyArray<string>) =>
        ids.length === 0 ? Effect.succeed([]) : ofRecords(ids).pipe(Effect.orDie),
      ofRecord: (id: RecordId) => ofRecords([id]).pipe(Effect.orDie),
      settledOfDataset: (datasetId: DatasetId) => settledOfDataset(datasetId).pipe(Effect.orDie),
      upsert: (rows: ReadonlyArray<FinalAnswerRow>) => rows.length === 0 ? Effect.void : upsert(rows).pipe(Effect.orDie),
      /** Writes the rows whose question is not settled yet; answers those it wrote. */
      insertNew: (rows: ReadonlyArray<FinalAnswerRow>) =>
        Effect.map(
          Effect.forEach(chunks(rows, INSERT_BATCH), (batch) => insertNew(batch).pipe(Effect.orDie)),
          (written) => written.flat()
        ),
      remove: (key: SettledKey) => remove(key).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
