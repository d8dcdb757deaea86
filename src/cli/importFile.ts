/**
 * The rows of a file for `gloss records import`, each with the lines of the file it came from, so that every
 * message about the file names a line ("line 731"), the word an editor shows. JSONL is read line by line; CSV
 * through csv-parse (RFC 4180: quoted fields, embedded newlines and quotes, a byte-order mark, CRLF), the header
 * row naming the columns. Large files are streamed, never read whole.
 */
import * as fs from "node:fs"
import * as readline from "node:readline"
import { parse } from "csv-parse"
import { Data, Effect, identity, Option, Stream } from "effect"
import { UsageError } from "./admin.js"

/** A row of the file and where it is: `line` is where it starts, `end` where it ends (a CSV value may span lines). */
export interface NumberedRow {
  readonly row: Readonly<Record<string, unknown>>
  readonly line: number
  readonly end: number
}

/** Something wrong at a line of the file (or lines `line`–`last` when the server rejected a batch as a whole). */
export class LineRejected extends Data.TaggedError("LineRejected")<{
  readonly line: number
  readonly last?: number | undefined
  readonly reason: string
}> {}

export type ImportFormat = "jsonl" | "csv"

export const formatOf = (file: string): Effect.Effect<ImportFormat, UsageError> =>
  file.endsWith(".csv")
    ? Effect.succeed("csv")
    : file.endsWith(".jsonl") || file.endsWith(".ndjson")
    ? Effect.succeed("jsonl")
    : Effect.fail(new UsageError({ message: `expected a .jsonl or .csv file, got ${file}` }))

const cannotRead = (file: string) => (cause: unknown) =>
  new UsageError({ message: `cannot read ${file}: ${cause instanceof Error ? cause.message : String(cause)}` })

const jsonlRows = (file: string): Stream.Stream<NumberedRow, UsageError | LineRejected> =>
  Stream.fromAsyncIterable(
    readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity }),
    cannotRead(file)
  ).pipe(
    Stream.zipWithIndex,
    Stream.filter(([text]) => text.trim() !== ""),
    Stream.mapEffect(([text, index]) => {
      const line = index + 1
      return Effect.try({
        try: () => JSON.parse(text) as unknown,
        catch: () => new LineRejected({ line, reason: "not valid JSON" })
      }).pipe(
        Effect.filterOrFail(
          (value): value is Readonly<Record<string, unknown>> =>
            typeof value === "object" && value !== null && !Array.isArray(value),
          () => new LineRejected({ line, reason: "not a JSON object" })
        ),
        Effect.map((row) => ({ row, line, end: line }))
      )
    })
  )

interface CsvRow {
  readonly record: ReadonlyArray<string>
  readonly info: { readonly empty_lines: number }
}

const breaksIn = (values: Iterable<string>) => {
  let count = 0
  for (const value of values) count += value.match(/\r\n|\n|\r/g)?.length ?? 0
  return count
}

/**
 * Lines are counted here, not by csv-parse: its count goes wrong after a CRLF inside a quoted value (it counts two).
 * A row starts on the line after the previous one ends, past the empty lines skipped in between. Rows with more or
 * fewer values than the header are checked here too: csv-parse's own check fails the stream at once, losing the
 * good rows it has parsed but not yet handed over, and its message names neither the header nor the row.
 */
const csvRows = (file: string): Stream.Stream<NumberedRow, UsageError | LineRejected> =>
  Stream.suspend(() => {
    let columns: ReadonlyArray<string> | undefined
    let headerLine = 1
    let lastEnd = 0
    let emptyLines = 0
    const rows = fs.createReadStream(file).pipe(
      parse({ bom: true, skip_empty_lines: true, relax_column_count: true, info: true })
    ) as AsyncIterable<CsvRow>
    return Stream.fromAsyncIterable(rows, (cause) => {
      // Unclosed quotes and the like: csv-parse's line, which is where it gave up.
      const { code, lines, message } = (cause ?? {}) as { code?: unknown; lines?: unknown; message?: unknown }
      return typeof code === "string" && code.startsWith("CSV_") && typeof lines === "number" && typeof message === "string"
        ? new LineRejected({ line: lines, reason: message.replace(/\s+(on|at) line \d+$/, "") })
        : cannotRead(file)(cause)
    }).pipe(
      Stream.mapEffect(({ info, record }) => {
        const line = lastEnd + 1 + info.empty_lines - emptyLines
        lastEnd = line + breaksIn(record)
        emptyLines = info.empty_lines
        if (columns === undefined) {
          columns = record.map((name) => name.trim())
          headerLine = line
          return Effect.succeed(Option.none<NumberedRow>())
        }
        if (record.length !== columns.length) {
          return Effect.fail(new LineRejected({
            line,
            reason: `${record.length} values, but the header (line ${headerLine}) names ${columns.length} columns`
          }))
        }
        const row: Record<string, string> = {}
        columns.forEach((name, i) => (row[name] = record[i] ?? ""))
        return Effect.succeed(Option.some<NumberedRow>({ row, line, end: lastEnd }))
      }),
      Stream.filterMap(identity)
    )
  })

export const rowsOf = (file: string, format: ImportFormat): Stream.Stream<NumberedRow, UsageError | LineRejected> =>
  format === "csv" ? csvRows(file) : jsonlRows(file)

/**
 * About how many records the file holds, for the progress display: its lines that are not blank (exact for JSONL;
 * for CSV, less the header, and over by the line breaks inside quoted values).
 */
export const estimateRecords = (file: string, format: ImportFormat) =>
  Effect.async<number, UsageError>((resume) => {
    let count = 0
    let blank = true
    fs.createReadStream(file)
      .on("data", (chunk: string | Buffer) => {
        for (const byte of typeof chunk === "string" ? Buffer.from(chunk) : chunk) {
          if (byte === 10) {
            if (!blank) count++
            blank = true
          } else if (byte !== 13 && byte !== 32 && byte !== 9) {
            blank = false
          }
        }
      })
      .on("end", () => {
        const lines = blank ? count : count + 1
        resume(Effect.succeed(format === "csv" ? Math.max(lines - 1, 0) : lines))
      })
      .on("error", (error) => resume(Effect.fail(cannotRead(file)(error))))
  })
