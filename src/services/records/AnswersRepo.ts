/** Responses, suggestions and vectors: what hangs off a record, read and written a page of records at a time. */
import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DatasetId, RecordId, ResponseId, SuggestionId, UserId } from "../../domain/Ids.js"
import { Database } from "../database/Database.js"
import { DbVector } from "../../codecs/columns.js"
import { NamedVectorRow, ResponseRow, SettingsVectorRow, SuggestionRow, VectorRow } from "./rows.js"

const Ids = Schema.Array(Schema.String)
const none = <A>(): Effect.Effect<ReadonlyArray<A>> => Effect.succeed([])

export class AnswersRepo extends Effect.Service<AnswersRepo>()("Gloss/AnswersRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    const responsesOf = SqlSchema.findAll({
      Request: Ids,
      Result: ResponseRow,
      execute: (ids) => sql`select * from responses where ${sql.in("record_id", ids)} order by inserted_at, id`
    })
    const responsesOfUser = SqlSchema.findAll({
      Request: Schema.Struct({ ids: Ids, userId: UserId }),
      Result: ResponseRow,
      execute: ({ ids, userId }) => sql`select * from responses where user_id = ${userId} and ${sql.in("record_id", ids)}`
    })
    const response = SqlSchema.findOne({
      Request: ResponseId,
      Result: ResponseRow,
      execute: (id) => sql`select * from responses where id = ${id}`
    })
    /** Insert or replace each user's response to each record (one per user per record). */
    const upsertResponses = SqlSchema.findAll({
      Request: Schema.Array(ResponseRow),
      Result: ResponseRow,
      execute: (rows) =>
        sql`insert into responses ${sql.insert(rows)} on conflict (record_id, user_id) do update set
              "values" = excluded."values", status = excluded.status, updated_at = excluded.updated_at returning *`
    })
    const insertResponse = SqlSchema.findOne({
      Request: ResponseRow,
      Result: ResponseRow,
      execute: (row) => sql`insert into responses ${sql.insert(row)} on conflict do nothing returning *`
    })
    const replaceResponse = SqlSchema.findOne({
      Request: ResponseRow,
      Result: ResponseRow,
      execute: (row) => sql`update responses set ${sql.update(row, ["id"])} where id = ${row.id} returning *`
    })
    const deleteResponse = SqlSchema.void({ Request: ResponseId, execute: (id) => sql`delete from responses where id = ${id}` })

    const suggestionsOf = SqlSchema.findAll({
      Request: Ids,
      Result: SuggestionRow,
      execute: (ids) => sql`select * from suggestions where ${sql.in("record_id", ids)} order by inserted_at, id`
    })
    const suggestion = SqlSchema.findOne({
      Request: SuggestionId,
      Result: SuggestionRow,
      execute: (id) => sql`select * from suggestions where id = ${id}`
    })
    /** One suggestion per question per record: a new one replaces the old. */
    const upsertSuggestions = SqlSchema.findAll({
      Request: Schema.Array(SuggestionRow),
      Result: SuggestionRow,
      execute: (rows) =>
        sql`insert into suggestions ${sql.insert(rows)} on conflict (record_id, question_id) do update set
              value = excluded.value, score = excluded.score, agent = excluded.agent, type = excluded.type,
              updated_at = excluded.updated_at returning *`
    })
    const deleteSuggestions = SqlSchema.findAll({
      Request: Schema.Struct({ recordId: RecordId, ids: Schema.NullOr(Ids) }),
      Result: SuggestionRow,
      execute: ({ ids, recordId }) =>
        ids === null
          ? sql`delete from suggestions where record_id = ${recordId} returning *`
          : sql`delete from suggestions where record_id = ${recordId} and ${sql.in("id", ids)} returning *`
    })

    const vectorsOf = SqlSchema.findAll({
      Request: Ids,
      Result: NamedVectorRow,
      execute: (ids) =>
        sql`select v.record_id, s.name, v.value from vectors v join vectors_settings s on s.id = v.vector_settings_id
            where ${sql.in("v.record_id", ids)}`
    })
    const vectorsBySettingsOf = SqlSchema.findAll({
      Request: Ids,
      Result: SettingsVectorRow,
      execute: (ids) => sql`select record_id, vector_settings_id, value from vectors where ${sql.in("record_id", ids)}`
    })
    const vectorOf = SqlSchema.findOne({
      Request: Schema.Struct({ recordId: RecordId, settingsId: Schema.String }),
      Result: Schema.Struct({ value: DbVector }),
      execute: ({ recordId, settingsId }) =>
        sql`select value from vectors where record_id = ${recordId} and vector_settings_id = ${settingsId}`
    })
    const agents = SqlSchema.findAll({
      Request: DatasetId,
      Result: Schema.Struct({ question_id: Schema.String, agent: Schema.String }),
      execute: (datasetId) =>
        sql`select distinct s.question_id, s.agent from suggestions s join records r on r.id = s.record_id
            where r.dataset_id = ${datasetId} and s.agent is not null order by s.agent`
    })
    const upsertVectors = SqlSchema.void({
      Request: Schema.Array(VectorRow),
      execute: (rows) =>
        sql`insert into vectors ${sql.insert(rows)} on conflict (record_id, vector_settings_id) do update set
              value = excluded.value, updated_at = excluded.updated_at`
    })

    /** Records that a user has answered something in the dataset (the progress endpoints list them). */
    const touchDatasetUsers = SqlSchema.void({
      Request: Schema.Struct({ datasetId: DatasetId, userIds: Schema.Array(UserId), at: Schema.String }),
      execute: ({ at, datasetId, userIds }) =>
        sql`insert into datasets_users ${
          sql.insert(userIds.map((userId) => ({ dataset_id: datasetId, user_id: userId, inserted_at: at, updated_at: at })))
        } on conflict do nothing`
    })

    const orNone = <A, R>(ids: ReadonlyArray<unknown>, run: Effect.Effect<ReadonlyArray<A>, unknown, R>) =>
      ids.length === 0 ? none<A>() : run.pipe(Effect.orDie)

    return {
      responsesOf: (ids: ReadonlyArray<string>) => orNone(ids, responsesOf(ids)),
      responsesOfUser: (ids: ReadonlyArray<string>, userId: UserId) => orNone(ids, responsesOfUser({ ids, userId })),
      response: (id: ResponseId) => response(id).pipe(Effect.orDie),
      upsertResponses: (rows: ReadonlyArray<ResponseRow>) => orNone(rows, upsertResponses(rows)),
      insertResponse: (row: ResponseRow) => insertResponse(row).pipe(Effect.orDie),
      replaceResponse: (row: ResponseRow) => replaceResponse(row).pipe(Effect.orDie),
      deleteResponse: (id: ResponseId) => deleteResponse(id).pipe(Effect.orDie),
      suggestionsOf: (ids: ReadonlyArray<string>) => orNone(ids, suggestionsOf(ids)),
      suggestion: (id: SuggestionId) => suggestion(id).pipe(Effect.orDie),
      upsertSuggestions: (rows: ReadonlyArray<SuggestionRow>) => orNone(rows, upsertSuggestions(rows)),
      deleteSuggestions: (recordId: RecordId, ids: ReadonlyArray<string> | null) =>
        deleteSuggestions({ recordId, ids }).pipe(Effect.orDie),
      vectorsOf: (ids: ReadonlyArray<string>) => orNone(ids, vectorsOf(ids)),
      /** The records' vectors keyed by settings id (search documents), where `vectorsOf` names them. */
      vectorsBySettingsOf: (ids: ReadonlyArray<string>) => orNone(ids, vectorsBySettingsOf(ids)),
      vectorOf: (recordId: RecordId, settingsId: string) =>
        vectorOf({ recordId, settingsId }).pipe(Effect.orDie),
      /** The distinct agents of the suggestions in a dataset, by question. */
      agents: (datasetId: DatasetId) => agents(datasetId).pipe(Effect.orDie),
      upsertVectors: (rows: ReadonlyArray<VectorRow>) => rows.length === 0 ? Effect.void : upsertVectors(rows).pipe(Effect.orDie),
      touchDatasetUsers: (datasetId: DatasetId, userIds: ReadonlyArray<UserId>, at: Date) =>
        userIds.length === 0
          ? Effect.void
          : touchDatasetUsers({ datasetId, userIds, at: at.toISOString() }).pipe(Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
