import { Effect } from "effect"
import { GlossConfig } from "../../Config.js"
import type { DatasetRow } from "../datasets/rows.js"
import type { IndexSchema } from "../search/Query.js"
import { SettingsRepo } from "../datasets/SettingsRepo.js"
import type { ValidationContext } from "./validation/context.js"

/** A dataset's settings gathered once per request: what record validation and search need to know. */
export class DatasetSchemas extends Effect.Service<DatasetSchemas>()("Gloss/DatasetSchemas", {
  effect: Effect.gen(function*() {
    const settings = yield* SettingsRepo
    const { limits } = yield* GlossConfig

    const load = (dataset: DatasetRow) =>
      Effect.gen(function*() {
        const [fields, questions, metadataProperties, vectorSettings] = yield* Effect.all([
          settings.fields.listByDataset(dataset.id),
          settings.questions.listByDataset(dataset.id),
          settings.metadataProperties.listByDataset(dataset.id),
          settings.vectorSettings.listByDataset(dataset.id)
        ])
        const context: ValidationContext = {
          datasetId: dataset.id,
          allowExtraMetadata: dataset.allow_extra_metadata,
          fields,
          questions,
          metadataProperties,
          vectorSettings,
          limits
        }
        // The same settings as the search engine needs them, for indexing what the request writes.
        const index: IndexSchema = { datasetId: dataset.id, fields, questions, metadataProperties, vectorSettings }
        return { dataset, context, vectorSettings, questions, index } as const
      })

    return { load } as const
  }),
  dependencies: [SettingsRepo.Default]
}) {}
