import { Effect, Either, Option } from "effect"
import { Conflict, Unprocessable } from "../../../domain/Errors.js"
import type { DatasetId, RecordId } from "../../../domain/Ids.js"
import type { DatasetRecord, RecordUpsert } from "../../../domain/Record.js"
import type { User } from "../../../domain/User.js"
import { now } from "../../clock.js"
import { Database } from "../../database/Database.js"
import { isUniqueViolation } from "../../database/errors.js"
import { Datasets } from "../../datasets/Datasets.js"
import { DatasetsRepo } from "../../datasets/DatasetsRepo.js"
import type { DatasetRow } from "../../datasets/rows.js"
import { UsersRepo } from "../../users/UsersRepo.js"
import { AnswersRepo } from "../AnswersRepo.js"
import { DatasetSchemas } from "../../datasets/DatasetSchemas.js"
import { INCLUDE_EVERYTHING } from "../include.js"
import { RecordsRepo } from "../RecordsRepo.js"
import { assemble, RecordViews } from "../views.js"
import { SEES_EVERYTHING } from "../../datasets/viewer.js"
import { indexedRecord, SearchIndex } from "../SearchIndex.js"
import type { IndexedRecord } from "../../search/Query.js"
import { RecordEvents } from "../RecordEvents.js"
import { Telemetry } from "../../Telemetry.js"
import { groupBy } from "../views.js"
import { type Plan, plan } from "./plan.js"
import { newId } from "../../ids.js"

/** The search documents of the records a plan creates, from the plan itself. */
const documentsOf = (planned: Plan): ReadonlyArray<IndexedRecord> => {
  const responses = groupBy(planned.responses)
  const suggestions = groupBy(planned.suggestions)
  const vectors = groupBy(planned.vectors)
  return planned.inserts.map((row) =>
    indexedRecord(row, {
      responses: responses.get(row.id) ?? [],
      suggestions: suggestions.get(row.id) ?? [],
      vectors: Object.fromEntries((vectors.get(row.id) ?? []).map((v) => [v.vector_settings_id, v.value]))
    })
  )
}

const nonNull = <A>(values: ReadonlyArray<A | null | undefined>): Array<A> =>
  values.filter((value): value is A => value !== null && value !== undefined)

