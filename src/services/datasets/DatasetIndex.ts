/**
 * A dataset's index in the search engine: created when the dataset is published, deleted with it, and told about
 * metadata properties and vector settings added later. The records' documents in it are `records/SearchIndex.ts`'s.
 */
import { Effect } from "effect"
import type { DatasetId } from "../../domain/Ids.js"
import { SearchEngine } from "../search/SearchEngine.js"
import { DatasetSchemas } from "./DatasetSchemas.js"
import { DatasetsRepo } from "./DatasetsRepo.js"

export class DatasetIndex extends Effect.Service<DatasetIndex>()("Gloss/DatasetIndex", {
  effect: Effect.gen(function*() {
    const engine = yield* SearchEngine
    const schemas = yield* DatasetSchemas
    const datasets = yield* DatasetsRepo

    return {
      created: Effect.fn("DatasetIndex.created")(function*(datasetId: DatasetId) {
        yield* engine.createIndex(yield* schemas.indexSchema(datasetId))
      }),
      deleted: (datasetId: DatasetId) => engine.deleteIndex(datasetId),
      /** A metadata property or vector settings was added: a published dataset's index learns about it. */
      settingsChanged: Effect.fn("DatasetIndex.settingsChanged")(function*(datasetId: DatasetId) {
        const dataset = yield* datasets.findById(datasetId)
        if (dataset._tag === "Some" && dataset.value.status === "ready") {
          yield* engine.updateMapping(yield* schemas.indexSchema(datasetId))
        }
      })
    } as const
  }),
  dependencies: [DatasetSchemas.Default, DatasetsRepo.Default]
}) {}
