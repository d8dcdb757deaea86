/**
 * What the Hub export and import jobs share: the user who started the job (its rights are checked again when it
 * runs), the dataset in the transfer formats' shape, and how a failure ends the job — said in its progress
 * (`GET /jobs/{id}` shows `errors`), retried only when another attempt could succeed.
 */
import { Effect } from "effect"
import type { DatasetId, UserId } from "../../domain/Ids.js"
import type { JobProgress } from "../../domain/Job.js"
import type { Dataset } from "../../transfer/dataset.js"
import type { HubRepoNotFound, HubRequestFailed, HubUnauthorized, TransferFileError } from "../../transfer/errors.js"
import { Datasets } from "../datasets/Datasets.js"
import { Fields } from "../datasets/Fields.js"
import { MetadataProperties } from "../datasets/MetadataProperties.js"
import { Questions } from "../datasets/Questions.js"
import { VectorSettings } from "../datasets/VectorSettings.js"
import { CurrentJob, UnrecoverableJobError } from "../jobs/JobHandlers.js"
import { toUser } from "../users/Users.js"
import { UsersRepo } from "../users/UsersRepo.js"

export type TransferFailure = HubUnauthorized | HubRepoNotFound | HubRequestFailed | TransferFileError

/** The layers `makeJobSupport` reads: spread into the dependencies of a service that builds it. */
export const jobSupportDependencies = [
  UsersRepo.Default,
  Datasets.Default,
  Fields.Default,
  Questions.Default,
  MetadataProperties.Default,
  VectorSettings.Default
] as const

/** Built in a service's constructor, so that the service declares what these read. */
export const makeJobSupport = Effect.gen(function*() {
  const [users, datasets, fields, questions, metadata, vectors] = yield* Effect.all([
    UsersRepo,
    Datasets,
    Fields,
    Questions,
    MetadataProperties,
    VectorSettings
  ])

  /** The user who started the job, as an actor; gone since: nothing to retry. */
  const jobActor = (userId: UserId) =>
    Effect.flatMap(users.findById(userId), (row) =>
      row._tag === "Some"
        ? Effect.succeed(toUser(row.value))
        : Effect.fail(new UnrecoverableJobError({ message: `the user ${userId} who started it no longer exists` })))

  /** The dataset with its fields, questions, every metadata property (hidden ones too) and vector settings. */
  const datasetWithSettings = (datasetId: DatasetId) =>
    Effect.gen(function*() {
      const dataset = yield* datasets.find(datasetId)
      const settings = yield* Effect.all({
        fields: fields.listByDataset(datasetId),
        questions: questions.listByDataset(datasetId),
        metadata: metadata.listByDataset(datasetId),
        vectors: vectors.listByDataset(datasetId)
      })
      const full: Dataset = { ...dataset, settings }
      return full
    })

  return { jobActor, datasetWithSettings } as const
})

/**
 * Ends the job on a transfer failure: the reason goes into the job's progress first. A refused token, a missing
 * repo or file, a file that cannot be read and any 4xx of the Hub fail at once; anything else (5xx, a network
 * failure) is retried by the queue.
 */
export const failTransfer = (progress: JobProgress, repoId: string) => (failure: TransferFailure) =>
  Effect.gen(function*() {
    const job = yield* CurrentJob
    yield* job.report({ ...progress, failed: progress.failed + 1, errors: [...progress.errors, { id: repoId, detail: failure.message }].slice(-20) })
    const retry = failure._tag === "HubRequestFailed" && (failure.status === undefined || failure.status >= 500)
    return yield* retry ? Effect.fail(failure) : Effect.fail(new UnrecoverableJobError({ message: failure.message, cause: failure }))
  })
