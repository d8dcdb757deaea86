/**
 * `POST /api/gloss/datasets/{id}/exports` and `GET /api/gloss/exports/{id}/file` (a Gloss extension): a job writes
 * the dataset's records (all, or those a search matches for the caller) with their final answers into a file in one
 * of the formats of `domain/Export.ts` (`src/transfer/exportWriter.ts`), on a temporary local file, then stores it
 * in the database in chunks (`ExportFilesRepo`), so that any server can serve what any worker wrote. The download
 * streams the chunks one by one. A file lives `EXPORT_LIFETIME_HOURS`; each new export deletes the expired ones.
 */
import { open } from "node:fs/promises"
import { Chunk, Duration, Effect, Either, Option, Schema, Stream } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import {
  EXPORT_LIFETIME_HOURS,
  ExportExpired,
  ExportFormat,
  exportFileTypes,
  type ExportRequest,
  isTrainingFormat
} from "../../domain/Export.js"
import { NotFound } from "../../domain/Errors.js"
import { DatasetId, type RecordId, UserId } from "../../domain/Ids.js"
import type { Job, JobProgress } from "../../domain/Job.js"
import type { DatasetRecord } from "../../domain/Record.js"
import { SearchRecordsQuery } from "../../domain/Search.js"
import type { User } from "../../domain/User.js"
import type { Dataset } from "../../transfer/dataset.js"
import { tempDir } from "../../transfer/hubPush.js"
import { type ExportPage, writeExport } from "../../transfer/exportWriter.js"
import { finalAnswerUserIds, type FinalAnswersOf, groupByRecord } from "../../transfer/finalAnswers.js"
import { skippedReason, type TrainingPlan, trainingPlan } from "../../transfer/training.js"
import { now } from "../clock.js"
import { Datasets } from "../datasets/Datasets.js"
import { Viewers } from "../datasets/viewer.js"
import { yieldToEventLoop } from "../eventLoop.js"
import { jobSupportDependencies, makeJobSupport } from "../hub/jobSupport.js"
import { CurrentJob, jobHandler, UnrecoverableJobError } from "../jobs/JobHandlers.js"
import { JobQueue } from "../jobs/JobQueue.js"
import { VECTOR_MATCHES } from "../records/ApplyResponses.js"
import { INCLUDE_EVERYTHING } from "../records/include.js"
import { Records } from "../records/Records.js"
import { RecordsRepo } from "../records/RecordsRepo.js"
import { Search } from "../records/Search.js"
import { FinalAnswersRepo } from "../review/FinalAnswersRepo.js"
import { RecordViews } from "../records/views.js"
import { UsersRepo } from "../users/UsersRepo.js"
import { ExportFilesRepo } from "./ExportFilesRepo.js"

export const ExportJob = "datasets.export_to_file"

/** Records read per page. */
const PAGE = 1000
/** Bytes per stored chunk: one row each, read back one at a time by a download. */
export const CHUNK_BYTES = 1024 * 1024
/** How long after it expired an export is still known (a download is told 410, not 404). */
const FORGET_AFTER = Duration.days(7)

/** Stored as a JSON string: the search body's encoded form is JSON, but not typed as such. */
const ExportPayload = Schema.parseJson(Schema.Struct({
  datasetId: DatasetId,
  userId: UserId,
  format: ExportFormat,
  query: Schema.NullOr(SearchRecordsQuery),
  /** A training format's question (absent from the payloads of jobs queued before training formats existed). */
  question: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
}))
type ExportPayload = typeof ExportPayload.Type

const isoDate = (date: Date) => date.toISOString().slice(0, 10)
/** A name safe in a `content-disposition` header and on any file system. */
const safeName = (name: string) => name.replace(/[^\w.-]+/g, "_")

