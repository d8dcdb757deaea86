/**
 * A dataset pushed to a Hub dataset repo in the layout of the SDK's `Dataset.to_hub`, whoever reads its records: the
 * client's `datasets.toHub` pages them over the REST API, the server's export job through its services. The repo is
 * created first (a refused token or a taken name fails before any record is read); the records go through Parquet
 * row groups on a temporary file; settings, dataset model and card are committed with it in one commit, and the
 * split's earlier Parquet files are deleted in that commit, as the SDK's push does.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Chunk, Effect, Stream } from "effect"
import type { DatasetRecord } from "../domain/Record.js"
import type { Dataset } from "./dataset.js"
import { HubRequestFailed } from "./errors.js"
import { addFinalCells, type FinalAnswersOf, withFinalColumns } from "./finalAnswers.js"
import type { CommitFile, makeHubApi } from "./hubApi.js"
import { openParquetWriter } from "./hubParquet.js"
import { hubColumns, recordToRow } from "./hubRows.js"
import { DATASET_FILE, sdkDatasetModel, sdkSettings, SETTINGS_FILE } from "./sdkFormat.js"

/** The subset (`config_name` to `datasets`) whose files sit under `data/`; any other sits under its own folder. */
export const DEFAULT_SUBSET = "default"

export interface PushOptions<E, R> {
  readonly hub: ReturnType<typeof makeHubApi>
  readonly repoId: string
  readonly dataset: Dataset
  /** The records, or none for the settings files and the card only. */
  readonly records?: { readonly total: number; readonly stream: Stream.Stream<DatasetRecord, E, R> } | undefined
  /**
   * The final answers of each page of records, by record id: given, each question has a `<question>.final` column
   * (which the SDK's `from_hub` ignores). The server's export job gives them; the client's `toHub` does not.
   */
  readonly finalAnswers?: ((records: ReadonlyArray<DatasetRecord>) => Effect.Effect<FinalAnswersOf, E, R>) | undefined
  readonly private: boolean
  readonly split: string
  readonly subset?: string | undefined
  /** Called after each row group is written (`records`), and once before the commit (`upload`). */
  readonly onProgress?: ((progress: { phase: "records" | "upload"; done: number; total: number }) => Effect.Effect<void>) | undefined
  /** Files above this size go through LFS (default 1 MiB). */
  readonly inlineLimit?: number | undefined
  readonly message: string
}

/** Records per Parquet row group appended at a time (the writer's own row groups are `ROW_GROUP_SIZE`). */
const PAGE = 1000

export const tempDir = (prefix: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => mkdtemp(join(tmpdir(), prefix)),
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

/** The split's Parquet file: `data/` for the default subset, the subset's folder otherwise (as `push_to_hub`). */
export const splitFile = (split: string, subset: string = DEFAULT_SUBSET) =>
  `${subset === DEFAULT_SUBSET ? "data" : subset}/${split}-00000-of-00001.parquet`

const card = (repoId: string, dataset: Dataset, count: number, split: string, subset: string) =>
  [
    "---",
    "size_categories: " + sizeCategory(count),
    "tags:",
    "- rlfh",
    "- argilla",
    "- human-feedback",
    // A subset other than the default is declared, so that `load_dataset(repo, subset)` finds its files.
    ...(subset === DEFAULT_SUBSET ? [] : [
      "configs:",
      `- config_name: ${JSON.stringify(subset)}`,
      "  data_files:",
      `  - split: ${JSON.stringify(split)}`,
      `    path: ${JSON.stringify(`${subset}/${split}-*`)}`
    ]),
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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** Pushes the dataset; answers how many records went. */
export const pushDataset = <E, R>(options: PushOptions<E, R>) =>
  Effect.scoped(Effect.gen(function*() {
    const { dataset, hub, repoId, split } = options
    const subset = options.subset ?? DEFAULT_SUBSET
    const report = options.onProgress ?? (() => Effect.void)
    yield* hub.createRepo({ private: options.private })
    const dir = yield* tempDir("gloss-hub-")
    const files: Array<CommitFile> = []
    let count = 0
    if (options.records !== undefined) {
      const { stream, total } = options.records
      const parquetPath = join(dir, "records.parquet")
      const { finalAnswers } = options
      const columns = hubColumns(dataset.settings)
      const writer = yield* openParquetWriter(
        parquetPath,
        finalAnswers === undefined ? columns : withFinalColumns(columns, dataset.settings)
      )
      yield* stream.pipe(
        Stream.grouped(PAGE),
        Stream.runForEach((chunk) =>
          Effect.gen(function*() {
            const page = Chunk.toReadonlyArray(chunk)
            const finals = finalAnswers === undefined ? undefined : yield* finalAnswers(page)
            const rows = page.map((record) => {
              const row = recordToRow(record, dataset.settings)
              return finals === undefined ? row : addFinalCells(row, record, dataset.settings, finals)
            })
            count += rows.length
            yield* writer.append(rows)
            yield* report({ phase: "records", done: count, total: Math.max(total, count) })
          })
        )
      )
      yield* writer.close
      files.push({ path: splitFile(split, subset), localPath: parquetPath })
    }
    yield* write(join(dir, "settings.json"), JSON.stringify(sdkSettings(dataset)))
    yield* write(join(dir, "dataset.json"), JSON.stringify(sdkDatasetModel(dataset)))
    yield* write(join(dir, "README.md"), card(repoId, dataset, count, split, subset))
    files.push(
      { path: SETTINGS_FILE, localPath: join(dir, "settings.json") },
      { path: DATASET_FILE, localPath: join(dir, "dataset.json") },
      { path: "README.md", localPath: join(dir, "README.md") }
    )
    yield* report({ phase: "upload", done: count, total: count })
    const ours = new Set(files.map((file) => file.path))
    const folder = subset === DEFAULT_SUBSET ? "data" : escapeRegExp(subset)
    const stale = options.records === undefined ? [] : (yield* hub.listFiles()).map((file) => file.path).filter((path) =>
      !ours.has(path) && new RegExp(`^${folder}/${escapeRegExp(split)}-[^/]*\\.parquet$`).test(path)
    )
    yield* hub.commit(files, options.message, { inlineLimit: options.inlineLimit, delete: stale })
    return count
  }))
