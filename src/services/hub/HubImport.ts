/**
 * `POST /datasets/{id}/import`, a job as in Argilla: the rows of a Hub dataset's subset and split become records of
 * this published dataset, by the request's mapping (`src/transfer/hubMapping.ts`), in a job. The request checks
 * what it can (404, 403; 422 for a draft dataset or a mapping to a field, property or question it does not have)
 * and enqueues. The job downloads the split's Parquet files (`HF_TOKEN` of the server for private datasets), then
 * upserts their rows in batches of 500, a row group at a time, reporting its progress after each batch. A batch the
 * server refuses is retried row by row: the rows that still fail are counted in `failed` (the first 20 with their
 * reason in `errors`) and the rest are imported, as Argilla skips the rows it cannot import.
 *
 * Without an `external_id` column the rows are created as new records, so such a job is not retried (a second
 * attempt would import the rows it had already imported again); with one, rows are upserted and a retry is safe.
 */
import { join } from "node:path"
import { Array as Arr, Effect, Option, Redacted, Schema } from "effect"
import { GlossConfig } from "../../Config.js"
import { Unprocessable } from "../../domain/Errors.js"
import { DatasetHubImport, hubMapping } from "../../domain/HubTransfer.js"
import { DatasetId, UserId } from "../../domain/Ids.js"
import type { Job, JobProgress } from "../../domain/Job.js"
import { MAX_RECORDS_PER_BULK, type RecordUpsert } from "../../domain/Record.js"
import type { User } from "../../domain/User.js"
import { HubRepoNotFound } from "../../transfer/errors.js"
import { makeHubApi } from "../../transfer/hubApi.js"
import { mappedRecord, splitParquetFiles, unknownTargets } from "../../transfer/hubMapping.js"
import { openParquetFile } from "../../transfer/hubParquet.js"
import { tempDir } from "../../transfer/hubPush.js"
import { Datasets } from "../datasets/Datasets.js"
import { CurrentJob, jobHandler, UnrecoverableJobError } from "../jobs/JobHandlers.js"
import { JobQueue } from "../jobs/JobQueue.js"
import { yieldToEventLoop } from "../eventLoop.js"
import { Ingest } from "../records/ingest/Ingest.js"
import { failTransfer, jobSupportDependencies, makeJobSupport, type TransferFailure } from "./jobSupport.js"

export const HubImportJob = "datasets.import_from_hub"

/** How many failures the job's progress lists; the rest are counted in `failed` and logged. */
const MAX_ERRORS = 20

/** Stored as a JSON string: the request's encoded form (optional lists left out) is JSON, but not typed as such. */
const ImportPayload = Schema.parseJson(Schema.Struct({ datasetId: DatasetId, userId: UserId, request: DatasetHubImport }))
type ImportPayload = typeof ImportPayload.Type

