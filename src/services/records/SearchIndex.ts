/**
 * Keeps the search engine's documents in step with the records in the database: what to (re)index after each kind
 * of write, and the full rebuild (`gloss search reindex`, `REINDEX_DATASETS`). The index itself (created on publish,
 * deleted with the dataset, told of new settings) is `datasets/DatasetIndex.ts`'s. Every write path calls it after its transaction commits
 * (bulk writes of new records partly inside it: see `bulk`); when the engine fails the request fails, and a
 * reindex heals the index from the database, which is the source of truth.
 */
import { Effect } from "effect"
import type { DatasetId, RecordId } from "../../domain/Ids.js"
import { DatasetSchemas } from "../datasets/DatasetSchemas.js"
import { DatasetsRepo } from "../datasets/DatasetsRepo.js"
import type { IndexedRecord, IndexSchema } from "../search/Query.js"
import { SearchEngine } from "../search/SearchEngine.js"
import { AnswersRepo } from "./AnswersRepo.js"
import { RecordsRepo } from "./RecordsRepo.js"
import type { RecordRow } from "../../codecs/recordRows.js"
import type { ResponseRow, SettingsVectorRow, SuggestionRow, VectorRow } from "./rows.js"
import { groupBy } from "./views.js"

const REINDEX_PAGE = 1000

/**
 * A record's search document: its row and what hangs off it. Written out rather than `{ ...row, … }`: in a bulk
 * upsert the spread's cost shows in an ingest.
 */
export const indexedRecord = (
  row: RecordRow,
  related: Pick<IndexedRecord, "responses" | "suggestions" | "vectors">
): IndexedRecord => ({
  id: row.id,
  external_id: row.external_id,
  status: row.status,
  inserted_at: row.inserted_at,
  updated_at: row.updated_at,
  fields: row.fields,
  metadata: row.metadata,
  responses: related.responses,
  suggestions: related.suggestions,
  vectors: related.vectors
})

/** Everything that hangs off some records: all their responses, suggestions and vectors (by settings id). */
export interface Answers {
  readonly responses: ReadonlyArray<ResponseRow>
  readonly suggestions: ReadonlyArray<SuggestionRow>
  readonly vectors: ReadonlyArray<SettingsVectorRow>
}

/** The search documents of `rows`, from `answers` (which may hold other records' too). */
export const documentsOf = (rows: ReadonlyArray<RecordRow>, answers: Answers): ReadonlyArray<IndexedRecord> => {
  const responsesOf = groupBy(answers.responses)
  const suggestionsOf = groupBy(answers.suggestions)
  const vectorsOf = groupBy(answers.vectors)
  return rows.map((row) =>
    indexedRecord(row, {
      responses: responsesOf.get(row.id) ?? [],
      suggestions: suggestionsOf.get(row.id) ?? [],
      vectors: Object.fromEntries((vectorsOf.get(row.id) ?? []).map((v) => [v.vector_settings_id, v.value]))
    })
  )
}

