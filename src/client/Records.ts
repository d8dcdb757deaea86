/**
 * `client.records`, keyed by dataset: `log` upserts in batches of at most 500, `stream` pages
 * through the list or the search endpoint, `delete` removes by id in batches of at most 100 — with the SDK's batch
 * normalisation warning and summary logs, as the Argilla SDK's `records.log` and `records.delete`.
 */
import { Array as Arr, Chunk, Duration, Effect, Option, Stream } from "effect"
import { DatasetId, RecordId } from "../domain/Ids.js"
import type { Job, JobProgress } from "../domain/Job.js"
import type { DatasetRecord, RecordUpsert } from "../domain/Record.js"
import { MAX_RECORDS_PER_BULK } from "../domain/Record.js"
import type { ResponseStatus, ResponseValues } from "../domain/Response.js"
import type { SearchRecordsQuery } from "../domain/Search.js"
import { JobFailed } from "./Errors.js"
import { parseId } from "./lookup.js"
import type { Transport } from "./Transport.js"

export const MAX_RECORDS_PER_DELETE = 100
/** The list and search endpoints' largest page. */
const MAX_PAGE = 1000

/** A dataset as records need it: its id (a `Dataset` from the client, or just `{ id }`). */
export interface DatasetRef {
  readonly id: string
  readonly name?: string | undefined
}

export interface LogProgress {
  readonly batch: number
  readonly batches: number
  /** Records sent so far, out of `total`. */
  readonly sent: number
  readonly total: number
}

export interface LogOptions {
  /** Records per request; default 256, at most 500. */
  readonly batchSize?: number | undefined
  readonly onProgress?: ((progress: LogProgress) => void) | undefined
}

export interface LogResult {
  readonly items: ReadonlyArray<DatasetRecord>
  readonly created: number
  readonly updated: number
}

type SearchQuery = NonNullable<SearchRecordsQuery["query"]>

export interface StreamOptions {
  /** A text to search for, or a whole query (text and/or vector). With a query or filters, the search endpoint. */
  readonly query?: string | SearchQuery | undefined
  readonly filters?: SearchRecordsQuery["filters"] | undefined
  readonly sort?: SearchRecordsQuery["sort"] | undefined
  /** Records per page; default 256, at most 1000. */
  readonly batchSize?: number | undefined
  /** Default `["responses", "suggestions"]`, as the SDK's iteration; add `vectors` or `vectors:<name>`. */
  readonly include?: ReadonlyArray<string> | undefined
}

export interface ApplyOptions {
  /** Which records: a text to search for or a whole query, filters and a sort, as `stream` takes them. */
  readonly query?: string | SearchQuery | undefined
  readonly filters?: SearchRecordsQuery["filters"] | undefined
  readonly sort?: SearchRecordsQuery["sort"] | undefined
  /** Records to leave out (ids, at most 1000). */
  readonly exclude?: ReadonlyArray<string | { readonly id: string }> | undefined
  /** How often the job is asked how far it got; default 500 ms. */
  readonly pollInterval?: Duration.DurationInput | undefined
  readonly onProgress?: ((progress: JobProgress) => void) | undefined
}

/** The caller's answer, applied to each matching record. */
export interface Answer {
  readonly status: ResponseStatus
  readonly values?: ResponseValues | null | undefined
}

const running = (job: Job) => job.status === "queued" || job.status === "started" || job.status === "scheduled" ||
  job.status === "deferred"

/**
 * The SDK's rule: the size used is the smallest of the one asked for (or the default), the records at hand and the
 * maximum, with a warning when a size the caller gave had to change. The default is not the caller's: fewer
 * records than it is no news.
 */
const normaliseBatchSize = (requested: number | undefined, fallback: number, count: number, max: number) => {
  const size = Math.max(1, Math.min(requested ?? fallback, count, max))
  return Effect.as(
    requested === undefined || size === requested
      ? Effect.void
      : Effect.logWarning(`The provided batch size ${requested} was normalized. Using value ${size}.`),
    size
  )
}

const datasetLabel = (dataset: DatasetRef) => dataset.name ?? dataset.id

