/**
 * `datasets.toHub` / `datasets.fromHub` (issue 21): a dataset to and from a Hugging Face Hub dataset repo in the
 * layout the Argilla SDK's `Dataset.to_hub` writes — the records as `data/<split>-00000-of-00001.parquet`
 * (`hubRows.ts`, `hubParquet.ts`), `.argilla/settings.json` and `.argilla/dataset.json` (the disk format's,
 * `sdkFormat.ts`) and a README dataset card — in one commit (`hubApi.ts`). Records are paged from the server into
 * Parquet row groups on a temporary file, and read back a row group at a time into bulk upserts: the dataset is never
 * held whole.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Schema, Stream } from "effect"
import type { UserId } from "../../domain/Ids.js"
import { MAX_RECORDS_PER_BULK } from "../../domain/Record.js"
import type { Dataset, makeDatasetSettings } from "../datasetSettings.js"
import { DatasetNameTaken, HubRepoNotFound, HubRequestFailed } from "../Errors.js"
import type { User } from "../../domain/User.js"
import type { Records } from "../Records.js"
import type { Users } from "../Users.js"
import type { Transport } from "../Transport.js"
import type { WorkspaceRef, Workspaces } from "../Workspaces.js"
import type { TransferProgress } from "./disk.js"
import { failedImport, importFailureReason, type RefusedBatch } from "./failedImport.js"
import { type CommitFile, makeHubApi } from "../../transfer/hubApi.js"
import { openParquetFile, openParquetWriter } from "../../transfer/hubParquet.js"
import { hubColumns, recordToRow, rowToRecord } from "../../transfer/hubRows.js"
import {
  DATASET_FILE,
  draftOf,
  SdkDatasetModel,
  SdkSettings,
  sdkDatasetModel,
  sdkSettings,
  SETTINGS_FILE
} from "../../transfer/sdkFormat.js"

export interface HubProgress extends TransferProgress {
  /** `records`: records paged into the Parquet file (export) or imported (import); `upload` / `download`: files. */
  readonly phase: "records" | "upload" | "download"
}

export interface ToHubOptions {
  /** A Hugging Face token with write access (default: `HF_TOKEN`). */
  readonly token?: string | undefined
  /** Default false (the repo is created public, as `huggingface_hub` does). */
  readonly private?: boolean | undefined
  /** Default `train`. */
  readonly split?: string | undefined
  /** Default true: without, only the settings files and the card. */
  readonly withRecords?: boolean | undefined
  readonly onProgress?: ((progress: HubProgress) => void) | undefined
  /** Default `HF_ENDPOINT`, else `https://huggingface.co`. */
  readonly endpoint?: string | undefined
  /** Files above this size go through LFS (default 1 MiB). */
  readonly inlineLimit?: number | undefined
}

export interface FromHubOptions {
  /** Default: `HF_TOKEN`; public repos need none. */
  readonly token?: string | undefined
  /** Default: the exported dataset's name (`.argilla/dataset.json`), as `fromDisk`. */
  readonly name?: string | undefined
  readonly workspace: WorkspaceRef
  /** Default `train` when there is one, else the first split found. */
  readonly split?: string | undefined
  readonly withRecords?: boolean | undefined
  /** When a batch fails: keep the dataset with the records imported before it (default: delete the dataset). */
  readonly keepPartial?: boolean | undefined
  readonly onProgress?: ((progress: HubProgress) => void) | undefined
  readonly endpoint?: string | undefined
}

export interface ToHubResult {
  readonly repoId: string
  readonly records: number
  readonly split: string
  readonly url: string
}

export interface FromHubResult {
  readonly dataset: Dataset
  readonly records: number
  readonly split: string | undefined
}

const PAGE = 1000