export class SearchIndex extends Effect.Service<SearchIndex>()("Gloss/SearchIndex", {
  effect: Effect.gen(function*() {
    const engine = yield* SearchEngine
    const schemas = yield* DatasetSchemas
    const records = yield* RecordsRepo
    const answers = yield* AnswersRepo
    const datasets = yield* DatasetsRepo

    const schemaOf = schemas.indexSchema

    /** Everything that hangs off these records, read in one query each. */
    const answersOf = (ids: ReadonlyArray<RecordId>): Effect.Effect<Answers> =>
      Effect.map(
        Effect.all([answers.responsesOf(ids), answers.suggestionsOf(ids), answers.vectorsBySettingsOf(ids)]),
        ([responses, suggestions, vectors]) => ({ responses, suggestions, vectors })
      )

    /** The documents of these rows, their answers read from the database. */
    const documents = (rows: ReadonlyArray<RecordRow>) =>
      Effect.map(answersOf(rows.map((row) => row.id)), (read) => documentsOf(rows, read))

    /** Re-indexes these records of a dataset from the database (after any write that touches them). */
    const records_ = Effect.fn("SearchIndex.records")(function*(datasetId: DatasetId, ids: ReadonlyArray<RecordId>) {
      if (ids.length === 0) return
      const dataset = yield* datasets.findById(datasetId)
      if (dataset._tag === "None" || dataset.value.status !== "ready") return
      const schema = yield* schemaOf(datasetId)
      for (let from = 0; from < ids.length; from += REINDEX_PAGE) {
        const rows = yield* records.findByIds(datasetId, ids.slice(from, from + REINDEX_PAGE))
        yield* engine.indexRecords(schema, yield* documents(rows))
      }
    })

    /** Rebuilds one dataset's index from the database. */
    const rebuild = Effect.fn("SearchIndex.rebuild")(function*(datasetId: DatasetId) {
      const schema = yield* schemaOf(datasetId)
      yield* engine.deleteIndex(datasetId)
      yield* engine.createIndex(schema)
      let indexed = 0
      for (let after: number | undefined;;) {
        const { next, rows } = yield* records.pageAfter(datasetId, after, REINDEX_PAGE)
        if (rows.length > 0) yield* engine.indexRecords(schema, yield* documents(rows))
        indexed += rows.length
        if (next === undefined) return indexed
        after = next
      }
    })

    /** Rebuilds every published dataset's index (or the one given); returns how many records each holds. */
    const reindex = Effect.fn("SearchIndex.reindex")(function*(only?: DatasetId) {
      const ready = yield* datasets.list({ memberId: null, workspaceId: null, name: null, status: "ready" })
      const targets = ready.filter((dataset) => only === undefined || dataset.id === only)
      const counts: Array<{ readonly dataset: string; readonly records: number }> = []
      for (const dataset of targets) counts.push({ dataset: dataset.name, records: yield* rebuild(dataset.id) })
      return counts
    })

    return {
      reindex,
      schemaOf,
      records: records_,
      answersOf,
      /**
       * Indexing for a bulk write, the one call its path makes. The records it creates are indexed from the
       * documents it already has (nothing is read back): `inTransaction` runs inside the write's transaction, as far
       * as the engine allows (SearchEngine.indexCreated), and every vector it stored goes with them, for an engine
       * that takes them as they are. Once it has committed, `afterCommit` finishes those and indexes the records it
       * updated, whose answers are partly older than the payload: read once, and handed back for the write's answer
       * (undefined when it updated none).
       */
      bulk: (schema: IndexSchema, created: ReadonlyArray<IndexedRecord>, vectors: ReadonlyArray<VectorRow>) => {
        const stored = vectors.map((row) => ({ recordId: row.record_id, settingsId: row.vector_settings_id, at: row.updated_at, value: row.value }))
        const staged = created.length === 0 && vectors.length === 0
          ? { inTransaction: Effect.void, afterCommit: Effect.void }
          : engine.indexCreated(schema, created, stored)
        return {
          inTransaction: staged.inTransaction,
          afterCommit: (updated: ReadonlyArray<RecordRow>): Effect.Effect<Answers | undefined> =>
            Effect.zipRight(
              staged.afterCommit,
              updated.length === 0 ? Effect.succeed(undefined) : Effect.tap(
                answersOf(updated.map((row) => row.id)),
                (stored) => engine.indexRecords(schema, documentsOf(updated, stored))
              )
            )
        }
      },
      removed: (datasetId: DatasetId, ids: ReadonlyArray<RecordId>) =>
        ids.length === 0 ? Effect.void : engine.deleteRecords(datasetId, ids),
      rebuild
    } as const
  }),
  dependencies: [DatasetSchemas.Default, RecordsRepo.Default, AnswersRepo.Default, DatasetsRepo.Default]
}) {}

