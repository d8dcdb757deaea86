import * as fs from "node:fs"
import * as readline from "node:readline"
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, ParseResult, Schema, Stream } from "effect"
import { DatasetId } from "../domain/Ids.js"
import { MAX_RECORDS_PER_BULK, RecordUpsert } from "../domain/Record.js"
import { Datasets } from "../services/datasets/Datasets.js"
import { Ingest } from "../services/records/ingest/Ingest.js"
import { SearchIndex } from "../services/search/SearchIndex.js"
import { AdminLive, SYSTEM_OWNER, UsageError } from "./admin.js"
import { parseCsv } from "./csv.js"
import { toRecord } from "./importRows.js"

const decodeRecord = Schema.decodeUnknownEither(RecordUpsert)

/** The rows of a `.jsonl` or `.csv` file, read as a stream (large files never sit in memory whole). */
const rowsOf = (file: string): Stream.Stream<Readonly<Record<string, unknown>>, UsageError> => {
  if (file.endsWith(".csv")) return parseCsv(file)
  if (!file.endsWith(".jsonl") && !file.endsWith(".ndjson")) {
    return Stream.fail(new UsageError({ message: `expected a .jsonl or .csv file, got ${file}` }))
  }
  const lines = Stream.fromAsyncIterable(
    readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity }),
    (cause) => new UsageError({ message: `cannot read ${file}: ${String(cause)}` })
  )
  return lines.pipe(
    Stream.zipWithIndex,
    Stream.filter(([line]) => line.trim() !== ""),
    Stream.mapEffect(([line, index]) =>
      Effect.try({
        try: () => JSON.parse(line) as unknown,
        catch: () => new UsageError({ message: `line ${index + 1} is not valid JSON` })
      }).pipe(Effect.filterOrFail(
        (value): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null && !Array.isArray(value),
        () => new UsageError({ message: `line ${index + 1} is not a JSON object` })
      ))
    )
  )
}

/** Newlines in a file, counted while streaming it. */
const countLines = (file: string) =>
  Effect.async<number, UsageError>((resume) => {
    let count = 0
    let last = 10
    fs.createReadStream(file)
      .on("data", (chunk: string | Buffer) => {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk
        for (const byte of bytes) if (byte === 10) count++
        last = bytes[bytes.length - 1] ?? last
      })
      .on("end", () => resume(Effect.succeed(last === 10 ? count : count + 1)))
      .on("error", (error) => resume(Effect.fail(new UsageError({ message: `cannot read ${file}: ${error.message}` }))))
  })

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

/**
 * A rejected batch, in rows of the file: the API names the record by its position in the request ("Record at
 * position 3 is not valid because …"), which means nothing to someone looking at the file.
 */
const batchFailure = (firstRow: number, count: number, detail: string) => {
  const match = /^Record at position (\d+) is not valid because ([\s\S]*)$/.exec(detail)
  return match === null
    ? `rows ${firstRow}–${firstRow + count - 1}: ${detail}`
    : `row ${firstRow + Number(match[1])} is not valid because ${match[2]}`
}

const progressBar = (done: number, total: number) => {
  const width = 30
  const filled = Math.min(width, Math.round((done / Math.max(total, 1)) * width))
  return `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} records`
}

const importCommand = Command.make("import", {
  file: Args.file({ name: "file", exists: "yes" }),
  dataset: Options.text("dataset").pipe(Options.withSchema(DatasetId), Options.withDescription("Id of a published dataset")),
  batchSize: Options.integer("batch-size").pipe(Options.withDefault(MAX_RECORDS_PER_BULK))
}, ({ batchSize, dataset: datasetId, file }) =>
  Effect.gen(function*() {
    if (batchSize < 1 || batchSize > MAX_RECORDS_PER_BULK) {
      return yield* new UsageError({ message: `--batch-size must be between 1 and ${MAX_RECORDS_PER_BULK}` })
    }
    yield* (yield* Datasets).get(SYSTEM_OWNER, datasetId)
    const schema = yield* (yield* SearchIndex).schemaOf(datasetId)
    const names = {
      fields: schema.fields.map((f) => f.name),
      metadata: schema.metadataProperties.map((p) => ({ name: p.name, numeric: p.settings.type !== "terms" }))
    }
    const lines = yield* countLines(file)
    // The bar counts lines: exact for JSONL, near enough for CSV (a header, maybe quoted newlines).
    const total = file.endsWith(".csv") ? Math.max(lines - 1, 0) : lines
    const ingest = yield* Ingest
    let done = 0
    yield* rowsOf(file).pipe(
      Stream.zipWithIndex,
      Stream.mapEffect(([row, index]) => {
        const decoded = decodeRecord(toRecord(row, names))
        return decoded._tag === "Right"
          ? Effect.succeed(decoded.right)
          : Effect.fail(new UsageError({ message: `row ${index + 1} is not a record: ${oneLine(decoded.left)}` }))
      }),
      Stream.grouped(batchSize),
      Stream.runForEach((chunk) =>
        Effect.gen(function*() {
          const items = [...chunk]
          yield* ingest.upsert(SYSTEM_OWNER, datasetId, items).pipe(
            Effect.mapError((error) =>
              new UsageError({ message: batchFailure(done + 1, items.length, "detail" in error ? error.detail : String(error)) })
            )
          )
          done += items.length
          // The total is an estimate from line counts (blank lines, quoted newlines): never show more done than total.
          process.stderr.write(progressBar(done, Math.max(total, done)))
        })
      )
    ).pipe(
      // The batches before the failing one are stored: say so, on a line of its own below the bar.
      Effect.mapError((error) =>
        done === 0 ? error : new UsageError({ message: `${error.message} (the ${done} records before it were imported)` })
      ),
      Effect.tapError(() =>
        Effect.sync(() => {
          if (done > 0) process.stderr.write("\n")
        })
      )
    )
    // Now the total is known exactly.
    process.stderr.write(`${progressBar(done, done)}\n`)
    yield* Console.log(`Imported ${done} records into dataset ${datasetId}`)
  }).pipe(Effect.provide(AdminLive))).pipe(
  Command.withDescription(
    "Import records from a .jsonl file (one record per line: the API's record shape, or a flat object) or a .csv " +
      "file (a header row; columns named like the dataset's fields and metadata properties, plus external_id). " +
      "Records are upserted by external_id, 500 at a time."
  )
)

export const recordsCommand = Command.make("records").pipe(
  Command.withDescription("Records of a dataset"),
  Command.withSubcommands([importCommand])
)
