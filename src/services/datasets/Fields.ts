import { Effect, Option } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import { type FieldCreate, FieldSettings, type FieldUpdate, NewField } from "../../domain/Field.js"
import { FieldId, type DatasetId } from "../../domain/Ids.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { withDefaults } from "../defaults.js"
import { orNotFound } from "../found.js"
import { Datasets } from "./Datasets.js"
import type { FieldRow } from "./rows.js"
import { SettingsRepo } from "./SettingsRepo.js"
import { settingNameTaken } from "./conflicts.js"
import { newId } from "../ids.js"

export class Fields extends Effect.Service<Fields>()("Gloss/Fields", {
  effect: Effect.gen(function*() {
    const { fields } = yield* SettingsRepo
    const datasets = yield* Datasets
    const db = yield* Database

    /** The field and its dataset, once the caller may manage that dataset. */
    const manage = (actor: User, id: FieldId) =>
      Effect.gen(function*() {
        const field = yield* fields.findById(id).pipe(orNotFound("Field", id))
        const dataset = yield* datasets.access(actor, field.dataset_id, "datasets.manage")
        return { field, dataset }
      })

    const list = Effect.fn("Fields.list")(function*(actor: User, datasetId: DatasetId) {
      yield* datasets.access(actor, datasetId, "datasets.read")
      return yield* fields.listByDataset(datasetId)
    })

    const create = Effect.fn("Fields.create")(function*(actor: User, datasetId: DatasetId, payload: FieldCreate) {
      const input = yield* withDefaults(NewField)(payload)
      const dataset = yield* datasets.access(actor, datasetId, "datasets.manage")
      if (dataset.status === "ready") {
        return yield* new Unprocessable({ detail: "Field cannot be created for a published dataset" })
      }
      const at = yield* now
      const row: FieldRow = {
        // An id in the body is ignored, as Argilla's create schema has none: the server always issues a new one.
        id: FieldId.make(newId()),
        name: input.name,
        title: input.title,
        required: input.required,
        settings: input.settings,
        dataset_id: datasetId,
        inserted_at: at,
        updated_at: at
      }
      const inserted = yield* db.write(fields.insert(row))
      return yield* Option.match(inserted, {
        onSome: Effect.succeed,
        onNone: () =>
          Effect.fail(settingNameTaken("Field", input.name, datasetId))
      })
    })

    const update = Effect.fn("Fields.update")(function*(actor: User, id: FieldId, patch: FieldUpdate) {
      const { field } = yield* manage(actor, id)
      const settings = patch.settings === undefined ? field.settings : yield* withDefaults(FieldSettings)(patch.settings)
      if (settings.type !== field.settings.type) {
        return yield* new Unprocessable({
          detail: `Field type cannot be changed. Expected '${field.settings.type}' but got '${settings.type}'`
        })
      }
      const next: FieldRow = {
        ...field,
        title: patch.title ?? field.title,
        settings,
        updated_at: yield* now
      }
      return yield* db.write(fields.replace(next)).pipe(orNotFound("Field", id))
    })

    const remove = Effect.fn("Fields.delete")(function*(actor: User, id: FieldId) {
      const { dataset, field } = yield* manage(actor, id)
      if (dataset.status === "ready") {
        return yield* new Unprocessable({ detail: "Fields cannot be deleted for a published dataset" })
      }
      yield* db.write(fields.delete(id))
      return field
    })

    return { list, create, update, delete: remove, listByDataset: fields.listByDataset } as const
  }),
  dependencies: [SettingsRepo.Default, Datasets.Default, Database.Default]
}) {}
