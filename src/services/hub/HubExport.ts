/**
 * `POST /datasets/{id}/export`, a job as in Argilla: the dataset pushed to a Hub dataset repo by a job, in the layout
 * of the SDK's `Dataset.to_hub` (`src/transfer/hubPush.ts`, the same push as the client's `datasets.toHub`). The
 * request checks what it can (404, 403, 422 for a dataset without records) and enqueues with the token sealed; the
 * job pages the records (responses, suggestions, vectors, and each question's final answer as `<question>.final`) into
 * Parquet, reporting its progress after each page, and commits. Running it again (a retry) pushes the same files again.
 */
import { Chunk, Effect, Option, Schema, Stream } from "effect"
import { GlossConfig } from "../../Config.js"
import { Unprocessable } from "../../domain/Errors.js"
import { DatasetHubExport } from "../../domain/HubTransfer.js"
import { DatasetId, UserId } from "../../domain/Ids.js"
import type { Job, JobProgress } from "../../domain/Job.js"
import type { User } from "../../domain/User.js"
import { groupByRecord } from "../../transfer/finalAnswers.js"
import { makeHubApi } from "../../transfer/hubApi.js"
import { DEFAULT_SUBSET, pushDataset } from "../../transfer/hubPush.js"
import { Datasets } from "../datasets/Datasets.js"
import { CurrentJob, jobHandler, UnrecoverableJobError } from "../jobs/JobHandlers.js"
import { JobQueue } from "../jobs/JobQueue.js"
import { JobSecrets } from "../jobs/JobSecrets.js"
import { yieldToEventLoop } from "../eventLoop.js"
import { Records } from "../records/Records.js"
import { FinalAnswersRepo } from "../review/FinalAnswersRepo.js"
import { failTransfer, jobSupportDependencies, makeJobSupport } from "./jobSupport.js"

export const HubExportJob = "datasets.export_to_hub"

/** Records read per page: one Parquet append each. */
const PAGE = 1000

/** The request without its token, which travels sealed. */
const ExportPayload = Schema.Struct({
  datasetId: DatasetId,
  userId: UserId,
  name: Schema.String,
  subset: Schema.String,
  split: Schema.String,
  private: Schema.Boolean,
  sealedToken: Schema.String
})
type ExportPayload = typeof ExportPayload.Type

export class HubExport extends Effect.Service<HubExport>()("Gloss/HubExport", {
  effect: Effect.gen(function*() {
    const datasets = yield* Datasets
    const records = yield* Records
    const finalAnswers = yield* FinalAnswersRepo
    const queue = yield* JobQueue
    const { datasetWithSettings, jobActor } = yield* makeJobSupport
    const secrets = yield* JobSecrets
    const { hub: hubConfig } = yield* GlossConfig

    /** The dataset once the caller may export it, with how many records it has (404, 403, then 422 for none). */
    const prepare = (actor: User, datasetId: DatasetId) =>
      Effect.gen(function*() {
        yield* datasets.access(actor, datasetId, "datasets.manage")
        const { total } = yield* records.list(actor, datasetId, { offset: 0, limit: 1 })
        if (total === 0) return yield* new Unprocessable({ detail: `Dataset with id '${datasetId}' has no records to export` })
        return total
      })

    const start = Effect.fn("HubExport.start")(function*(actor: User, datasetId: DatasetId, request: DatasetHubExport) {
      yield* prepare(actor, datasetId)
      const payload: ExportPayload = {
        datasetId,
        userId: actor.id,
        name: request.name,
        subset: request.subset ?? DEFAULT_SUBSET,
        split: request.split ?? "train",
        private: request.private ?? false,
        sealedToken: secrets.seal(request.token)
      }
      const id = yield* queue.enqueue("default", HubExportJob, payload, { startedBy: actor.id })
      const job: Job = { id, status: "queued", progress: { done: 0, total: null, failed: 0, errors: [] } }
      return job
    })

    const run = Effect.fn("HubExport.run")(function*(payload: ExportPayload) {
      const job = yield* CurrentJob
      const unrecoverable = (message: string) => new UnrecoverableJobError({ message })
      const actor = yield* jobActor(payload.userId)
      const token = yield* Effect.mapError(secrets.open(payload.sealedToken), (error) => unrecoverable(error.message))
      const total = yield* prepare(actor, payload.datasetId).pipe(
        Effect.mapError((error) => unrecoverable(`it can no longer run: ${error.detail}`))
      )
      const dataset = yield* datasetWithSettings(payload.datasetId).pipe(
        Effect.mapError((error) => unrecoverable(`it can no longer run: ${error.detail}`))
      )
      let progress: JobProgress = { done: 0, total, failed: 0, errors: [] }
      yield* job.report(progress)
      // By keyset: an offset page reads every record before it (minutes over a million records on PostgreSQL).
      const stream = Stream.paginateChunkEffect(undefined as number | undefined, (after) =>
        records.listAfter(actor, payload.datasetId, { after, limit: PAGE, include: ["responses,suggestions,vectors"] }).pipe(
          Effect.zipLeft(yieldToEventLoop),
          Effect.map(({ items, next }) => [Chunk.unsafeFromArray(items), Option.fromNullable(next)] as const),
          Effect.mapError((error) => unrecoverable(`reading its records failed: ${error.detail}`))
        )
      )
      const hub = makeHubApi(payload.name, { endpoint: hubConfig.endpoint, token })
      const count = yield* pushDataset({
        hub,
        repoId: payload.name,
        dataset,
        records: { total, stream },
        finalAnswers: (page) => Effect.map(finalAnswers.ofRecords(page.map((record) => record.id)), groupByRecord),
        private: payload.private,
        split: payload.split,
        subset: payload.subset,
        message: `Upload dataset ${dataset.name} from Gloss`,
        onProgress: ({ done, phase, total }) => {
          if (phase !== "records") return Effect.void
          progress = { ...progress, done, total }
          return job.report(progress)
        }
      }).pipe(
        // Read when the failure comes: the progress reported then keeps what was done before it.
        Effect.catchTags({
          HubUnauthorized: (failure) => failTransfer(progress, payload.name)(failure),
          HubRepoNotFound: (failure) => failTransfer(progress, payload.name)(failure),
          HubRequestFailed: (failure) => failTransfer(progress, payload.name)(failure),
          TransferFileError: (failure) => failTransfer(progress, payload.name)(failure)
        })
      )
      yield* Effect.logInfo(`Exported ${count} records of dataset ${dataset.name} to ${hub.endpoint}/datasets/${payload.name}`)
    })

    return { start, run } as const
  }),
  dependencies: [...jobSupportDependencies, Records.Default, FinalAnswersRepo.Default, JobQueue.Default, JobSecrets.Default]
}) {}

export const exportToHub = jobHandler(
  HubExportJob,
  ExportPayload,
  (payload) => Effect.flatMap(HubExport, (service) => service.run(payload))
)