export class Exports extends Effect.Service<Exports>()("Gloss/Exports", {
  effect: Effect.gen(function*() {
    const datasets = yield* Datasets
    const records = yield* Records
    const recordsRepo = yield* RecordsRepo
    const views = yield* RecordViews
    const viewers = yield* Viewers
    const search = yield* Search
    const users = yield* UsersRepo
    const files = yield* ExportFilesRepo
    const finalAnswers = yield* FinalAnswersRepo
    const queue = yield* JobQueue
    const { datasetWithSettings, jobActor } = yield* makeJobSupport

    /**
     * The dataset once the caller may export it (whoever may list every record: 404, then 403), and, with a query,
     * how to read the ids it matches (checked as the search checks it: 422).
     */
    const prepare = (actor: User, datasetId: DatasetId, query: ExportRequest["query"]) =>
      Effect.gen(function*() {
        const dataset = yield* datasets.access(actor, datasetId, "records.list")
        if (query == null) return { dataset, matching: Option.none<Effect.Effect<ReadonlyArray<RecordId>>>() }
        const { read } = yield* search.matchingIdsOf(actor, datasetId, query, VECTOR_MATCHES).pipe(
          Effect.catchTag("MissingVector", (error) => Effect.fail(new Unprocessable({ detail: error.message })))
        )
        return { dataset, matching: Option.some(read) }
      })

    /** A training format's plan, checked against the dataset's questions (422 when the question does not fit). */
    const planOf = (
      format: ExportFormat,
      dataset: Dataset,
      question: string | null | undefined
    ): Effect.Effect<TrainingPlan | undefined, Unprocessable> =>
      isTrainingFormat(format)
        ? Either.match(trainingPlan(format, dataset.settings, question), {
          onLeft: (detail) => Effect.fail(new Unprocessable({ detail })),
          onRight: (plan) => Effect.succeed<TrainingPlan | undefined>(plan)
        })
        : Effect.succeed<TrainingPlan | undefined>(undefined)

    const start = Effect.fn("Exports.start")(function*(actor: User, datasetId: DatasetId, request: ExportRequest) {
      yield* prepare(actor, datasetId, request.query)
      if (isTrainingFormat(request.format)) {
        const dataset = yield* datasetWithSettings(datasetId).pipe(Effect.orDie)
        yield* planOf(request.format, dataset, request.question)
      }
      const at = yield* now
      yield* files.expire(at, new Date(at.getTime() - Duration.toMillis(FORGET_AFTER)))
      const payload = yield* Schema.encode(ExportPayload)({
        datasetId,
        userId: actor.id,
        format: request.format,
        query: request.query ?? null,
        question: request.question ?? null
      }).pipe(Effect.orDie)
      const id = yield* queue.enqueue("default", ExportJob, payload, { startedBy: actor.id, attempts: 3 })
      const job: Job = { id, status: "queued", progress: { done: 0, total: null, failed: 0, errors: [] } }
      return job
    })

    /** The final answers of a page of records, by record id. */
    const finalAnswersOf = (page: ReadonlyArray<DatasetRecord>) =>
      Effect.map(finalAnswers.ofRecords(page.map((record) => record.id)), groupByRecord)

    /** The usernames of the users who answered `page` or settled its final answers, looked up once per job. */
    const usernamesOf = (known: Map<string, string>) => (page: ReadonlyArray<DatasetRecord>, finals: FinalAnswersOf) =>
      Effect.gen(function*() {
        const missing = new Set(
          [...page.flatMap((record) => (record.responses ?? []).map((r) => r.user_id)), ...finalAnswerUserIds(finals)]
            .filter((id) => !known.has(id))
        )
        for (const id of missing) {
          const user = yield* users.findById(id)
          if (Option.isSome(user)) known.set(id, user.value.username)
        }
        return known
      })

    const run = Effect.fn("Exports.run")(function*(payload: ExportPayload) {
      const job = yield* CurrentJob
      const unrecoverable = (message: string) => new UnrecoverableJobError({ message })
      const actor = yield* jobActor(payload.userId)
      const { dataset: row, matching } = yield* prepare(actor, payload.datasetId, payload.query).pipe(
        Effect.mapError((error) => unrecoverable(`it can no longer run: ${error.detail}`))
      )
      const dataset = yield* datasetWithSettings(payload.datasetId).pipe(
        Effect.mapError((error) => unrecoverable(`it can no longer run: ${error.detail}`))
      )
      const plan = yield* planOf(payload.format, dataset, payload.question).pipe(
        Effect.mapError((error) => unrecoverable(`it can no longer run: ${error.detail}`))
      )
      const viewer = yield* viewers.of(actor, row)
      const type = exportFileTypes[payload.format]
      const at = yield* now
      // A retry starts again from an empty file.
      yield* files.clearFile(job.id)
      const existing = yield* files.find(job.id)
      if (Option.isNone(existing)) {
        yield* files.insert({
          job_id: job.id,
          dataset_id: payload.datasetId,
          user_id: payload.userId,
          format: payload.format,
          file_name: `${safeName(dataset.name)}-${isoDate(at)}.${type.extension}`,
          content_type: type.contentType,
          size: null,
          inserted_at: at,
          finished_at: null,
          expires_at: new Date(at.getTime() + Duration.toMillis(Duration.hours(EXPORT_LIFETIME_HOURS)))
        })
      }
      const usernames = usernamesOf(new Map())
      const page = (items: ReadonlyArray<DatasetRecord>) =>
        Effect.flatMap(finalAnswersOf(items), (finals) =>
          Effect.map(usernames(items, finals), (known): ExportPage => ({ records: items, usernames: known, finalAnswers: finals })))
      const readFailed = (error: { readonly detail: string }) => unrecoverable(`reading its records failed: ${error.detail}`)
      // Every record by keyset, or the matching ids a page at a time, in the order the search gave them.
      const allPages = Stream.paginateChunkEffect(undefined as number | undefined, (after) =>
        records.listAfter(actor, payload.datasetId, { after, limit: PAGE, include: ["responses,suggestions,vectors"] }).pipe(
          Effect.zipLeft(yieldToEventLoop),
          Effect.flatMap(({ items, next }) => Effect.map(page(items), (p) => [Chunk.of(p), Option.fromNullable(next)] as const))
        ))
      const matchingPages = (ids: ReadonlyArray<RecordId>) =>
        Stream.fromIterable(Chunk.chunksOf(Chunk.unsafeFromArray([...ids]), PAGE)).pipe(
          Stream.mapEffect((batch) =>
            recordsRepo.findByIds(payload.datasetId, Chunk.toReadonlyArray(batch)).pipe(
              Effect.flatMap((rows) => views.show(rows, INCLUDE_EVERYTHING, viewer)),
              Effect.zipLeft(yieldToEventLoop),
              Effect.flatMap(page)
            )
          )
        )
      const ids = Option.isSome(matching) ? Option.some(yield* matching.value) : Option.none<ReadonlyArray<RecordId>>()
      const total = Option.isSome(ids)
        ? ids.value.length
        : (yield* records.list(actor, payload.datasetId, { offset: 0, limit: 1 }).pipe(Effect.mapError(readFailed))).total
      const pages = Option.isSome(ids) ? matchingPages(ids.value) : Stream.mapError(allPages, readFailed)
      let progress: JobProgress = { done: 0, total, failed: 0, errors: [] }
      yield* job.report(progress)
      const size = yield* Effect.scoped(Effect.gen(function*() {
        const dir = yield* tempDir("gloss-export-")
        const path = yield* writeExport({
          format: payload.format,
          dataset,
          dir,
          pages,
          modified: at,
          plan,
          // A training format counts the records it left out as failed, and says why once.
          onPage: (done, skipped) => {
            progress = {
              ...progress,
              done,
              total: Math.max(total, done),
              failed: skipped,
              errors: plan === undefined || skipped === 0
                ? []
                : [{ id: plan.question?.name ?? "final answers", detail: skippedReason(plan, skipped) }]
            }
            return job.report(progress)
          }
        })
        return yield* storeFile(job.id, path)
      })).pipe(
        Effect.catchTags({
          TransferFileError: (failure) => Effect.fail(unrecoverable(failure.message)),
          HubRequestFailed: (failure) => Effect.fail(unrecoverable(failure.message))
        }),
        // Said in the job's progress too, which is what `GET /jobs/{id}` (and the UI) show of a failed job.
        Effect.tapError((failure) =>
          job.report({ ...progress, failed: progress.failed + 1, errors: [{ id: dataset.name, detail: failure.message }] })
        )
      )
      const finished = yield* now
      yield* files.finish(job.id, size, finished, new Date(finished.getTime() + Duration.toMillis(Duration.hours(EXPORT_LIFETIME_HOURS))))
      yield* Effect.logInfo(`Exported ${progress.done} records of dataset ${dataset.name} as ${payload.format} (${size} bytes)`)
    })

    /** Copies the local file into the database a chunk at a time; answers its size. */
    const storeFile = (jobId: string, path: string) =>
      Effect.acquireUseRelease(
        Effect.promise(() => open(path, "r")),
        (handle) =>
          Effect.gen(function*() {
            let size = 0
            for (let sequence = 0;; sequence++) {
              const buffer = Buffer.alloc(CHUNK_BYTES)
              const { bytesRead } = yield* Effect.promise(() => handle.read(buffer, 0, CHUNK_BYTES, size))
              if (bytesRead === 0 && sequence > 0) return size
              yield* files.appendChunk(jobId, sequence, buffer.subarray(0, bytesRead))
              size += bytesRead
              if (bytesRead < CHUNK_BYTES) return size
            }
          }),
        (handle) => Effect.promise(() => handle.close())
      )

    /**
     * The finished file of export `jobId` for its starter or an owner: its name, type, size and bytes as a stream of
     * chunks. 404 for anyone else and until it is finished, 410 once it expired.
     */
    const download = Effect.fn("Exports.download")(function*(actor: User, jobId: string) {
      const notFound = NotFound.byId("Export", jobId)
      const row = yield* Effect.flatMap(files.find(jobId), Option.match({
        onNone: () => Effect.fail(notFound),
        onSome: (found) => found.user_id === actor.id || actor.role === "owner" ? Effect.succeed(found) : Effect.fail(notFound)
      }))
      if (row.finished_at === null || row.size === null) {
        return yield* new NotFound({ detail: `Export with id \`${jobId}\` is not finished yet` })
      }
      if ((yield* now).getTime() >= row.expires_at.getTime()) {
        return yield* new ExportExpired({ detail: `Export with id \`${jobId}\` expired: export the dataset again` })
      }
      const bytes = Stream.paginateChunkEffect(0, (sequence) =>
        Effect.map(files.readChunk(jobId, sequence), (chunk) =>
          Option.match(chunk, {
            onNone: () => [Chunk.empty<Uint8Array>(), Option.none()] as const,
            onSome: ({ bytes }) => [Chunk.of(bytes), Option.some(sequence + 1)] as const
          })))
      return { fileName: row.file_name, contentType: row.content_type, size: row.size, bytes }
    })

    return { start, run, download } as const
  }),
  dependencies: [
    ...jobSupportDependencies,
    Records.Default,
    RecordsRepo.Default,
    RecordViews.Default,
    Viewers.Default,
    Search.Default,
    ExportFilesRepo.Default,
    FinalAnswersRepo.Default,
    JobQueue.Default
  ]
}) {}

export const exportToFile = jobHandler(
  ExportJob,
  ExportPayload,
  (payload) => Effect.flatMap(Exports, (service) => service.run(payload))
)
