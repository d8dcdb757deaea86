import { SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { DatasetId, UserId } from "../../domain/Ids.js"
import { ExportFormat } from "../../domain/Export.js"
import { DbInt, DbTimestamp } from "../../codecs/columns.js"
import { Database } from "../database/Database.js"

export const ExportRow = Schema.Struct({
  job_id: Schema.String,
  dataset_id: DatasetId,
  user_id: UserId,
  format: ExportFormat,
  file_name: Schema.String,
  content_type: Schema.String,
  size: Schema.NullOr(DbInt),
  inserted_at: DbTimestamp,
  /** Null until the whole file is in `export_file_chunks`. */
  finished_at: Schema.NullOr(DbTimestamp),
  expires_at: DbTimestamp
})
export type ExportRow = typeof ExportRow.Type

const ChunkKey = Schema.Struct({ job_id: Schema.String, sequence: Schema.Int })

/** The `exports` rows and their files in `export_file_chunks` (migration 0015_export_files). */
export class ExportFilesRepo extends Effect.Service<ExportFilesRepo>()("Gloss/ExportFilesRepo", {
  effect: Effect.gen(function*() {
    const { sql } = yield* Database

    const insert = SqlSchema.void({ Request: ExportRow, execute: (row) => sql`insert into exports ${sql.insert(row)}` })
    const find = SqlSchema.findOne({
      Request: Schema.String,
      Result: ExportRow,
      execute: (jobId) => sql`select * from exports where job_id = ${jobId}`
    })
    const readChunk = SqlSchema.findOne({
      Request: ChunkKey,
      Result: Schema.Struct({ bytes: Schema.Uint8ArrayFromSelf }),
      execute: ({ job_id, sequence }) =>
        sql`select bytes from export_file_chunks where job_id = ${job_id} and sequence = ${sequence}`
    })

    return {
      insert: (row: ExportRow) => insert(row).pipe(Effect.orDie),
      find: (jobId: string) => find(jobId).pipe(Effect.orDie),
      /** A retried job starts its file again. */
      clearFile: (jobId: string) =>
        sql`delete from export_file_chunks where job_id = ${jobId}`.pipe(Effect.asVoid, Effect.orDie),
      appendChunk: (jobId: string, sequence: number, bytes: Uint8Array) =>
        sql`insert into export_file_chunks (job_id, sequence, bytes) values (${jobId}, ${sequence}, ${bytes})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      finish: (jobId: string, size: number, finishedAt: Date, expiresAt: Date) =>
        sql`update exports set size = ${size}, finished_at = ${finishedAt.toISOString()},
          expires_at = ${expiresAt.toISOString()} where job_id = ${jobId}`.pipe(Effect.asVoid, Effect.orDie),
      readChunk: (jobId: string, sequence: number) =>
        readChunk({ job_id: jobId, sequence }).pipe(Effect.orDie),
      /**
       * Deletes the files of exports that expired before `now`, and the rows of those that expired before `forgetBefore`
       * (until then a download is told the file expired, rather than that there never was one).
       */
      expire: (now: Date, forgetBefore: Date) =>
        Effect.zipRight(
          sql`delete from export_file_chunks where job_id in
            (select job_id from exports where expires_at < ${now.toISOString()})`,
          sql`delete from exports where expires_at < ${forgetBefore.toISOString()}`
        ).pipe(Effect.asVoid, Effect.orDie)
    } as const
  }),
  dependencies: [Database.Default]
}) {}