const tempDir = Effect.acquireRelease(
  Effect.tryPromise({
    try: () => mkdtemp(join(tmpdir(), "gloss-hub-")),
    catch: (cause) => new HubRequestFailed({ operation: "create a temporary folder", detail: String(cause) })
  }),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

const write = (path: string, text: string) =>
  Effect.tryPromise({
    try: () => writeFile(path, text),
    catch: (cause) => new HubRequestFailed({ operation: `write ${path}`, detail: String(cause) })
  })

const sizeCategory = (count: number) =>
  count < 1000 ? "n<1K" : count < 10_000 ? "1K<n<10K" : count < 100_000 ? "10K<n<100K" : count < 1_000_000
    ? "100K<n<1M"
    : "1M<n<10M"

const card = (repoId: string, dataset: Dataset, count: number) =>
  [
    "---",
    "size_categories: " + sizeCategory(count),
    "tags:",
    "- rlfh",
    "- argilla",
    "- human-feedback",
    "---",
    "",
    `# Dataset Card for ${repoId.split("/").pop() ?? repoId}`,
    "",
    "This dataset was exported from Gloss in the layout of Argilla's `Dataset.to_hub`: load it with",
    "`rg.Dataset.from_hub(\"" + repoId + "\", settings=\"auto\")` or Gloss's `datasets.fromHub`, or its records with",
    "`datasets.load_dataset(\"" + repoId + "\")`.",
    "",
    "## Fields",
    "",
    ...dataset.settings.fields.map((field) => `- \`${field.name}\` (${field.settings.type})`),
    "",
    "## Questions",
    "",
    ...dataset.settings.questions.map((question) => `- \`${question.name}\` (${question.settings.type})`),
    "",
    ...(dataset.guidelines ? ["## Guidelines", "", dataset.guidelines, ""] : [])
  ].join("\n")

export interface HubTransferDeps<E> {
  readonly transport: Transport
  readonly workspaces: Workspaces
  readonly datasetSettings: ReturnType<typeof makeDatasetSettings>
  readonly records: Records
  readonly users: Users
  readonly me: Effect.Effect<User, E>
}

export const makeHubTransfer = <E>(client: HubTransferDeps<E>) => {
  const { api, call } = client.transport
  const toHub = Effect.fn("GlossClient.datasets.toHub")(function*(dataset: Dataset, repoId: string, options: ToHubOptions = {}) {
    const split = options.split ?? "train"
    const hub = makeHubApi(repoId, { endpoint: options.endpoint, token: options.token ?? process.env["HF_TOKEN"] })
    return yield* Effect.scoped(Effect.gen(function*() {
      // The repo first: a refused token or a taken name fails before any record is read.
      yield* hub.createRepo({ private: options.private ?? false })
      const dir = yield* tempDir
      const files: Array<CommitFile> = []
      let count = 0
      if (options.withRecords ?? true) {
        const { total } = yield* call(api.records.list({ path: { id: dataset.id }, urlParams: { offset: 0, limit: 1 } }))
        const parquetPath = join(dir, "records.parquet")
        const writer = yield* openParquetWriter(parquetPath, hubColumns(dataset.settings))
        yield* client.records.stream(dataset, { batchSize: PAGE, include: ["responses", "suggestions", "vectors"] }).pipe(
          Stream.grouped(PAGE),
          Stream.runForEach((chunk) => {
            const rows = Array.from(chunk, (record) => recordToRow(record, dataset.settings))
            count += rows.length
            options.onProgress?.({ phase: "records", done: count, total: Math.max(total, count) })
            return writer.append(rows)
          })
        )
        yield* writer.close
        files.push({ path: `data/${split}-00000-of-00001.parquet`, localPath: parquetPath })
      }
      yield* write(join(dir, "settings.json"), JSON.stringify(sdkSettings(dataset)))
      yield* write(join(dir, "dataset.json"), JSON.stringify(sdkDatasetModel(dataset)))
      yield* write(join(dir, "README.md"), card(repoId, dataset, count))
      files.push(
        { path: SETTINGS_FILE, localPath: join(dir, "settings.json") },
        { path: DATASET_FILE, localPath: join(dir, "dataset.json") },
        { path: "README.md", localPath: join(dir, "README.md") }
      )
      options.onProgress?.({ phase: "upload", done: count, total: count })
      // As the SDK's push: the split's earlier shards go in the same commit (a repo pushed to again, by either side).
      const ours = new Set(files.map((file) => file.path))
      const stale = (yield* hub.listFiles()).map((file) => file.path).filter((path) =>
        !ours.has(path) && (options.withRecords ?? true) && new RegExp(`^data/${escapeRegExp(split)}-[^/]*\\.parquet$`).test(path)
      )
      yield* hub.commit(files, `Upload dataset ${dataset.name} from Gloss`, { inlineLimit: options.inlineLimit, delete: stale })
      yield* Effect.logInfo(`Pushed ${count} records of dataset ${dataset.name} to ${hub.endpoint}/datasets/${repoId}`)
      const result: ToHubResult = { repoId, records: count, split, url: `${hub.endpoint}/datasets/${repoId}` }
      return result
    }))
  })

  const fromHub = Effect.fn("GlossClient.datasets.fromHub")(function*(repoId: string, options: FromHubOptions) {
    const hub = makeHubApi(repoId, { endpoint: options.endpoint, token: options.token ?? process.env["HF_TOKEN"] })
    const listed = yield* hub.listFiles()
    const parquets = listed.map((file) => file.path).filter((path) => path.endsWith(".parquet"))
    const splitOf = (path: string) => (path.split("/").pop() ?? path).split("-")[0] ?? ""
    const splits = [...new Set(parquets.map(splitOf))]
    const split = options.split ?? (splits.includes("train") ? "train" : splits[0])
    const withRecords = options.withRecords ?? true
    const shards = parquets.filter((path) => splitOf(path) === split).sort()
    if (withRecords && options.split !== undefined && shards.length === 0) {
      return yield* new HubRepoNotFound({ repoId, detail: `no split '${options.split}' (splits: ${splits.join(", ") || "none"})` })
    }
    const decode = <A, I>(schema: Schema.Schema<A, I>, path: string, text: string) =>
      Effect.mapError(
        Schema.decodeUnknown(Schema.parseJson(schema))(text),
        (error) => new HubRequestFailed({ operation: `read ${path}`, detail: error.message })
      )
    const settings = yield* decode(SdkSettings, SETTINGS_FILE, yield* hub.text(SETTINGS_FILE))
    const model = yield* decode(SdkDatasetModel, DATASET_FILE, yield* hub.text(DATASET_FILE))
    const workspace = yield* client.workspaces.resolve(options.workspace)
    const name = options.name ?? model.name
    const { items } = yield* call(api.datasets.listMine({ urlParams: { workspace_id: workspace.id } }))
    if (items.some((dataset) => dataset.name === name && dataset.workspace_id === workspace.id)) {
      return yield* new DatasetNameTaken({ name, workspace: workspace.name })
    }
    return yield* Effect.scoped(Effect.gen(function*() {
      const dir = yield* tempDir
      // Every shard is on disk before the dataset exists: a failed download creates nothing.
      const files = []
      for (const [index, shard] of (withRecords ? shards : []).entries()) {
        const localPath = join(dir, `shard-${index}.parquet`)
        options.onProgress?.({ phase: "download", done: index, total: shards.length })
        yield* hub.download(shard, localPath)
        files.push(yield* openParquetFile(localPath))
      }
      const total = files.reduce((sum, file) => sum + file.rows, 0)
      const dataset = yield* client.datasetSettings.create(draftOf(model, settings, name, workspace.name), workspace)
      const result = (records: number): FromHubResult => ({ dataset, records, split })
      if (files.length === 0) return result(0)
      const me = yield* client.me
      // The SDK's rule: responses of users this server does not know become the importing user's.
      const known = new Map<string, UserId>((yield* client.users.list()).map((user) => [user.id, user.id]))
      const user = (id: string): UserId => known.get(id) ?? me.id
      let done = 0
      const ingest = Effect.forEach(files, (file) =>
        Effect.forEach(file.rowGroups, (group) =>
          Effect.gen(function*() {
            const rows = yield* group
            const upserts = rows.map((row, i) =>
              rowToRecord(row, { settings: dataset.settings, features: file.features, user, fallbackId: `${split}_${done + i}` })
            )
            for (let start = 0; start < upserts.length; start += MAX_RECORDS_PER_BULK) {
              const batch = upserts.slice(start, start + MAX_RECORDS_PER_BULK)
              yield* call(api.records.bulkUpsert({ path: { id: dataset.id }, payload: { items: batch } })).pipe(
                Effect.mapError((error): RefusedBatch => ({ error, first: done + 1, size: batch.length }))
              )
              done += batch.length
              options.onProgress?.({ phase: "records", done, total })
            }
          })), { discard: true })
      yield* ingest.pipe(Effect.catchAll((failure) =>
        failedImport(client.transport, dataset, { keepPartial: options.keepPartial, done, total, reason: importFailureReason(failure) })
      ))
      yield* Effect.logInfo(`Imported dataset ${dataset.name} with ${done} records from ${hub.endpoint}/datasets/${repoId}`)
      return result(done)
    }))
  })

  return { toHub, fromHub }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