export class HubImport extends Effect.Service<HubImport>()("Gloss/HubImport", {
  effect: Effect.gen(function*() {
    const datasets = yield* Datasets
    const ingest = yield* Ingest
    const queue = yield* JobQueue
    const { datasetWithSettings, jobActor } = yield* makeJobSupport
    const { hub: hubConfig } = yield* GlossConfig

    /** The dataset with its settings once the caller may import into it with `request` (404, 403, 422). */
    const prepare = (actor: User, datasetId: DatasetId, request: DatasetHubImport) =>
      Effect.gen(function*() {
        const found = yield* datasets.access(actor, datasetId, "datasets.manage")
        if (found.status !== "ready") {
          return yield* new Unprocessable({ detail: "records cannot be created or updated for a non published dataset" })
        }
        const dataset = yield* datasetWithSettings(datasetId)
        const unknown = unknownTargets(dataset.settings, hubMapping(request.mapping))
        if (unknown.length > 0) return yield* new Unprocessable({ detail: `mapping: ${unknown.join("; ")}` })
        return dataset
      })

    const start = Effect.fn("HubImport.start")(function*(actor: User, datasetId: DatasetId, request: DatasetHubImport) {
      yield* prepare(actor, datasetId, request)
      const payload = yield* Schema.encode(ImportPayload)({ datasetId, userId: actor.id, request }).pipe(Effect.orDie)
      const attempts = hubMapping(request.mapping).external_id === null ? 1 : 4
      const id = yield* queue.enqueue("default", HubImportJob, payload, { startedBy: actor.id, attempts })
      const job: Job = { id, status: "queued", progress: { done: 0, total: null, failed: 0, errors: [] } }
      return job
    })

    const run = Effect.fn("HubImport.run")(function*({ datasetId, request, userId }: ImportPayload) {
      const job = yield* CurrentJob
      const actor = yield* jobActor(userId)
      const dataset = yield* prepare(actor, datasetId, request).pipe(
        Effect.mapError((error) => new UnrecoverableJobError({ message: `it can no longer run: ${error.detail}` }))
      )
      let progress: JobProgress = { done: 0, total: null, failed: 0, errors: [] }
      const hub = makeHubApi(request.name, {
        endpoint: hubConfig.endpoint,
        token: Option.getOrUndefined(Option.map(hubConfig.token, Redacted.value))
      })
      // Read when the failure comes: the progress reported then keeps what was done before it.
      const failed = (failure: TransferFailure) => failTransfer(progress, request.name)(failure)
      yield* Effect.scoped(Effect.gen(function*() {
        const listed = yield* hub.listFiles()
        const { files: paths, splits } = splitParquetFiles(listed.map((file) => file.path), request.subset, request.split)
        if (paths.length === 0) {
          return yield* new HubRepoNotFound({
            repoId: request.name,
            detail: `no Parquet files of subset '${request.subset}' and split '${request.split}' (splits found: ${
              splits.join(", ") || "none"
            })`
          })
        }
        // Every file is on disk before the first record is written: a failed download imports nothing.
        const dir = yield* tempDir("gloss-hub-import-")
        const files = []
        for (const [index, path] of paths.entries()) {
          const localPath = join(dir, `${index}.parquet`)
          yield* hub.download(path, localPath)
          files.push(yield* openParquetFile(localPath))
        }
        progress = { ...progress, total: files.reduce((sum, file) => sum + file.rows, 0) }
        yield* job.report(progress)
        for (const file of files) {
          const context = { settings: dataset.settings, mapping: hubMapping(request.mapping), features: file.features, agent: request.name }
          for (const group of file.rowGroups) {
            const rows = yield* group
            for (const batch of Arr.chunksOf(rows.map((row) => mappedRecord(row, context)), MAX_RECORDS_PER_BULK)) {
              const refused = yield* upsertOrCount(actor, datasetId, batch, progress.done)
              for (const failure of refused) yield* Effect.logWarning(`Hub import: ${failure.id} refused: ${failure.detail}`)
              progress = {
                done: progress.done + batch.length,
                total: progress.total,
                failed: progress.failed + refused.length,
                errors: [...progress.errors, ...refused].slice(0, MAX_ERRORS)
              }
              yield* job.report(progress)
              yield* yieldToEventLoop
            }
          }
        }
      })).pipe(
        Effect.catchTags({
          HubUnauthorized: (error) => failed(error),
          HubRepoNotFound: (error) => failed(error),
          HubRequestFailed: (error) => failed(error),
          TransferFileError: (error) => failed(error)
        })
      )
      yield* Effect.logInfo(
        `Imported ${progress.done - progress.failed} of ${progress.done} rows of ${request.name} (${request.subset}/${request.split}) into dataset ${dataset.name}`
      )
    })

    /** One bulk upsert; when refused, row by row: what still fails, by external id or row number. */
    const upsertOrCount = (actor: User, datasetId: DatasetId, batch: ReadonlyArray<RecordUpsert>, before: number) =>
      ingest.upsert(actor, datasetId, batch).pipe(
        Effect.as([] as ReadonlyArray<{ id: string; detail: string }>),
        Effect.catchAll(() =>
          Effect.forEach(batch, (item, index) =>
            ingest.upsert(actor, datasetId, [item]).pipe(
              Effect.as(Option.none()),
              Effect.catchAll((error) =>
                Effect.succeed(Option.some({
                  id: item.external_id ?? `row ${before + index + 1}`,
                  detail: "detail" in error ? String(error.detail) : String(error)
                }))
              )
            )).pipe(Effect.map(Arr.getSomes))
        )
      )

    return { start, run } as const
  }),
  dependencies: [...jobSupportDependencies, Ingest.Default, JobQueue.Default]
}) {}

export const importFromHub = jobHandler(
  HubImportJob,
  ImportPayload,
  (payload) => Effect.flatMap(HubImport, (service) => service.run(payload))
)
