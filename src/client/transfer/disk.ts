/**
 * `datasets.toDisk` / `datasets.fromDisk`: a dataset in the folder layout of the Argilla SDK 2.8's
 * `Dataset.to_disk` — `.argilla/dataset.json`, `.argilla/settings.json`, `records.json` — so that a folder either
 * side writes, the other imports. Records are streamed both ways: written page by page as the server hands them
 * out, read a piece of the file at a time and sent in batches. An import is atomic: when a batch fails, the new
 * dataset is deleted (or, with `keepPartial`, kept and the error says how many records it holds).
 */
import * as fs from "node:fs"
import * as fsp from "node:fs/promises"
import * as path from "node:path"
import { Chunk, Effect, Option, ParseResult, Schema, Stream } from "effect"
import type { DatasetRecord } from "../../domain/Record.js"
import { MAX_RECORDS_PER_BULK } from "../../domain/Record.js"
import type { Dataset, makeDatasetSettings } from "../datasetSettings.js"
import { DatasetNameTaken, InvalidExportFile, TransferFileError } from "../Errors.js"
import type { Transport } from "../Transport.js"
import type { WorkspaceRef, Workspaces } from "../Workspaces.js"
import { failedImport, importFailureReason, type RefusedBatch } from "./failedImport.js"
import { jsonArrayReader, jsonArrayText } from "../../codecs/jsonArray.js"
import {
  DATASET_FILE,
  draftOf,
  questionIndex,
  RECORDS_FILE,
  SdkDatasetModel,
  sdkDatasetModel,
  SdkRecord,
  sdkRecord,
  SdkSettings,
  sdkSettings,
  SETTINGS_FILE,
  upsertOf
} from "../../transfer/sdkFormat.js"

export interface TransferProgress {
  /** Records written (export) or imported (import) so far, out of `total`. */
  readonly done: number
  readonly total: number
}

export interface ToDiskOptions {
  /** Default `true`: `false` writes the dataset and its settings only, as the SDK's `with_records=False`. */
  readonly withRecords?: boolean | undefined
  /** Records per page read from the server; default 500, at most 1000. */
  readonly batchSize?: number | undefined
  readonly onProgress?: ((progress: TransferProgress) => void) | undefined
}

export interface FromDiskOptions {
  /** The new dataset's name; default: the exported dataset's. */
  readonly name?: string | undefined
  readonly workspace: WorkspaceRef
  /** Default `true`: `false` creates the dataset with its settings and imports no record. */
  readonly withRecords?: boolean | undefined
  /** Records per request; default 500 (the most the API takes). */
  readonly batchSize?: number | undefined
  /** When a batch fails: keep the dataset with the records imported before it (default: delete the dataset). */
  readonly keepPartial?: boolean | undefined
  readonly onProgress?: ((progress: TransferProgress) => void) | undefined
}

export interface ToDiskResult {
  readonly dir: string
  readonly records: number
}

export interface FromDiskResult {
  readonly dataset: Dataset
  readonly records: number
}

const fileError = (file: string) => (error: unknown) =>
  new TransferFileError({ path: file, detail: error instanceof Error ? error.message : String(error) })

const attempt = <A>(file: string, run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: fileError(file) })

/** The first problem of a schema failure, with its path, on one line. */
const oneLine = (error: ParseResult.ParseError) => {
  const [first] = ParseResult.ArrayFormatter.formatErrorSync(error)
  if (first === undefined) return error.message.replace(/\s*\n\s*/g, " ")
  const where = first.path.length === 0 ? "" : `${first.path.map(String).join(".")}: `
  return `${where}${first.message.replace(/\s*\n\s*/g, " ")}`
}

const readJsonFile = <A, I>(file: string, schema: Schema.Schema<A, I>) =>
  Effect.gen(function*() {
    const text = yield* attempt(file, () => fsp.readFile(file, "utf8"))
    const json = yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (error) => new InvalidExportFile({ path: file, detail: `not JSON (${String(error)})` })
    })
    return yield* Schema.decodeUnknown(schema)(json).pipe(
      Effect.mapError((error) => new InvalidExportFile({ path: file, detail: oneLine(error) }))
    )
  })

