import { Effect, Option } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import { type DatasetId, VectorSettingsId } from "../../domain/Ids.js"
import type { User } from "../../domain/User.js"
import {
  MAX_VECTOR_SETTINGS,
  type VectorSettingsCreate,
  type VectorSettingsUpdate
} from "../../domain/VectorSettings.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { orNotFound } from "../found.js"
import { DatasetIndex } from "./DatasetIndex.js"
import { Datasets } from "./Datasets.js"
import type { VectorSettingsRow } from "./rows.js"
import { SettingsRepo } from "./SettingsRepo.js"
import { settingNameTaken } from "./conflicts.js"
import { newId } from "../ids.js"

export class VectorSettings extends Effect.Service<VectorSettings>()("Gloss/VectorSettings", {
  effect: Effect.gen(function*() {
    const { vectorSettings } = yield* SettingsRepo
    const datasets = yield* Datasets
    const db = yield* Database
    const index = yield* DatasetIndex

    const manage = (actor: User, id: VectorSettingsId) =>
      Effect.tap(
        vectorSettings.findById(id).pipe(orNotFound("VectorSettings", id)),
        (settings) => datasets.access(actor, settings.dataset_id, "datasets.manage")
      )

    const list = Effect.fn("VectorSettings.list")(function*(actor: User, datasetId: DatasetId) {
      yield* datasets.access(actor, datasetId, "datasets.read")
      return yield* vectorSettings.listByDataset(datasetId)
    })

    const create = Effect.fn("VectorSettings.create")(
      function*(actor: User, datasetId: DatasetId, input: VectorSettingsCreate) {
        yield* datasets.access(actor, datasetId, "datasets.manage")
        const existing = yield* vectorSettings.listByDataset(datasetId)
        if (existing.some((settings) => settings.name === input.name)) {
          return yield* settingNameTaken("Vector settings", input.name, datasetId)
        }
        if (existing.length >= MAX_VECTOR_SETTINGS) {
          return yield* new Unprocessable({
            detail: `The maximum number of vector settings has been reached for dataset with id \`${datasetId}\` ` +
              `(${MAX_VECTOR_SETTINGS})`
          })
        }
        const at = yield* now
        const row: VectorSettingsRow = {
          // An id in the body is ignored, as Argilla's create schema has none: the server always issues a new one.
          id: VectorSettingsId.make(newId()),
          name: input.name,
          title: input.title,
          dimensions: input.dimensions,
          dataset_id: datasetId,
          inserted_at: at,
          updated_at: at
        }
        return yield* db.write(vectorSettings.insert(row), { afterCommit: () => index.settingsChanged(datasetId) }).pipe(
          Effect.flatMap(Option.match({
            onSome: Effect.succeed,
            // The name was free a moment ago: a concurrent create took it.
            onNone: () => Effect.fail(settingNameTaken("Vector settings", input.name, datasetId))
          }))
        )
      }
    )

    const update = Effect.fn("VectorSettings.update")(
      function*(actor: User, id: VectorSettingsId, patch: VectorSettingsUpdate) {
        const settings = yield* manage(actor, id)
        const next: VectorSettingsRow = { ...settings, title: patch.title ?? settings.title, updated_at: yield* now }
        return yield* db.write(vectorSettings.replace(next)).pipe(orNotFound("VectorSettings", id))
      }
    )

    const remove = Effect.fn("VectorSettings.delete")(function*(actor: User, id: VectorSettingsId) {
      const settings = yield* manage(actor, id)
      yield* db.write(vectorSettings.delete(id))
      return settings
    })

    return { list, create, update, delete: remove, listByDataset: vectorSettings.listByDataset } as const
  }),
  dependencies: [SettingsRepo.Default, Datasets.Default, DatasetIndex.Default, Database.Default]
}) {}
