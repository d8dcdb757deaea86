/**
 * `gloss records import`: records from a JSONL or CSV file, upserted in batches through the same ingest path as the
 * API. Every message about the file names a line of it; a failure says which lines were imported before it.
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, ParseResult, Schema, Stream } from "effect"
import { DatasetId } from "../domain/Ids.js"
import { MAX_RECORDS_PER_BULK, RecordUpsert } from "../domain/Record.js"
import { Datasets } from "../services/datasets/Datasets.js"
import { Ingest } from "../services/records/ingest/Ingest.js"
import { SearchIndex } from "../services/records/SearchIndex.js"
import { AdminLive, SYSTEM_OWNER, UsageError } from "./admin.js"
import { estimateRecords, formatOf, LineRejected, type NumberedRow, rowsOf } from "./importFile.js"
import { importFailure, importProgress, type LineSpan, linesWord } from "./importReport.js"
import { toRecord } from "./importRows.js"

const decodeRecord = Schema.decodeUnknownEither(RecordUpsert)

/**
 * A schema failure on one line: the first problem with its path (the tree form spans many lines; a union lists one
 * problem per member, so the first says enough).
 */
const oneLine = (error: ParseResult.ParseError) => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  if (first === undefined) return error.message.replace(/\s*\n\s*/g, " ")
  const where = first.path.length === 0 ? "" : `${first.path.map(String).join(".")}: `
  return `${where}${first.message.replace(/\s*\n\s*/g, " ")}`
}

interface Numbered<A> {
  readonly value: A
  readonly line: number
  readonly end: number
}

/**
 * A rejected batch, in lines of the file: the API names the record by its position in the request ("Record at
 * position 3 is not valid because …"), which means nothing to someone looking at the file.
 */
const batchFailure = (batch: ReadonlyArray<Numbered<unknown>>, detail: string) => {
  const match = /^Record at position (\d+) is not valid because ([\s\S]*)$/.exec(detail)
  const record = match === null ? undefined : batch[Number(match[1])]
  if (match !== null && record !== undefined) return new LineRejected({ line: record.line, reason: match[2] ?? detail })
  return new LineRejected({ line: batch[0]?.line ?? 0, last: batch.at(-1)?.end, reason: detail })
}

const decodeLine = (names: Parameters<typeof toRecord>[1]) => ({ end, line, row }: NumberedRow) => {
  const decoded = decodeRecord(toRecord(row, names))
  return decoded._tag === "Right"
    ? Effect.succeed({ value: decoded.right, line, end })
    : Effect.fail(new LineRejected({ line, reason: `not a record: ${oneLine(decoded.left)}` }))
}

const importCommand = Command.make("import", {
  file: Args.file({ name: "file", exists: "yes" }).pipe(Args.withDescription("A .jsonl (or .ndjson) or .csv file")),
  dataset: Options.text("dataset").pipe(
    Options.withSchema(DatasetId),
    Options.withDescription("Id of a published dataset (`gloss datasets list` shows them)")
  ),
  batchSize: Options.integer("batch-size").pipe(
    Options.withDefault(MAX_RECORDS_PER_BULK),
    Options.withDescription(`Records per batch, 1 to ${MAX_RECORDS_PER_BULK}`)
  )
}, ({ batchSize, dataset: datasetId, file }) =>
  Effect.gen(function*() {
    if (batchSize < 1 || batchSize > MAX_RECORDS_PER_BULK) {
      return yield* new UsageError({ message: `--batch-size must be between 1 and ${MAX_RECORDS_PER_BULK}` })
    }
    const format = yield* formatOf(file)
    yield* (yield* Datasets).get(SYSTEM_OWNER, datasetId)
    const schema = yield* (yield* SearchIndex).schemaOf(datasetId)
    const names = {
      fields: schema.fields.map((f) => f.name),
      metadata: schema.metadataProperties.map((p) => ({ name: p.name, numeric: p.settings.type !== "terms" }))
    }
    const progress = importProgress(process.stderr, yield* estimateRecords(file, format))
    const ingest = yield* Ingest
    let done = 0
    let imported: LineSpan | undefined
    yield* rowsOf(file, format).pipe(
      Stream.mapEffect(decodeLine(names)),
      Stream.grouped(batchSize),
      Stream.runForEach((chunk) =>
        Effect.gen(function*() {
          const batch = [...chunk]
          yield* ingest.upsert(SYSTEM_OWNER, datasetId, batch.map(({ value }) => value)).pipe(
            Effect.mapError((error) => batchFailure(batch, "detail" in error ? error.detail : String(error)))
          )
          done += batch.length
          imported = { first: imported?.first ?? batch[0]?.line ?? 0, last: batch.at(-1)?.end ?? 0 }
          progress.batch(done)
        })
      ),
      // Earlier batches are stored: say exactly which lines, below the progress display.
      Effect.mapError((error) => {
        const problem = error._tag === "LineRejected"
          ? `${linesWord(error.line, error.last ?? error.line)}: ${error.reason}`
          : error.message
        return new UsageError({ message: importFailure(imported, problem) })
      }),
      Effect.tapError(() => Effect.sync(progress.failed))
    )
    progress.done(done)
    yield* Console.log(`Imported ${done} records into dataset ${datasetId}`)
  }).pipe(Effect.provide(AdminLive))).pipe(
  Command.withDescription(
    "Import records from a .jsonl file (one record per line: the API's record shape, or a flat object) or a .csv " +
      "file (a header row; columns named like the dataset's fields and metadata properties, plus external_id). " +
      "Records are upserted by external_id, in batches of --batch-size. A bad line stops the import: the lines " +
      "before it that were imported are named, nothing after them is."
  )
)

export const recordsCommand = Command.make("records").pipe(
  Command.withDescription("Records of a dataset"),
  Command.withSubcommands([importCommand])
)
