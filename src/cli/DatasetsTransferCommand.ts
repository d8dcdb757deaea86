/**
 * `gloss datasets export` and `gloss datasets import`: a dataset to and from a folder in the Argilla SDK's
 * `to_disk` layout, through the client (`datasets.toDisk` / `fromDisk`) against the server that `gloss login` (or
 * GLOSS_API_URL / GLOSS_API_KEY) names. Progress on stderr; the result on stdout; a failure is one line that says
 * what was imported. A target is a folder or `hub:org/name` (`transferTarget`; the Hub branch is the Hub transfer's).
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Logger, LogLevel, Option, Schema } from "effect"
import {
  HubRepoNotFound,
  HubRequestFailed,
  HubUnauthorized,
  InvalidExportFile,
  TransferFileError
} from "../client/Errors.js"
import { GlossClient } from "../client/GlossClient.js"
import type { TransferProgress } from "../client/transfer/disk.js"
import type { HubProgress } from "../client/transfer/hub.js"
import { MAX_RECORDS_PER_BULK } from "../domain/Record.js"

/** Why an export or import did not happen, worded for the person at the terminal. */
export class TransferFailed extends Schema.TaggedError<TransferFailed>()("TransferFailed", { reason: Schema.String }) {
  override get message() {
    return this.reason
  }
}

/** Where a dataset goes to or comes from: a folder, or a dataset repository on the Hugging Face Hub. */
export type TransferTarget =
  | { readonly _tag: "Disk"; readonly dir: string }
  | { readonly _tag: "Hub"; readonly repoId: string }

/** `hub:org/name` is a Hub repository; anything else is a folder. */
export const transferTarget = (text: string): TransferTarget =>
  text.startsWith("hub:") ? { _tag: "Hub", repoId: text.slice("hub:".length) } : { _tag: "Disk", dir: text }

/**
 * The client's file and Hub errors keep the problem in `detail`, which the command line's failure message would
 * show alone: here they are worded whole.
 */
const withPath = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(effect, (error) =>
    error instanceof TransferFileError || error instanceof InvalidExportFile || error instanceof HubUnauthorized ||
      error instanceof HubRepoNotFound || error instanceof HubRequestFailed
      ? new TransferFailed({ reason: error.message })
      : error)

/** `--token`, else `HF_TOKEN` (as huggingface_hub reads it). */
const hubToken = (token: Option.Option<string>) => Option.getOrUndefined(Option.orElse(token, () =>
  Option.fromNullable(process.env["HF_TOKEN"]).pipe(Option.filter((value) => value.length > 0))))

const tokenOption = Options.text("token").pipe(
  Options.optional,
  Options.withDescription("Hugging Face token for hub: targets; default: HF_TOKEN")
)
const splitOption = (description: string) => Options.text("split").pipe(Options.optional, Options.withDescription(description))

/** The Hub transfer reports downloads and uploads too; the bar shows the records. */
const recordsOnly = (onProgress: (progress: TransferProgress) => void) => (progress: HubProgress) => {
  if (progress.phase === "records") onProgress(progress)
}

export interface ProgressOutput {
  readonly isTTY?: boolean | undefined
  readonly write: (text: string) => unknown
}

