/**
 * `datasets.toHub` / `datasets.fromHub`: a dataset to and from a Hugging Face Hub dataset repo in the
 * layout the Argilla SDK's `Dataset.to_hub` writes — the records as `data/<split>-00000-of-00001.parquet`,
 * `.argilla/settings.json` and `.argilla/dataset.json` (the disk format's) and a README dataset card — in one commit
 * (`src/transfer/hubPush.ts`, shared with the server's export job). Records are paged from the server into Parquet
 * row groups on a temporary file, and read back a row group at a time into bulk upserts: the dataset is never
 * held whole.
 */
import { join } from "node:path"
import { Effect, Schema } from "effect"
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
import { makeHubApi } from "../../transfer/hubApi.js"
import { openParquetFile } from "../../transfer/hubParquet.js"
import { pushDataset, tempDir } from "../../transfer/hubPush.js"
import { rowToRecord } from "../../transfer/hubRows.js"
import {
  DATASET_FILE,
  draftOf,
  SdkDatasetModel,
  SdkSettings,
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
    const records = (options.withRecords ?? true)
      ? {
        total: (yield* call(api.records.list({ path: { id: dataset.id }, urlParams: { offset: 0, limit: 1 } }))).total,
        stream: client.records.stream(dataset, { batchSize: PAGE, include: ["responses", "suggestions", "vectors"] })
      }
      : undefined
    const count = yield* pushDataset({
      hub,
      repoId,
      dataset,
      records,
      private: options.private ?? false,
      split,
      inlineLimit: options.inlineLimit,
      message: `Upload dataset ${dataset.name} from Gloss`,
      onProgress: (progress) => Effect.sync(() => options.onProgress?.(progress))
    })
    yield* Effect.logInfo(`Pushed ${count} records of dataset ${dataset.name} to ${hub.endpoint}/datasets/${repoId}`)
    const result: ToHubResult = { repoId, records: count, split, url: `${hub.endpoint}/datasets/${repoId}` }
    return result
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
      const dir = yield* tempDir("gloss-hub-")
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

