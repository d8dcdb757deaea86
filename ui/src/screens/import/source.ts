/**
 * Reads a CSV or JSON Lines file as a stream (`file.stream()` through a `TextDecoderStream`), never whole: rows come
 * out one by one with the bytes read so far, for the progress bar. CSV rows are keyed by the header's names; JSON
 * Lines rows are the objects on each line. A line that is not a JSON object is yielded as an error, not thrown.
 */
import { CsvParser, LineSplitter } from "./csv.js"

/** `tsv`: the same rules as CSV (quotes and all) with tabs between cells, as spreadsheets export it. */
export type FileFormat = "csv" | "tsv" | "jsonl"

export const formatOf = (fileName: string): FileFormat =>
  /\.(jsonl|ndjson|json)$/i.test(fileName) ? "jsonl" : /\.(tsv|tab)$/i.test(fileName) ? "tsv" : "csv"

const delimiterOf = (format: "csv" | "tsv") => (format === "tsv" ? "\t" : ",")

export type SourceRow =
  | { readonly line: number; readonly values: Readonly<Record<string, unknown>>; readonly bytesRead: number }
  | { readonly line: number; readonly error: string; readonly bytesRead: number }

/** Header names made unique (`a`, `a_2`) and never empty (`column_3`). */
export const headerNames = (header: ReadonlyArray<string>): Array<string> => {
  const seen = new Map<string, number>()
  return header.map((raw, i) => {
    const base = raw.trim() === "" ? `column_${i + 1}` : raw.trim()
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    return count === 1 ? base : `${base}_${count}`
  })
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Turns text chunks into rows; shared by the file reader and the tests. */
export const rowMaker = (format: FileFormat) => {
  let line = 0
  if (format === "jsonl") {
    const splitter = new LineSplitter()
    const parse = (text: string, bytesRead: number): SourceRow => {
      line += 1
      try {
        const value: unknown = JSON.parse(text)
        return isObject(value) ? { line, values: value, bytesRead } : { line, error: "the line is not a JSON object", bytesRead }
      } catch (error) {
        return { line, error: `the line is not valid JSON (${error instanceof Error ? error.message : "parse error"})`, bytesRead }
      }
    }
    return {
      push: (chunk: string, bytesRead: number) => splitter.push(chunk).map((text) => parse(text, bytesRead)),
      end: (bytesRead: number) => splitter.end().map((text) => parse(text, bytesRead)),
      columns: (): ReadonlyArray<string> | undefined => undefined
    }
  }
  const parser = new CsvParser(delimiterOf(format))
  let header: Array<string> | undefined
  const toRows = (rows: Array<Array<string>>, bytesRead: number): Array<SourceRow> => {
    const out: Array<SourceRow> = []
    for (const cells of rows) {
      if (header === undefined) {
        header = headerNames(cells)
        continue
      }
      line += 1
      if (cells.length > header.length) {
        out.push({ line, error: `the row has ${cells.length} cells, the header ${header.length}`, bytesRead })
        continue
      }
      const values: Record<string, unknown> = {}
      for (const [i, name] of header.entries()) values[name] = cells[i] ?? ""
      out.push({ line, values, bytesRead })
    }
    return out
  }
  return {
    push: (chunk: string, bytesRead: number) => toRows(parser.push(chunk), bytesRead),
    end: (bytesRead: number) => {
      try {
        return toRows(parser.end(), bytesRead)
      } catch (error) {
        line += 1
        return [{ line, error: error instanceof Error ? error.message : "unreadable CSV", bytesRead }]
      }
    },
    columns: (): ReadonlyArray<string> | undefined => header
  }
}

/** The file's rows, read as a stream. Stops reading (and releases the file) when the consumer stops or `signal` aborts. */
export async function* readRows(file: Blob, format: FileFormat, signal?: AbortSignal): AsyncGenerator<SourceRow, void> {
  let bytesRead = 0
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
      transform(chunk, controller) {
        bytesRead += chunk.byteLength
        controller.enqueue(chunk)
      }
    })
  )
  const reader = counted.pipeThrough(new TextDecoderStream()).getReader()
  const rows = rowMaker(format)
  try {
    while (true) {
      if (signal?.aborted === true) return
      const { done, value } = await reader.read()
      if (done) break
      yield* rows.push(value, bytesRead)
    }
    yield* rows.end(bytesRead)
  } finally {
    await reader.cancel().catch(() => undefined)
  }
}

/** The first rows of a file and its columns (CSV: the header; JSON Lines: every key seen in those rows). */
export const sample = async (file: Blob, format: FileFormat, count = 20) => {
  const rows: Array<SourceRow> = []
  for await (const row of readRows(file, format)) {
    rows.push(row)
    if (rows.length >= count) break
  }
  let columns: Array<string>
  if (format !== "jsonl") {
    const first = await firstCsvHeader(file, format)
    columns = first
  } else {
    const keys = new Set<string>()
    for (const row of rows) if ("values" in row) for (const key of Object.keys(row.values)) keys.add(key)
    columns = [...keys]
  }
  return { rows, columns }
}

/** The header row of a CSV (or TSV) file, read up to its end only. */
const firstCsvHeader = async (file: Blob, format: "csv" | "tsv"): Promise<Array<string>> => {
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader()
  const parser = new CsvParser(delimiterOf(format))
  try {
    while (true) {
      const { done, value } = await reader.read()
      const rows = done ? parser.end() : parser.push(value)
      const header = rows[0]
      if (header !== undefined) return headerNames(header)
      if (done) return []
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
}
