import { Effect, Option } from "effect"
import { type DatasetId, MetadataPropertyId } from "../../domain/Ids.js"
import {
  type MetadataPropertyCreate,
  type MetadataPropertyUpdate,
  NewMetadataProperty
} from "../../domain/MetadataProperty.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { withDefaults } from "../defaults.js"
import { orNotFound } from "../found.js"
import { DatasetIndex } from "./DatasetIndex.js"
import { Datasets } from "./Datasets.js"
import type { MetadataPropertyRow } from "./rows.js"
import { SettingsRepo } from "./SettingsRepo.js"
import { settingNameTaken } from "./conflicts.js"
import { newId } from "../ids.js"
import { propertyShown, Viewers } from "./viewer.js"

export class MetadataProperties extends Effect.Service<MetadataProperties>()("Gloss/MetadataProperties", {
  effect: Effect.gen(function*() {
    const { metadataProperties } = yield* SettingsRepo
    const datasets = yield* Datasets
    const db = yield* Database
    const index = yield* DatasetIndex
    const viewers = yield* Viewers

    const find = (id: MetadataPropertyId) => metadataProperties.findById(id).pipe(orNotFound("MetadataProperty", id))

    const manage = (actor: User, id: MetadataPropertyId) =>
      Effect.tap(find(id), (property) => datasets.access(actor, property.dataset_id, "datasets.manage"))

    /** One property, for anyone who may read its dataset and see it. */
    const get = Effect.fn("MetadataProperties.get")(function*(actor: User, id: MetadataPropertyId) {
      const property = yield* find(id)
      const dataset = yield* datasets.access(actor, property.dataset_id, "datasets.read")
      yield* viewers.requireShown(actor, dataset, property)
      return property
    })

    /** `GET /me/datasets/{id}/metadata-properties`: what the caller may see. */
    const listVisible = Effect.fn("MetadataProperties.listVisible")(function*(actor: User, datasetId: DatasetId) {
      const dataset = yield* datasets.access(actor, datasetId, "datasets.read")
      const shown = propertyShown(yield* viewers.readsHiddenMetadata(actor, dataset))
      return (yield* metadataProperties.listByDataset(datasetId)).filter(shown)
    })

    const create = Effect.fn("MetadataProperties.create")(
      function*(actor: User, datasetId: DatasetId, payload: MetadataPropertyCreate) {
        const input = yield* withDefaults(NewMetadataProperty)(payload)
        yield* datasets.access(actor, datasetId, "datasets.manage")
        const at = yield* now
        const row: MetadataPropertyRow = {
          // An id in the body is ignored, as Argilla's create schema has none: the server always issues a new one.
          id: MetadataPropertyId.make(newId()),
          name: input.name,
          title: input.title,
          settings: input.settings,
          visible_for_annotators: input.visible_for_annotators,
          dataset_id: datasetId,
          inserted_at: at,
          updated_at: at
        }
        return yield* db.write(metadataProperties.insert(row), { afterCommit: () => index.settingsChanged(datasetId) }).pipe(
          Effect.flatMap(Option.match({
            onSome: Effect.succeed,
            onNone: () =>
              Effect.fail(settingNameTaken("Metadata property", input.name, datasetId))
          }))
        )
      }
    )

    const update = Effect.fn("MetadataProperties.update")(
      function*(actor: User, id: MetadataPropertyId, patch: MetadataPropertyUpdate) {
        const property = yield* manage(actor, id)
        const next: MetadataPropertyRow = {
          ...property,
          title: patch.title ?? property.title,
          visible_for_annotators: patch.visible_for_annotators ?? property.visible_for_annotators,
          updated_at: yield* now
        }
        return yield* db.write(metadataProperties.replace(next)).pipe(orNotFound("MetadataProperty", id))
      }
    )

    const remove = Effect.fn("MetadataProperties.delete")(function*(actor: User, id: MetadataPropertyId) {
      const property = yield* manage(actor, id)
      yield* db.write(metadataProperties.delete(id))
      return property
    })

    return {
      get,
      listVisible,
      create,
      update,
      delete: remove,
      listByDataset: metadataProperties.listByDataset
    } as const
  }),
  dependencies: [SettingsRepo.Default, Datasets.Default, DatasetIndex.Default, Database.Default, Viewers.Default]
}) {}