export const makeRecords = ({ api, call }: Transport) => {
  const datasetId = (dataset: DatasetRef) => parseId(DatasetId, "Dataset", dataset.id)

  const log = Effect.fn("GlossClient.records.log")(
    function*(dataset: DatasetRef, records: ReadonlyArray<RecordUpsert>, options: LogOptions = {}) {
      const id = yield* datasetId(dataset)
      if (records.length === 0) return { items: [], created: 0, updated: 0 } satisfies LogResult
      const size = yield* normaliseBatchSize(options.batchSize, 256, records.length, MAX_RECORDS_PER_BULK)
      const batches = Arr.chunksOf(records, size)
      const items: Array<DatasetRecord> = []
      let updated = 0
      for (const [index, batch] of batches.entries()) {
        const result = yield* call(api.records.bulkUpsert({ path: { id }, payload: { items: batch } }))
        items.push(...result.items)
        updated += result.updated_item_ids?.length ?? 0
        options.onProgress?.({
          batch: index + 1,
          batches: batches.length,
          sent: Math.min((index + 1) * size, records.length),
          total: records.length
        })
      }
      const created = items.length - updated
      yield* Effect.logInfo(`Updated ${updated} records and added ${created} records to dataset ${datasetLabel(dataset)}`)
      return { items, created, updated } satisfies LogResult
    }
  )

  const stream = (dataset: DatasetRef, options: StreamOptions = {}) => {
    const limit = Math.max(1, Math.min(options.batchSize ?? 256, MAX_PAGE))
    const include = options.include ?? ["responses", "suggestions"]
    const query = typeof options.query === "string" ? { text: { q: options.query } } : options.query
    const searching = query !== undefined || options.filters != null || options.sort != null
    const page = (id: DatasetId, offset: number) => {
      const urlParams = { offset, limit, include }
      return searching
        ? Effect.map(
          call(api.search.all({
            path: { id },
            urlParams,
            payload: { query: query ?? null, filters: options.filters ?? null, sort: options.sort ?? null }
          })),
          ({ items }) => items.map(({ record }) => record)
        )
        : Effect.map(call(api.records.list({ path: { id }, urlParams })), ({ items }) => items)
    }
    // Offset paging; a short page is the last one (the SDK asks once more and stops on an empty page).
    return Stream.unwrap(Effect.map(datasetId(dataset), (id) =>
      Stream.paginateChunkEffect(0, (offset) =>
        Effect.map(page(id, offset), (items): readonly [Chunk.Chunk<DatasetRecord>, Option.Option<number>] => [
          Chunk.fromIterable(items),
          items.length < limit ? Option.none() : Option.some(offset + items.length)
        ]))))
  }

  const remove = Effect.fn("GlossClient.records.delete")(
    function*(
      dataset: DatasetRef,
      records: ReadonlyArray<string | { readonly id: string }>,
      options: { readonly batchSize?: number | undefined } = {}
    ) {
      const id = yield* datasetId(dataset)
      if (records.length === 0) return 0
      const ids = records.map((record) => (typeof record === "string" ? record : record.id))
      const size = yield* normaliseBatchSize(options.batchSize, MAX_RECORDS_PER_DELETE, ids.length, MAX_RECORDS_PER_DELETE)
      for (const batch of Arr.chunksOf(ids, size)) {
        yield* call(api.records.deleteMany({ path: { id }, urlParams: { ids: batch.join(",") } }))
      }
      yield* Effect.logInfo(`Deleted ${ids.length} records from dataset ${datasetLabel(dataset)}`)
      return ids.length
    }
  )

  /**
   * The caller's answer to every record a search matches (`POST /me/datasets/{id}/responses/apply`), waiting for
   * the server's job to finish: its final progress, or `JobFailed`.
   */
  const apply = Effect.fn("GlossClient.records.apply")(
    function*(dataset: DatasetRef, answer: Answer, options: ApplyOptions = {}) {
      const id = yield* datasetId(dataset)
      const exclude = yield* Effect.forEach(options.exclude ?? [], (record) =>
        parseId(RecordId, "Record", typeof record === "string" ? record : record.id))
      const query = typeof options.query === "string" ? { text: { q: options.query } } : options.query
      let job = yield* call(api.responses.apply({
        path: { id },
        payload: {
          search: { query: query ?? null, filters: options.filters ?? null, sort: options.sort ?? null },
          status: answer.status,
          values: answer.values ?? null,
          exclude
        }
      }))
      const interval = options.pollInterval ?? Duration.millis(500)
      while (running(job)) {
        yield* Effect.sleep(interval)
        job = yield* call(api.jobs.get({ path: { id: job.id } }))
        if (job.progress !== undefined) options.onProgress?.(job.progress)
      }
      if (job.status !== "finished") return yield* new JobFailed({ id: job.id, status: job.status })
      const progress: JobProgress = job.progress ?? { done: 0, total: 0, failed: 0, errors: [] }
      yield* Effect.logInfo(
        `Applied a ${answer.status} response to ${progress.done - progress.failed} records of dataset ${datasetLabel(dataset)}` +
          (progress.failed > 0 ? ` (${progress.failed} failed)` : "")
      )
      return progress
    }
  )

  return { log, stream, delete: remove, apply }
}

export type Records = ReturnType<typeof makeRecords>
