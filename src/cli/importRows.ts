/**
 * How rows of a file become records for `gloss records import`: a JSONL line that already has the API's shape
 * (`fields`, …) is taken as is; a flat row (a CSV line, or a JSONL object without `fields`) is mapped by name —
 * dataset field names to fields, metadata property names to metadata, `external_id`/`id` to themselves.
 */
import type { RecordUpsert } from "../domain/Record.js"

export interface ImportSchema {
  readonly fields: ReadonlyArray<string>
  readonly metadata: ReadonlyArray<{ readonly name: string; readonly numeric: boolean }>
}

const asNumber = (value: unknown) => {
  if (typeof value !== "string" || value.trim() === "") return value
  const number = Number(value)
  return Number.isFinite(number) ? number : value
}

export const toRecord = (row: Readonly<Record<string, unknown>>, schema: ImportSchema): unknown => {
  if ("fields" in row) return row
  const fields: Record<string, unknown> = {}
  const metadata: Record<string, unknown> = {}
  for (const name of schema.fields) if (row[name] !== undefined && row[name] !== "") fields[name] = row[name]
  for (const { name, numeric } of schema.metadata) {
    if (row[name] !== undefined && row[name] !== "") metadata[name] = numeric ? asNumber(row[name]) : row[name]
  }
  const record: { -readonly [K in keyof RecordUpsert]: RecordUpsert[K] } = { fields }
  if (Object.keys(metadata).length > 0) record.metadata = metadata
  if (typeof row.external_id === "string" && row.external_id !== "") record.external_id = row.external_id
  return record
}
