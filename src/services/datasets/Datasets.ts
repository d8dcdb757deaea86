import { Effect, Option } from "effect"
import { type DatasetCreate, type DatasetUpdate, NewDataset } from "../../domain/Dataset.js"
import { Conflict, Unprocessable } from "../../domain/Errors.js"
import { DatasetId, type WorkspaceId } from "../../domain/Ids.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { withDefaults } from "../defaults.js"
import { orNotFound } from "../found.js"
import { type Action, Policy } from "../Policy.js"
import { DatasetIndex } from "./DatasetIndex.js"
import { DatasetSchemas } from "./DatasetSchemas.js"
import { Telemetry } from "../Telemetry.js"
import { Events } from "../webhooks/Events.js"
import { DatasetEvents } from "./DatasetEvents.js"
import { WorkspacesRepo } from "../workspaces/WorkspacesRepo.js"
import { DatasetsRepo } from "./DatasetsRepo.js"
import { RecomputeStatuses } from "./recomputeStatusesJob.js"
import type { DatasetRow } from "./rows.js"
import { SettingsRepo } from "./SettingsRepo.js"
import { newId } from "../ids.js"

const nameTaken = (name: string, workspaceId: WorkspaceId) =>
  new Conflict({ detail: `Dataset with name \`${name}\` already exists for workspace with id \`${workspaceId}\`` })

export interface DatasetsFilter {
  readonly workspace_id?: WorkspaceId | undefined
  readonly name?: string | undefined
  readonly status?: DatasetRow["status"] | undefined
}

