import { Effect } from "effect"
import { GlossConfig } from "../../Config.js"
import type { DatasetId } from "../../domain/Ids.js"
import type { DatasetRow } from "./rows.js"
import type { IndexSchema } from "../search/Query.js"
import { SettingsRepo } from "./SettingsRepo.js"

/** A dataset's settings gathered once per request: what record validation and search need to know. */
export class DatasetSchemas extends Effect.Service<DatasetSchemas>()("Gloss/DatasetSchemas", {
  effect: Effect.gen(function*() {
    const settings = yield* SettingsRepo
    const { limits } = yield* GlossConfig

    /**
     * The settings as a search engine needs them, to index and search the dataset. The four reads go together: on
     * PostgreSQL each is a round trip to another process, and every search and write makes them (one after another
     * they were four of a vector search's seven round trips); SQLite's one connection takes them in turn either way.
     */
    const indexSchema = (datasetId: DatasetId) =>
      Effect.map(
        Effect.all([
          settings.fields.listByDataset(datasetId),
          settings.questions.listByDataset(datasetId),
          settings.metadataProperties.listByDataset(datasetId),
          settings.vectorSettings.listByDataset(datasetId)
        ], { concurrency: "unbounded" }),
        ([fields, questions, metadataProperties, vectorSettings]) =>
          ({ datasetId, fields, questions, metadataProperties, vectorSettings }) satisfies IndexSchema
      )

    /** What validating a write needs, and the search schema for indexing what it writes: one read of each. */
    const load = (dataset: DatasetRow) =>
      Effect.map(indexSchema(dataset.id), (index) => {
        // What `records/validation/` checks a write against (its `ValidationContext`).
        const context = {
          datasetId: dataset.id,
          allowExtraMetadata: dataset.allow_extra_metadata,
          fields: index.fields,
          questions: index.questions,
          metadataProperties: index.metadataProperties,
          vectorSettings: index.vectorSettings,
          limits
        }
        return { dataset, context, vectorSettings: index.vectorSettings, questions: index.questions, index } as const
      })

    return { indexSchema, load } as const
  }),
  dependencies: [SettingsRepo.Default]
}) {}
