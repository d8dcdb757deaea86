import { Effect, Option } from "effect"
import type { DatasetId } from "../../domain/Ids.js"
import { Database } from "../database/Database.js"
import { isUuid } from "../../codecs/plainRows.js"
import { ownedRows } from "./OwnedRows.js"
import { FieldRow, MetadataPropertyRow, QuestionRow, VectorSettingsRow } from "./rows.js"

/** The tables of a dataset's settings. */
export class SettingsRepo extends Effect.Service<SettingsRepo>()("Gloss/SettingsRepo", {
  effect: Effect.gen(function*() {
    const db = yield* Database
    const fields = yield* ownedRows("fields", FieldRow)
    const questions = yield* ownedRows("questions", QuestionRow)
    const metadataProperties = yield* ownedRows("metadata_properties", MetadataPropertyRow)
    const vectorSettings = yield* ownedRows("vectors_settings", VectorSettingsRow)

    /** The four lists' statements, for reading them beside others (`Database.readTogether`); the id must be a UUID. */
    const listSqls = (datasetId: DatasetId) =>
      [fields, questions, metadataProperties, vectorSettings].map((table) => table.listSql(datasetId))

    /** The rows those statements read, decoded (in their order). */
    const decodeLists = (datasetId: DatasetId, [f, q, m, v]: ReadonlyArray<ReadonlyArray<unknown>>) =>
      Effect.all([
        fields.decodeListed(datasetId, f ?? []),
        questions.decodeListed(datasetId, q ?? []),
        metadataProperties.decodeListed(datasetId, m ?? []),
        vectorSettings.decodeListed(datasetId, v ?? [])
      ])

    /**
     * A dataset's four settings lists, which every search and write reads: in one round trip on PostgreSQL (see
     * `Database.readTogether`); else one after the other, as SQLite's one connection would take them anyway (forked
     * fibers only added the cost of joining them).
     */
    const allOfDataset = (datasetId: DatasetId) =>
      Effect.flatMap(
        isUuid(datasetId) ? db.readTogether(listSqls(datasetId)) : Effect.succeed(Option.none()),
        Option.match({
          onSome: (results) => decodeLists(datasetId, results),
          onNone: () =>
            Effect.all([
              fields.listByDataset(datasetId),
              questions.listByDataset(datasetId),
              metadataProperties.listByDataset(datasetId),
              vectorSettings.listByDataset(datasetId)
            ])
        })
      )

    return { fields, questions, metadataProperties, vectorSettings, allOfDataset, listSqls, decodeLists } as const
  }),
  dependencies: [Database.Default]
}) {}