/** A bar redrawn in place on a terminal, a plain line per batch anywhere else (as `gloss records import`). */
export const transferProgress = (out: ProgressOutput, verb: string) => {
  const redraw = out.isTTY === true
  let drawn = false
  const bar = ({ done, total }: TransferProgress) => {
    const width = 30
    const filled = Math.min(width, Math.round((done / Math.max(total, 1)) * width))
    return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} records`
  }
  return {
    onProgress: (progress: TransferProgress) => {
      drawn = true
      out.write(redraw ? `\r${bar(progress)}` : `${progress.done}/${progress.total} records ${verb}\n`)
    },
    /** Ends the bar's line, so that what follows starts on a line of its own. */
    end: () => {
      if (redraw && drawn) out.write("\n")
    }
  }
}

/** The client's info logs would repeat on stdout what the command prints; its warnings still show. */
const quiet = Logger.withMinimumLogLevel(LogLevel.Warning)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const workspaceOption = (description: string) => Options.text("workspace").pipe(Options.withDescription(description))

const exportCommand = Command.make("export", {
  dataset: Args.text({ name: "dataset" }).pipe(Args.withDescription("The dataset's id, or its name (with --workspace)")),
  target: Args.text({ name: "target" }).pipe(
    Args.withDescription("A new or empty folder (or hub:org/name for the Hugging Face Hub)")
  ),
  workspace: workspaceOption("The workspace of a dataset given by name; default: your default workspace").pipe(
    Options.optional
  ),
  noRecords: Options.boolean("no-records").pipe(Options.withDescription("Write the dataset and its settings only")),
  token: tokenOption,
  private: Options.boolean("private").pipe(Options.withDescription("Create the hub: repository private")),
  split: splitOption("The split the records go to on the Hub; default: train")
}, (args) =>
  Effect.gen(function*() {
    const client = yield* GlossClient.fromCredentials()
    const workspace = Option.getOrUndefined(args.workspace)
    const found = UUID.test(args.dataset)
      ? yield* client.datasets.get({ id: args.dataset })
      : yield* client.datasets.get(workspace === undefined ? { name: args.dataset } : { name: args.dataset, workspace })
    if (Option.isNone(found)) {
      const where = workspace === undefined ? "" : ` in workspace '${workspace}'`
      return yield* new TransferFailed({ reason: `no dataset '${args.dataset}' found${where}` })
    }
    const dataset = found.value
    const target = transferTarget(args.target)
    const progress = transferProgress(process.stderr, "exported")
    if (target._tag === "Hub") {
      const token = hubToken(args.token)
      if (token === undefined) {
        return yield* new TransferFailed({ reason: `hub:${target.repoId}: a Hugging Face token is needed: --token or HF_TOKEN` })
      }
      const pushed = yield* client.datasets.toHub(dataset, target.repoId, {
        token,
        private: args.private,
        split: Option.getOrUndefined(args.split),
        withRecords: !args.noRecords,
        onProgress: recordsOnly(progress.onProgress)
      }).pipe(withPath, Effect.ensuring(Effect.sync(progress.end)))
      return yield* Console.log(
        `Exported dataset ${dataset.name} (${pushed.records} records) to ${pushed.url} (split ${pushed.split})`
      )
    }
    const result = yield* client.datasets.toDisk(dataset, target.dir, {
      withRecords: !args.noRecords,
      onProgress: progress.onProgress
    }).pipe(withPath, Effect.ensuring(Effect.sync(progress.end)))
    yield* Console.log(`Exported dataset ${dataset.name} (${result.records} records) to ${result.dir}`)
  }).pipe(Effect.scoped, quiet)).pipe(
  Command.withDescription(
    "Export a dataset — its settings, records, responses, suggestions and vectors — into a folder in the layout of " +
      "the Argilla SDK's Dataset.to_disk (.argilla/dataset.json, .argilla/settings.json, records.json). Connects as " +
      "`gloss login` saved (or GLOSS_API_URL and GLOSS_API_KEY). The folder must be new or empty; a failed export " +
      "removes what it wrote. With hub:org/name, a Hugging Face Hub dataset repo in the layout of Dataset.to_hub " +
      "(records as Parquet in data/<split>-*.parquet, the settings files, a card), in one commit; token from " +
      "--token or HF_TOKEN, Hub from HF_ENDPOINT (default https://huggingface.co)."
  )
)

const importCommand = Command.make("import", {
  source: Args.text({ name: "source" }).pipe(
    Args.withDescription("A folder written by `gloss datasets export` or the SDK's to_disk (or hub:org/name)")
  ),
  workspace: workspaceOption("The workspace to create the dataset in"),
  name: Options.text("name").pipe(
    Options.optional,
    Options.withDescription("The new dataset's name; default: the exported one's")
  ),
  batchSize: Options.integer("batch-size").pipe(
    Options.withDefault(MAX_RECORDS_PER_BULK),
    Options.withDescription(`Records per request, 1 to ${MAX_RECORDS_PER_BULK}`)
  ),
  keepPartial: Options.boolean("keep-partial").pipe(
    Options.withDescription("When records fail, keep the dataset with those imported before (default: delete it)")
  ),
  noRecords: Options.boolean("no-records").pipe(Options.withDescription("Create the dataset with its settings only")),
  token: tokenOption,
  split: splitOption("The split to import from a hub: repository; default: train, else the first")
}, (args) =>
  Effect.gen(function*() {
    if (args.batchSize < 1 || args.batchSize > MAX_RECORDS_PER_BULK) {
      return yield* new TransferFailed({ reason: `--batch-size must be between 1 and ${MAX_RECORDS_PER_BULK}` })
    }
    const source = transferTarget(args.source)
    const client = yield* GlossClient.fromCredentials()
    const progress = transferProgress(process.stderr, "imported")
    if (source._tag === "Hub") {
      const pulled = yield* client.datasets.fromHub(source.repoId, {
        token: hubToken(args.token),
        workspace: args.workspace,
        name: Option.getOrUndefined(args.name),
        split: Option.getOrUndefined(args.split),
        keepPartial: args.keepPartial,
        withRecords: !args.noRecords,
        onProgress: recordsOnly(progress.onProgress)
      }).pipe(withPath, Effect.ensuring(Effect.sync(progress.end)))
      return yield* Console.log(
        `Imported ${pulled.records} records into dataset ${pulled.dataset.name} (${pulled.dataset.id}) ` +
          `in workspace ${args.workspace}` + (pulled.split === undefined ? "" : ` (split ${pulled.split})`)
      )
    }
    const result = yield* client.datasets.fromDisk(source.dir, {
      workspace: args.workspace,
      name: Option.getOrUndefined(args.name),
      batchSize: args.batchSize,
      keepPartial: args.keepPartial,
      withRecords: !args.noRecords,
      onProgress: progress.onProgress
    }).pipe(withPath, Effect.ensuring(Effect.sync(progress.end)))
    yield* Console.log(
      `Imported ${result.records} records into dataset ${result.dataset.name} (${result.dataset.id}) ` +
        `in workspace ${args.workspace}`
    )
  }).pipe(Effect.scoped, quiet)).pipe(
  Command.withDescription(
    "Import a dataset from a folder in the layout of the Argilla SDK's Dataset.to_disk (written by `gloss datasets " +
      "export` or by the SDK) as a new dataset of --workspace: its settings, then its records in batches. A name " +
      "already used in the workspace is refused (give --name). Atomic: when a batch is refused the new dataset is " +
      "deleted, unless --keep-partial, which keeps it and says how many records it holds. With hub:org/name, a " +
      "Hugging Face Hub dataset repo written by `gloss datasets export` or the SDK's Dataset.to_hub (--split, " +
      "--token or HF_TOKEN for private repos)."
  )
)

export const datasetsTransferCommands = [exportCommand, importCommand] as const
