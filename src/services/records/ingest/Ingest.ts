import { Effect, Either } from "effect"
import { Conflict, Unprocessable } from "../../../domain/Errors.js"
import type { DatasetId, RecordId } from "../../../domain/Ids.js"
import type { DatasetRecord, RecordUpsert } from "../../../domain/Record.js"
import type { User } from "../../../domain/User.js"
import { now } from "../../clock.js"
import { Database } from "../../database/Database.js"
import { Datasets } from "../../datasets/Datasets.js"
import { DatasetsRepo } from "../../datasets/DatasetsRepo.js"
import type { DatasetRow } from "../../datasets/rows.js"
import { UsersRepo } from "../../users/UsersRepo.js"
import { AnswersRepo } from "../AnswersRepo.js"
import { DatasetSchemas } from "../../datasets/DatasetSchemas.js"
import { INCLUDE_EVERYTHING } from "../include.js"
import { RecordsRepo } from "../RecordsRepo.js"
import { assemble } from "../views.js"
import { SEES_EVERYTHING } from "../../datasets/viewer.js"
import { type Answers, documentsOf, SearchIndex } from "../SearchIndex.js"
import { RecordEvents } from "../RecordEvents.js"
import { Telemetry } from "../../Telemetry.js"
import type { RecordRow } from "../../../codecs/recordRows.js"
import { type Plan, plan } from "./plan.js"
import { newId } from "../../ids.js"

const nonNull = <A>(values: ReadonlyArray<A | null | undefined>): Array<A> =>
  values.filter((value): value is A => value !== null && value !== undefined)

/** Bulk create and bulk upsert of records: all of a payload is written, or none of it. */
export class Ingest extends Effect.Service<Ingest>()("Gloss/Ingest", {
  effect: Effect.gen(function*() {
    const datasets = yield* Datasets
    const datasetsRepo = yield* DatasetsRepo
    const schemas = yield* DatasetSchemas
    const records = yield* RecordsRepo
    const answers = yield* AnswersRepo
    const users = yield* UsersRepo
    const db = yield* Database
    const index = yield* SearchIndex
    const events = yield* RecordEvents
    const telemetry = yield* Telemetry

    /**
     * The plan's rows and events, for one transaction; `andThen` runs last in it. Returns the updated records as
     * stored (their status recomputed), so that nothing written is read back. Events cost nothing here unless a
     * webhook wants them (one cached lookup per payload, no per-record query).
     */
    const change = (dataset: DatasetRow, planned: Plan, at: Date, andThen: Effect.Effect<void>) =>
      Effect.gen(function*() {
        const datasetId = dataset.id
        yield* records.insertMany(planned.inserts)
        yield* events.records("record.created", dataset, planned.inserts)
        const replaced: Array<RecordRow> = []
        for (const row of planned.updates) replaced.push(yield* records.replace(row))
        yield* answers.upsertResponses(planned.responses)
        yield* answers.upsertSuggestions(planned.suggestions)
        yield* answers.upsertVectors(planned.vectors)
        const statuses = new Map(
          (yield* records.recompute(planned.recompute, dataset.distribution.min_submitted)).map((r) => [r.id, r.status])
        )
        const updated: ReadonlyArray<RecordRow> = replaced.map((row) => {
          const status = statuses.get(row.id)
          return status === undefined ? row : { ...row, status }
        })
        if (statuses.size > 0) {
          const byId = new Map(updated.map((row) => [row.id, row]))
          yield* events.statuses(dataset, planned.recompute.flatMap((id) => byId.get(id) ?? []))
        }
        if (planned.respondents.length > 0) {
          yield* answers.touchDatasetUsers(datasetId, planned.respondents, at)
          yield* datasetsRepo.touchActivity(datasetId, at)
        }
        yield* andThen
        return updated
      })

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
        const { inserts, updates } = planned.right
        // New records are indexed from the plan, as far as the engine allows inside the same transaction; updated
        // ones once it has committed, with their answers as stored (read once, and shown below).
        const indexing = index.bulk(schema, documentsOf(inserts, planned.right), planned.right.vectors)
        const updated = yield* db.write(change(dataset, planned.right, at, indexing.inTransaction), {
          // Two payloads racing to create the same external id: the loser is told instead of getting a 500.
          onUniqueViolation: () =>
            new Conflict({ detail: "Records with the same external ids were being written at the same time; try again" })
        })
        const stored = yield* indexing.afterCommit(updated)
        const updatedIds: ReadonlyArray<RecordId> = updates.map((row) => row.id)
        yield* telemetry.track("records/bulk")

        // Records are shown from what was written (updated ones with their answers as stored). Writers see everything.
        const vectorNames = new Map(vectorSettings.map((settings) => [settings.id, settings.name]))
        const show = (rows: ReadonlyArray<RecordRow>, related: Answers) =>
          assemble(rows, INCLUDE_EVERYTHING, {
            responses: related.responses,
            suggestions: related.suggestions,
            vectors: related.vectors.map((v) => ({ record_id: v.record_id, name: vectorNames.get(v.vector_settings_id) ?? "", value: v.value }))
          }, SEES_EVERYTHING)
        const shown = new Map<string, DatasetRecord>()
        for (const record of show(inserts, planned.right)) shown.set(record.id, record)
        if (stored !== undefined) for (const record of show(updated, stored)) shown.set(record.id, record)
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
    SearchIndex.Default,
    RecordEvents.Default,
    Telemetry.Default
  ]
}) {}