const exists = (file: string) => Effect.promise(() => fsp.access(file).then(() => true, () => false))

/** `records.json` a piece at a time, each record as the file has it (JSON text), numbered from 1. */
const recordTexts = (file: string) =>
  Stream.suspend(() => {
    const reader = jsonArrayReader()
    const pieces = Stream.fromAsyncIterable(
      fs.createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 }),
      fileError(file)
    ).pipe(Stream.map((piece) => (typeof piece === "string" ? piece : piece.toString("utf8"))))
    const malformed = (detail: string) => new InvalidExportFile({ path: file, detail })
    return pieces.pipe(
      Stream.mapConcatEffect((piece) => {
        const pushed = reader.push(piece)
        return pushed._tag === "Elements" ? Effect.succeed(pushed.elements) : Effect.fail(malformed(pushed.detail))
      }),
      Stream.concat(Stream.execute(Effect.suspend(() => {
        const problem = reader.end()
        return problem === undefined ? Effect.void : Effect.fail(malformed(problem))
      })))
    )
  })

const decodeRecord = Schema.decodeUnknownEither(SdkRecord)

/** `records.json`'s records, parsed and checked against the SDK's record shape, an error naming the record. */
const sdkRecords = (file: string) =>
  Stream.suspend(() => {
    let index = 0
    return recordTexts(file).pipe(Stream.mapEffect((text) => {
      index++
      const invalid = (detail: string) => new InvalidExportFile({ path: file, detail: `record ${index}: ${detail}` })
      return Effect.try({ try: (): unknown => JSON.parse(text), catch: (error) => invalid(`not JSON (${String(error)})`) })
        .pipe(Effect.flatMap((json) => {
          const decoded = decodeRecord(json)
          return decoded._tag === "Right" ? Effect.succeed(decoded.right) : Effect.fail(invalid(oneLine(decoded.left)))
        }))
    }))
  })

/**
 * How many records the file holds, every one of them read and checked: a file that is cut short or holds something
 * other than the SDK's records fails here, before any dataset is created (the progress needs the total too).
 */
const checkRecords = (file: string) => Stream.runCount(sdkRecords(file))

