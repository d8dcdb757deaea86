/**
 * CSV rows for `gloss records import`, streamed through csv-parse (RFC 4180: quoted fields, embedded newlines and
 * quotes, a byte-order mark, CRLF) so a large file never sits in memory whole. The header row names the columns.
 */
import * as fs from "node:fs"
import { parse } from "csv-parse"
import { Stream } from "effect"
import { UsageError } from "./admin.js"

export const parseCsv = (file: string): Stream.Stream<Readonly<Record<string, unknown>>, UsageError> =>
  Stream.fromAsyncIterable(
    fs.createReadStream(file).pipe(parse({
      columns: (header: Array<string>) => header.map((name) => name.trim()),
      bom: true,
      skip_empty_lines: true,
      // A row with more or fewer cells than the header is a mistake in the file, not something to guess about.
      relax_column_count: false
    })) as AsyncIterable<Record<string, string>>,
    (cause) => new UsageError({ message: `cannot read ${file}: ${cause instanceof Error ? cause.message : String(cause)}` })
  )
