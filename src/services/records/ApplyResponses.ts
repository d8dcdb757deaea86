/**
 * `POST /me/datasets/{id}/responses/apply` (a Gloss addition): the caller's answer applied to every record a search
 * matches, as a job. The request checks what it can at once (404, 403, 422) and enqueues; the job takes a snapshot
 * of the matching ids, then writes the responses in batches through `Responses.answerMany`, reporting its progress
 * after each one. Running it again (a retry) writes the same upserts again.
 */
import { Array as Arr, Effect, Either, Schema } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import { DatasetId, type RecordId, UserId } from "../../domain/Ids.js"
import type { Job, JobProgress } from "../../domain/Job.js"
import { ResponsesApply } from "../../domain/ResponsesApply.js"
import type { User } from "../../domain/User.js"
import { Datasets } from "../datasets/Datasets.js"
import { DatasetSchemas } from "../datasets/DatasetSchemas.js"
import { yieldToEventLoop } from "../eventLoop.js"
import { CurrentJob, jobHandler, UnrecoverableJobError } from "../jobs/JobHandlers.js"
import { JobQueue } from "../jobs/JobQueue.js"
import { Policy } from "../Policy.js"
import { toUser } from "../users/Users.js"
import { UsersRepo } from "../users/UsersRepo.js"
import { Responses } from "./Responses.js"
import { Search } from "./Search.js"
import { validateResponseValues } from "./validation/responses.js"

export const ApplyResponsesJob = "responses.apply"

/** Records per transaction: big enough that commits and index updates are few, small enough to keep locks short. */
export const APPLY_BATCH = 500

/** With a vector query, the matches are the most (least) similar records, as many as one search page can hold. */
export const VECTOR_MATCHES = 1000

/** How many failures the job's progress lists (`JobProgress.errors`); the rest are counted in `failed` and logged. */
const MAX_ERRORS = 20

/** Stored as a JSON string: the search body's encoded form is JSON, but not typed as such. */
const ApplyPayload = Schema.parseJson(Schema.Struct({ datasetId: DatasetId, userId: UserId, apply: ResponsesApply }))
type ApplyPayload = typeof ApplyPayload.Type

const invalid = (detail: string) => new Unprocessable({ detail })

export class ApplyResponses extends Effect.Service<ApplyResponses>()("Gloss/ApplyResponses", {
  effect: Effect.gen(function*() {
    const datasets = yield* Datasets
    const schemas = yield* DatasetSchemas
    const policy = yield* Policy
    const search = yield* Search
    const responses = yield* Responses
    const queue = yield* JobQueue
    const users = yield* UsersRepo

    /** The dataset and how to read the matching ids, once the caller may answer there with `apply` (404, 403, 422). */
    const prepare = (actor: User, datasetId: DatasetId, apply: ResponsesApply) =>
      Effect.gen(function*() {
        const dataset = yield* datasets.access(actor, datasetId, "records.searchOwn")
        yield* policy.require(actor, "responses.create", dataset.workspace_id)
        if (dataset.status !== "ready") return yield* invalid("responses cannot be applied in a non published dataset")
        const { context } = yield* schemas.load(dataset)
        const spans = context.questions.filter((q) => q.settings.type === "span" && Object.hasOwn(apply.values ?? {}, q.name))
        if (spans.length > 0) {
          return yield* invalid(
            `span questions cannot be applied to many records (their offsets belong to one record's text): ${
              spans.map((q) => `'${q.name}'`).join(", ")
            }`
          )
        }
        // No span is answered, so no answer depends on a record's fields: one check holds for every record.
        yield* Either.mapLeft(validateResponseValues(context, apply.status, apply.values ?? null, {}), invalid)
        const { read } = yield* search.matchingIdsOf(actor, datasetId, apply.search, VECTOR_MATCHES).pipe(
          Effect.catchTag("MissingVector", (error) => Effect.fail(invalid(error.message)))
        )
        return { dataset, read }
      })

    const start = Effect.fn("ApplyResponses.start")(function*(actor: User, datasetId: DatasetId, apply: ResponsesApply) {
      yield* prepare(actor, datasetId, apply)
      const payload = yield* Schema.encode(ApplyPayload)({ datasetId, userId: actor.id, apply }).pipe(Effect.orDie)
      // One attempt fewer than the default: a retry redoes the whole snapshot, so keep the worst case short.
      const id = yield* queue.enqueue("default", ApplyResponsesJob, payload, { startedBy: actor.id, attempts: 3 })
      const job: Job = { id, status: "queued", progress: { done: 0, total: null, failed: 0, errors: [] } }
      return job
    })

    const run = Effect.fn("ApplyResponses.run")(function*({ apply, datasetId, userId }: ApplyPayload) {
      const job = yield* CurrentJob
      const unrecoverable = (message: string) => new UnrecoverableJobError({ message })
      const row = yield* users.findById(userId)
      if (row._tag === "None") return yield* unrecoverable(`the user ${userId} who started it no longer exists`)
      const actor = toUser(row.value)
      // The user's rights or the dataset may have changed since the request: then there is nothing to retry.
      const { dataset, read } = yield* prepare(actor, datasetId, apply).pipe(
        Effect.mapError((error) => unrecoverable(`it can no longer run: ${error.detail}`))
      )
      const excluded = new Set<string>(apply.exclude ?? [])
      const ids: ReadonlyArray<RecordId> = (yield* read).filter((id) => !excluded.has(id))
      let progress: JobProgress = { done: 0, total: ids.length, failed: 0, errors: [] }
      yield* job.report(progress)
      const body = { status: apply.status, values: apply.values }
      for (const batch of Arr.chunksOf(ids, APPLY_BATCH)) {
        const { failures } = yield* responses.answerMany(actor, dataset, batch, body)
        for (const failure of failures) {
          yield* Effect.logWarning(`Applying a response to record ${failure.id} failed: ${failure.detail}`)
        }
        progress = {
          done: progress.done + batch.length,
          total: ids.length,
          failed: progress.failed + failures.length,
          errors: [...progress.errors, ...failures].slice(0, MAX_ERRORS)
        }
        yield* job.report(progress)
        yield* yieldToEventLoop
      }
    })

    return { start, run } as const
  }),
  dependencies: [
    Datasets.Default,
    DatasetSchemas.Default,
    Policy.Default,
    Search.Default,
    Responses.Default,
    JobQueue.Default,
    UsersRepo.Default
  ]
}) {}

export const applyResponses = jobHandler(
  ApplyResponsesJob,
  ApplyPayload,
  (payload) => Effect.flatMap(ApplyResponses, (service) => service.run(payload))
)