export const makeDiskTransfer = (
  transport: Transport,
  workspaces: Workspaces,
  { create }: ReturnType<typeof makeDatasetSettings>
) => {
  const { api, call } = transport
  /** The dataset's records page by page, with responses, suggestions and vectors, and how many there are. */
  const pages = (dataset: Dataset, limit: number) => {
    const include = ["responses", "suggestions", "vectors"]
    return Stream.paginateChunkEffect(0, (offset) =>
      Effect.map(
        call(api.records.list({ path: { id: dataset.id }, urlParams: { offset, limit, include } })),
        ({ items }): readonly [Chunk.Chunk<ReadonlyArray<DatasetRecord>>, Option.Option<number>] => [
          Chunk.of(items),
          items.length < limit ? Option.none() : Option.some(offset + items.length)
        ]
      ))
  }

  const toDisk = Effect.fn("GlossClient.datasets.toDisk")(
    function*(dataset: Dataset, dir: string, options: ToDiskOptions = {}) {
      const root = path.resolve(dir)
      yield* attempt(root, () => fsp.mkdir(root, { recursive: true }))
      const present = yield* attempt(root, () => fsp.readdir(root))
      if (present.length > 0) {
        return yield* new TransferFileError({ path: root, detail: "the folder is not empty: export into a new or empty folder" })
      }
      const written: Array<string> = []
      const write = (file: string, text: string) =>
        Effect.zipRight(Effect.sync(() => written.push(file)), attempt(file, () => fsp.writeFile(file, text, { flag: "wx" })))
      const work = Effect.gen(function*() {
        yield* attempt(root, () => fsp.mkdir(path.join(root, ".argilla")))
        yield* write(path.join(root, DATASET_FILE), JSON.stringify(sdkDatasetModel(dataset)))
        yield* write(path.join(root, SETTINGS_FILE), JSON.stringify(sdkSettings(dataset)))
        if (options.withRecords === false) return 0
        const limit = Math.max(1, Math.min(options.batchSize ?? 500, 1000))
        const { total } = yield* call(api.records.list({ path: { id: dataset.id }, urlParams: { offset: 0, limit: 1 } }))
        const file = path.join(root, RECORDS_FILE)
        written.push(file)
        const handle = yield* attempt(file, () => fsp.open(file, "wx"))
        const append = (text: string) => attempt(file, () => handle.write(text).then(() => undefined))
        const questions = questionIndex(dataset.settings.questions)
        const array = jsonArrayText()
        let done = 0
        yield* Effect.ensuring(
          Effect.gen(function*() {
            yield* append(array.open)
            // The next page is fetched while this one is written.
            yield* pages(dataset, limit).pipe(Stream.buffer({ capacity: 1 }), Stream.runForEach((items) =>
              Effect.gen(function*() {
                yield* append(array.elements(items.map((record) => sdkRecord(record, questions))))
                done += items.length
                options.onProgress?.({ done, total: Math.max(total, done) })
              })
            ))
            yield* append(array.close)
          }),
          Effect.promise(() => handle.close().catch(() => undefined))
        )
        return done
      })
      const records = yield* work.pipe(
        // A failed export leaves no half folder: what it wrote is removed.
        Effect.tapError(() =>
          Effect.promise(async () => {
            for (const file of written.reverse()) await fsp.rm(file, { force: true })
            await fsp.rm(path.join(root, ".argilla"), { recursive: true, force: true })
          })
        )
      )
      yield* Effect.logInfo(`Exported dataset ${dataset.name} with ${records} records to ${root}`)
      const result: ToDiskResult = { dir: root, records }
      return result
    }
  )

  const fromDisk = Effect.fn("GlossClient.datasets.fromDisk")(function*(dir: string, options: FromDiskOptions) {
    const root = path.resolve(dir)
    const model = yield* readJsonFile(path.join(root, DATASET_FILE), SdkDatasetModel)
    const settings = yield* readJsonFile(path.join(root, SETTINGS_FILE), SdkSettings)
    const workspace = yield* workspaces.resolve(options.workspace)
    const name = options.name ?? model.name
    const { items } = yield* call(api.datasets.listMine({ urlParams: { workspace_id: workspace.id } }))
    if (items.some((dataset) => dataset.name === name && dataset.workspace_id === workspace.id)) {
      return yield* new DatasetNameTaken({ name, workspace: workspace.name })
    }
    const file = path.join(root, RECORDS_FILE)
    const withRecords = options.withRecords !== false && (yield* exists(file))
    const total = withRecords ? yield* checkRecords(file) : 0
    const dataset = yield* create(draftOf(model, settings, name, workspace.name), workspace)
    if (!withRecords) return { dataset, records: 0 } satisfies FromDiskResult

    const questions = questionIndex(dataset.settings.questions).byName
    const size = Math.max(1, Math.min(options.batchSize ?? MAX_RECORDS_PER_BULK, MAX_RECORDS_PER_BULK))
    let done = 0
    const ingest = sdkRecords(file).pipe(
      Stream.grouped(size),
      // The next batch is read while this one is sent; batches are still sent one after the other, in file order.
      Stream.buffer({ capacity: 1 }),
      Stream.runForEach((chunk) =>
        Effect.gen(function*() {
          const batch = Chunk.toReadonlyArray(chunk).map((record) => upsertOf(record, questions))
          yield* call(api.records.bulkUpsert({ path: { id: dataset.id }, payload: { items: batch } })).pipe(
            Effect.mapError((error): RefusedBatch => ({ error, first: done + 1, size: batch.length }))
          )
          done += batch.length
          options.onProgress?.({ done, total })
        })
      )
    )
    yield* ingest.pipe(Effect.catchAll((failure) =>
      failedImport(transport, dataset, { keepPartial: options.keepPartial, done, total, reason: importFailureReason(failure) })
    ))
    yield* Effect.logInfo(`Imported dataset ${dataset.name} with ${done} records from ${root}`)
    return { dataset, records: done } satisfies FromDiskResult
  })

  return { toDisk, fromDisk }
}
