import { Effect, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import type { DatasetId } from "../../domain/Ids.js"
import { Database } from "../database/Database.js"
import { isUuid } from "../../codecs/plainRows.js"
import { DatasetsRepo } from "./DatasetsRepo.js"
import type { DatasetRow } from "./rows.js"
import type { IndexSchema } from "../search/Query.js"
import { SettingsRepo } from "./SettingsRepo.js"

/** The four settings lists (in SettingsRepo's order) as a search schema. */
const asSchema = (datasetId: DatasetId) =>
([fields, questions, metadataProperties, vectorSettings]: Effect.Effect.Success<
  ReturnType<SettingsRepo["allOfDataset"]>
>) => ({ datasetId, fields, questions, metadataProperties, vectorSettings }) satisfies IndexSchema

/** A dataset's settings gathered once per request: what record validation and search need to know. */
export class DatasetSchemas extends Effect.Service<DatasetSchemas>()("Gloss/DatasetSchemas", {
  effect: Effect.gen(function*() {
    const settings = yield* SettingsRepo
    const datasets = yield* DatasetsRepo
    const db = yield* Database
    const { limits } = yield* GlossConfig

    /**
     * The settings as a search engine needs them, to index and search the dataset: read together (on PostgreSQL in
     * one round trip, see SettingsRepo.allOfDataset), since every search and write reads them.
     */
    const indexSchema = (datasetId: DatasetId) => Effect.map(settings.allOfDataset(datasetId), asSchema(datasetId))

    /**
     * The dataset's row and its search schema, read together: on PostgreSQL the five reads in one round trip (see
     * `Database.readTogether`), for a search, which needs both before it can start. The schema is of no use to a
     * caller who may not see the dataset: check the row before using it.
     */
    const withDataset = (datasetId: DatasetId) =>
      Effect.flatMap(
        isUuid(datasetId)
          ? db.readTogether([datasets.findSql(datasetId), ...settings.listSqls(datasetId)])
          : Effect.succeed(Option.none()),
        Option.match({
          onSome: ([found, ...lists]) =>
            Effect.all({
              dataset: datasets.decodeFound(datasetId, found ?? []),
              schema: Effect.map(settings.decodeLists(datasetId, lists), asSchema(datasetId))
            }),
          // SQLite (and an id that is no UUID): one after the other. Its one connection runs one statement at a
          // time anyway, and a forked fiber costs its join (the whole request context compared), which on a small
          // dataset's search was a measurable share of the request.
          onNone: () => Effect.all({ dataset: datasets.findById(datasetId), schema: indexSchema(datasetId) })
        })
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

    return { indexSchema, withDataset, load } as const
  }),
  dependencies: [SettingsRepo.Default, DatasetsRepo.Default]
}) {}
