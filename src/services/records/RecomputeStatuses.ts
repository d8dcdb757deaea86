/**
 * The `datasets.recompute_statuses` job (Argilla's name for it): after a dataset's distribution changes, every record
 * that has a response gets its status recomputed, emits `record.updated` (and `record.completed`), and is re-indexed.
 * Enqueued by `PATCH /datasets/{id}` through the outbox, so it runs only once the new distribution is committed.
 * Idempotent: a second run recomputes the same statuses (and emits the events again, at least once).
 */
import { Effect } from "effect"
import type { DatasetId } from "../../domain/Ids.js"
import { Database } from "../database/Database.js"
import { jobHandler } from "../jobs/JobHandlers.js"
import { RecordsRepo } from "./RecordsRepo.js"
import { SearchIndex } from "./SearchIndex.js"
import { RecordEvents } from "./RecordEvents.js"
import { DatasetsRepo } from "../datasets/DatasetsRepo.js"
import { RecomputeStatuses, RecomputeStatusesPayload } from "../datasets/recomputeStatusesJob.js"

/** Records read per query when building events (keeps `in (…)` lists within both dialects' limits). */
const PAGE = 1000

export class StatusRecomputation extends Effect.Service<StatusRecomputation>()("Gloss/StatusRecomputation", {
  effect: Effect.gen(function*() {
    const datasets = yield* DatasetsRepo
    const records = yield* RecordsRepo
    const events = yield* RecordEvents
    const index = yield* SearchIndex
    const db = yield* Database
    const { sql } = db

    // Responses lock their record before recomputing it (Responses.persist); taking the same locks first means a
    // response written meanwhile waits, and the counts below include it. Every record of the dataset, not only those
    // answered when the locks are taken: PostgreSQL's `update` below waits for a row another writer holds and then
    // counts that row's responses as of the statement's start, so a record answered for the first time while the
    // locks were taken, and answered again while the update ran, would be set back to pending with both answers in
    // (test/database/status-recompute-race.test.ts). SQLite has a single writer already.
    const lockRecords = (datasetId: DatasetId) =>
      sql.onDialectOrElse({
        pg: () => sql`select id from records where dataset_id = ${datasetId} order by id for update`,
        orElse: () => sql`select 1`
      }).pipe(Effect.orDie)

    const run = Effect.fn("Datasets.recomputeStatuses")(function*(datasetId: DatasetId) {
      yield* db.write(Effect.gen(function*() {
        const dataset = yield* datasets.findById(datasetId)
        // Deleted since: nothing left to do.
        if (dataset._tag === "None") return []
        yield* lockRecords(datasetId)
        const recomputed = yield* records.recomputeDataset(datasetId, dataset.value.distribution.min_submitted)
        const ids = recomputed.map((record) => record.id)
        yield* events.statuses(
          dataset.value,
          Effect.map(
            Effect.forEach(
              Array.from({ length: Math.ceil(ids.length / PAGE) }, (_, i) => ids.slice(i * PAGE, (i + 1) * PAGE)),
              (page) => records.findByIds(datasetId, page)
            ),
            (pages) => pages.flat()
          )
        )
        return ids
      }), { afterCommit: (changed) => index.records(datasetId, changed) })
    })

    return { run } as const
  }),
  dependencies: [DatasetsRepo.Default, RecordsRepo.Default, RecordEvents.Default, SearchIndex.Default, Database.Default]
}) {}

export const recomputeStatuses = jobHandler(
  RecomputeStatuses,
  RecomputeStatusesPayload,
  ({ datasetId }) => Effect.flatMap(StatusRecomputation, (job) => job.run(datasetId))
)