/** Bulk create and bulk upsert of records (reference §1.11): all of a payload is written, or none of it. */
export class Ingest extends Effect.Service<Ingest>()("Gloss/Ingest", {
  effect: Effect.gen(function*() {
    const datasets = yield* Datasets
    const datasetsRepo = yield* DatasetsRepo
    const schemas = yield* DatasetSchemas
    const records = yield* RecordsRepo
    const answers = yield* AnswersRepo
    const users = yield* UsersRepo
    const views = yield* RecordViews
    const db = yield* Database
    const index = yield* SearchIndex
    const events = yield* RecordEvents
    const telemetry = yield* Telemetry

    /** Events cost nothing here unless a webhook wants them (one cached lookup per payload, no per-record query). */
    /** `andThen` runs last, in the same transaction. */
    const write = (dataset: DatasetRow, planned: Plan, at: Date, andThen: Effect.Effect<void>) =>
      db.transaction(Effect.gen(function*() {
        const datasetId = dataset.id
        yield* records.insertMany(planned.inserts)
        yield* events.records("record.created", dataset, planned.inserts)
        for (const row of planned.updates) yield* records.replace(row)
        yield* answers.upsertResponses(planned.responses)
        yield* answers.upsertSuggestions(planned.suggestions)
        yield* answers.upsertVectors(planned.vectors)
        yield* records.recompute(planned.recompute, dataset.distribution.min_submitted)
        yield* events.statuses(dataset, records.findByIds(datasetId, planned.recompute))
        if (planned.respondents.length > 0) {
          yield* answers.touchDatasetUsers(datasetId, planned.respondents, at)
          yield* datasetsRepo.touchActivity(datasetId, at)
        }
        yield* andThen
      })).pipe(
        // Two payloads racing to create the same external id: the loser is told instead of getting a 500.
        Effect.catchSomeDefect((defect) =>
          isUniqueViolation(defect)
            ? Option.some(Effect.fail(new Conflict({ detail: "Records with the same external ids were being written at the same time; try again" })))
            : Option.none()
        )
      )

    const ingest = Effect.fn("Records.ingest")(
      function*(actor: User, datasetId: DatasetId, items: ReadonlyArray<RecordUpsert>, mode: "create" | "upsert") {
        const dataset = yield* datasets.access(actor, datasetId, "records.write")
        if (dataset.status !== "ready") {
          return yield* new Unprocessable({
            detail: mode === "create"
              ? "records cannot be created for a non published dataset"
              : "records cannot be created or updated for a non published dataset"
          })
        }
        const { context, index: schema, vectorSettings } = yield* schemas.load(dataset)
        const externalIds = nonNull(items.map((item) => item.external_id))
        const ids = nonNull(items.map((item) => item.id))
        const [byExternal, byId, owners, known] = yield* Effect.all([
          records.findByExternalIds(datasetId, externalIds),
          records.findByIds(datasetId, ids),
          records.owners(ids),
          users.existingIds(nonNull(items.flatMap((item) => (item.responses ?? []).map((r) => r.user_id))))
        ])
        const at = yield* now
        const planned = plan({
          mode,
          items,
          context,
          minSubmitted: dataset.distribution.min_submitted,
          vectorIds: new Map(vectorSettings.map((settings) => [settings.name, settings.id])),
          known: {
            byExternalId: new Map(byExternal.flatMap((row) => row.external_id === null ? [] : [[row.external_id, row]])),
            byId: new Map(byId.map((row) => [row.id, row])),
            elsewhere: new Set(owners.filter((owner) => owner.dataset_id !== datasetId).map((owner) => owner.id)),
            users: known
          },
          now: at,
          newId
        })
        if (Either.isLeft(planned)) return yield* new Unprocessable({ detail: planned.left })
        // New records are indexed from the plan, as far as the engine allows inside the same transaction.
        const indexing = index.indexCreated(schema, documentsOf(planned.right))
        yield* write(dataset, planned.right, at, indexing.inTransaction)
        yield* indexing.afterCommit
        yield* index.records(datasetId, planned.right.updates.map((row) => row.id))
        yield* telemetry.track("records/bulk")

        // New records are shown from what was just written; updated ones are read back (their responses,
        // suggestions and vectors are partly older, and their status may have been recomputed). Writers see everything.
        const { inserts, responses, suggestions, updates, vectors } = planned.right
        const updatedIds: ReadonlyArray<RecordId> = updates.map((row) => row.id)
        const vectorNames = new Map(vectorSettings.map((settings) => [settings.id, settings.name]))
        const shown = new Map<string, DatasetRecord>()
        for (const record of assemble(inserts, INCLUDE_EVERYTHING, {
          responses,
          suggestions,
          vectors: vectors.map((v) => ({ record_id: v.record_id, name: vectorNames.get(v.vector_settings_id) ?? "", value: v.value }))
        }, SEES_EVERYTHING)) shown.set(record.id, record)
        const reread = updatedIds.length === 0 ? [] : yield* records.findByIds(datasetId, updatedIds)
        for (const record of yield* views.show(reread, INCLUDE_EVERYTHING, SEES_EVERYTHING)) shown.set(record.id, record)
        const result = planned.right.order.flatMap((id) => {
          const record = shown.get(id)
          return record === undefined ? [] : [record]
        })
        return { items: result, updated_item_ids: updatedIds }
      }
    )

    return {
      create: (actor: User, datasetId: DatasetId, items: ReadonlyArray<RecordUpsert>) =>
        Effect.map(ingest(actor, datasetId, items, "create"), ({ items }) => ({ items })),
      upsert: (actor: User, datasetId: DatasetId, items: ReadonlyArray<RecordUpsert>) => ingest(actor, datasetId, items, "upsert")
    } as const
  }),
  dependencies: [
    Datasets.Default,
    DatasetsRepo.Default,
    DatasetSchemas.Default,
    RecordsRepo.Default,
    AnswersRepo.Default,
    UsersRepo.Default,
    RecordViews.Default,
    SearchIndex.Default,
    RecordEvents.Default,
    Telemetry.Default
  ]
}) {}