export class Datasets extends Effect.Service<Datasets>()("Gloss/Datasets", {
  effect: Effect.gen(function*() {
    const repo = yield* DatasetsRepo
    const schemas = yield* DatasetSchemas
    const settings = yield* SettingsRepo
    const workspaces = yield* WorkspacesRepo
    const policy = yield* Policy
    const db = yield* Database
    const index = yield* DatasetIndex
    const events = yield* Events
    const datasetEvents = yield* DatasetEvents
    const telemetry = yield* Telemetry

    const find = (id: DatasetId) => repo.findById(id).pipe(orNotFound("Dataset", id))

    /** The dataset, once the caller is allowed `action` on it (404 before 403, as the contract checks). */
    const access = (actor: User, id: DatasetId, action: Action) =>
      Effect.tap(find(id), (dataset) => policy.require(actor, action, dataset.workspace_id))

    /**
     * `access`, with the dataset's search schema read in the same round trip (DatasetSchemas.withDataset): what a
     * search needs before it can start. A caller the check refuses gets its error, and never the schema.
     */
    const accessWithSchema = (actor: User, id: DatasetId, action: Action) =>
      Effect.flatMap(schemas.withDataset(id), ({ dataset, schema }) =>
        Effect.succeed(dataset).pipe(
          orNotFound("Dataset", id),
          Effect.tap((found) => policy.require(actor, action, found.workspace_id)),
          Effect.map((found) => ({ dataset: found, schema }))
        ))

    const create = Effect.fn("Datasets.create")(function*(actor: User, payload: DatasetCreate) {
      const input = yield* withDefaults(NewDataset)(payload)
      yield* policy.require(actor, "datasets.create", input.workspace_id)
      if (Option.isNone(yield* workspaces.findById(input.workspace_id))) {
        return yield* new Unprocessable({ detail: `Workspace with id \`${input.workspace_id}\` not found` })
      }
      const at = yield* now
      const row: DatasetRow = {
        // An id in the body is ignored, as Argilla's create schema has none: the server always issues a new one.
        id: DatasetId.make(newId()),
        name: input.name,
        guidelines: input.guidelines ?? null,
        allow_extra_metadata: input.allow_extra_metadata,
        status: "draft",
        distribution: input.distribution,
        metadata: input.metadata ?? null,
        workspace_id: input.workspace_id,
        last_activity_at: at,
        inserted_at: at,
        updated_at: at
      }
      const inserted = yield* db.write(Effect.tap(repo.insert(row), (inserted) =>
        Option.isSome(inserted) ? datasetEvents.dataset("dataset.created", inserted.value) : Effect.void))
      if (Option.isSome(inserted)) return inserted.value
      return yield* nameTaken(row.name, row.workspace_id)
    })

    const update = Effect.fn("Datasets.update")(function*(actor: User, id: DatasetId, patch: DatasetUpdate) {
      const current = yield* access(actor, id, "datasets.manage")
      const next: DatasetRow = {
        ...current,
        name: patch.name ?? current.name,
        guidelines: patch.guidelines === undefined ? current.guidelines : patch.guidelines,
        allow_extra_metadata: patch.allow_extra_metadata ?? current.allow_extra_metadata,
        distribution: patch.distribution ?? current.distribution,
        // A dict column is merged key by key, as Argilla's generic update does; null clears it.
        metadata: patch.metadata === undefined
          ? current.metadata
          : patch.metadata === null
          ? null
          : { ...current.metadata, ...patch.metadata },
        updated_at: yield* now
      }
      const saved = yield* db.write(
        Effect.gen(function*() {
          const replaced = yield* repo.replace(next)
          if (Option.isSome(replaced)) yield* datasetEvents.dataset("dataset.updated", replaced.value)
          // A new min_submitted changes which records are complete: a job recomputes them once this commits.
          if (next.distribution.min_submitted !== current.distribution.min_submitted) {
            yield* events.enqueueAfterCommit("default", RecomputeStatuses, { datasetId: id })
          }
          return replaced
        }),
        { onUniqueViolation: () => nameTaken(next.name, next.workspace_id) }
      )
      return yield* Effect.succeed(saved).pipe(orNotFound("Dataset", id))
    })

    const remove = Effect.fn("Datasets.delete")(function*(actor: User, id: DatasetId) {
      const dataset = yield* access(actor, id, "datasets.manage")
      // The payload describes the dataset as it was, so it is built before the rows go.
      yield* db.write(Effect.zipRight(datasetEvents.dataset("dataset.deleted", dataset), repo.delete(id)), {
        afterCommit: () => index.deleted(id)
      })
      return dataset
    })

    const publish = Effect.fn("Datasets.publish")(function*(actor: User, id: DatasetId) {
      const dataset = yield* access(actor, id, "datasets.manage")
      if (dataset.status === "ready") return yield* new Unprocessable({ detail: "Dataset has already been published" })
      if ((yield* settings.fields.listByDataset(id)).length === 0) {
        return yield* new Unprocessable({ detail: "Dataset cannot be published without fields" })
      }
      if (!(yield* settings.questions.listByDataset(id)).some((question) => question.required)) {
        return yield* new Unprocessable({ detail: "Dataset cannot be published without required questions" })
      }
      const published: DatasetRow = { ...dataset, status: "ready", updated_at: yield* now }
      yield* db.write(Effect.zipRight(repo.replace(published), datasetEvents.dataset("dataset.published", published)), {
        afterCommit: () => index.created(id)
      })
      yield* telemetry.track("dataset/published")
      return published
    })

    /** `GET /me/datasets`: everything for owners, the caller's workspaces for everyone else. */
    const listFor = Effect.fn("Datasets.listFor")(function*(actor: User, filter: DatasetsFilter) {
      if (filter.workspace_id !== undefined) yield* policy.require(actor, "datasets.listInWorkspace", filter.workspace_id)
      return yield* repo.list({
        memberId: actor.role === "owner" ? null : actor.id,
        workspaceId: filter.workspace_id ?? null,
        name: filter.name ?? null,
        status: filter.status ?? null
      })
    })

    return {
      find,
      access,
      accessWithSchema,
      get: (actor: User, id: DatasetId) => access(actor, id, "datasets.read"),
      create,
      update,
      delete: remove,
      publish,
      listFor
    } as const
  }),
  dependencies: [
    DatasetsRepo.Default,
    DatasetSchemas.Default,
    SettingsRepo.Default,
    WorkspacesRepo.Default,
    DatasetIndex.Default,
    Events.Default,
    DatasetEvents.Default,
    Telemetry.Default,
    Policy.Default,
    Database.Default
  ]
}) {}
