/**
 * The Hub's records Parquet file (the columns and rows of `hubRows.ts`): written with `hyparquet-writer` a row group
 * at a time to a file, read back with `hyparquet` a row group at a time, so that the whole dataset is never in memory.
 * Each column is nullable at every level, with the Arrow types `datasets` gives the SDK's rows.
 */
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet"
import type { FileMetaData } from "hyparquet"
import { fileWriter, ParquetWriter } from "hyparquet-writer"
import { Effect, Option, Schema } from "effect"
import { TransferFileError } from "./errors.js"
import type { Column, ColumnType } from "./hubRows.js"

/** Any JSON value (the domain's `JsonValue` is `unknown` too). */
type JsonValue = unknown

/** The writer's schema element (hyparquet-writer pins its own hyparquet, whose types differ slightly). */
type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]["schema"][number]
/** The Parquet schema elements of one column, nullable at every level (as pyarrow writes them). */
const elements = (name: string, type: ColumnType): Array<SchemaElement> => {
  switch (type.kind) {
    case "string":
      return [{ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" }]
    case "int64":
      return [{ name, type: "INT64", repetition_type: "OPTIONAL" }]
    case "double":
      return [{ name, type: "DOUBLE", repetition_type: "OPTIONAL" }]
    case "list":
      return [
        { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
        { name: "list", repetition_type: "REPEATED", num_children: 1 },
        ...elements("element", type.item)
      ]
    case "struct":
      return [
        { name, repetition_type: "OPTIONAL", num_children: type.fields.length },
        ...type.fields.flatMap(([child, childType]) => elements(child, childType))
      ]
  }
}

export const parquetSchema = (columns: ReadonlyArray<Column>): Array<SchemaElement> => [
  { name: "schema", num_children: columns.length },
  ...columns.flatMap((column) => elements(column.name, column.type))
]

/** A JSON value shaped for the writer: integers as bigint, structs with exactly their fields; misfits become null. */
const encode = (type: ColumnType, value: unknown): unknown => {
  if (value === null || value === undefined) return null
  switch (type.kind) {
    case "string":
      return typeof value === "string" ? value : JSON.stringify(value)
    case "int64":
      return typeof value === "number" && Number.isFinite(value) ? BigInt(Math.trunc(value)) : null
    case "double":
      return typeof value === "number" ? value : null
    case "list":
      return Array.isArray(value) ? value.map((item) => encode(type.item, item)) : [encode(type.item, value)]
    case "struct": {
      if (typeof value !== "object" || Array.isArray(value)) return null
      const entries = new Map(Object.entries(value))
      return Object.fromEntries(type.fields.map(([name, child]) => [name, encode(child, entries.get(name))]))
    }
  }
}

/** What the reader hands back, as JSON: bigints as numbers, typed arrays as arrays, objects key by key. */
export const toJson = (value: unknown): JsonValue => {
  if (value === null || value === undefined) return null
  if (typeof value === "bigint") return Number(value)
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value
  // The only binary values in these files are images (`datasets`' Image feature: `{bytes, path}`): a data URI.
  if (value instanceof Uint8Array) return dataUri(value)
  if (value instanceof BigInt64Array) return Array.from(value, Number)
  if (value instanceof Float64Array || value instanceof Float32Array || value instanceof Int32Array) {
    return Array.from(value)
  }
  if (Array.isArray(value)) return value.map(toJson)
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]))
  return null
}

/** The image type its first bytes say (PNG, JPEG, GIF, WebP), else a generic binary type. */
const mimeOf = (bytes: Uint8Array) => {
  const text = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end))
  if (text(1, 4) === "PNG") return "image/png"
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg"
  if (text(0, 3) === "GIF") return "image/gif"
  if (text(0, 4) === "RIFF" && text(8, 12) === "WEBP") return "image/webp"
  return "application/octet-stream"
}

const dataUri = (bytes: Uint8Array) => `data:${mimeOf(bytes)};base64,${Buffer.from(bytes).toString("base64")}`

const fail = (path: string) => (cause: unknown) =>
  new TransferFileError({ path, detail: `Parquet: ${cause instanceof Error ? cause.message : String(cause)}` })

/** Rows per row group: large enough for Parquet to compress well, small enough to stay a few MB in memory. */
export const ROW_GROUP_SIZE = 2000

/**
 * A Parquet file being written at `path`: `append` buffers rows and writes a row group every `ROW_GROUP_SIZE`
 * rows; `close` writes the last group and the footer. Rows are the SDK's flattened rows (`recordToRow`).
 */
export const openParquetWriter = Effect.fn("GlossClient.transfer.openParquetWriter")(function*(
  path: string,
  columns: ReadonlyArray<Column>,
  options: { readonly kvMetadata?: ReadonlyArray<{ readonly key: string; readonly value: string }> } = {}
) {
  const writer = yield* Effect.try({
    try: () =>
      new ParquetWriter({
        writer: fileWriter(path),
        schema: parquetSchema(columns),
        kvMetadata: [...(options.kvMetadata ?? [])],
        createdBy: "gloss"
      }),
    catch: fail(path)
  })
  let pending: Array<Record<string, unknown>> = []
  let rows = 0
  const flush = Effect.suspend(() => {
    const batch = pending
    pending = []
    if (batch.length === 0) return Effect.void
    const columnData = columns.map((column) => ({
      name: column.name,
      data: batch.map((row) => encode(column.type, row[column.name]))
    }))
    return Effect.tryPromise({
      try: async () => {
        await writer.write({ columnData, rowGroupSize: batch.length })
      },
      catch: fail(path)
    })
  })
  const append = (batch: ReadonlyArray<Record<string, unknown>>) =>
    Effect.suspend(() => {
      pending.push(...batch)
      rows += batch.length
      return pending.length >= ROW_GROUP_SIZE ? flush : Effect.void
    })
  const close = Effect.zipRight(
    flush,
    Effect.tryPromise({
      try: async () => {
        await writer.finish()
        return rows
      },
      catch: fail(path)
    })
  )
  return { append, close }
})

export interface ParquetFile {
  readonly rows: number
  readonly columns: ReadonlyArray<string>
  /** The `huggingface` key-value metadata's features (`{"<column>": {"_type": "ClassLabel", "names": [...]}}`). */
  readonly features: ReadonlyMap<string, unknown>
  /** The rows of each row group in turn, as JSON. */
  readonly rowGroups: ReadonlyArray<Effect.Effect<ReadonlyArray<Record<string, JsonValue>>, TransferFileError>>
}

const HfMetadata = Schema.parseJson(Schema.Struct({
  info: Schema.optional(Schema.Struct({ features: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })) }))
}))

/** Opens a Parquet file for reading one row group at a time (only the footer is read here). */
export const openParquetFile = Effect.fn("GlossClient.transfer.openParquetFile")(function*(path: string) {
  const file = yield* Effect.tryPromise({ try: () => asyncBufferFromFile(path), catch: fail(path) })
  const metadata: FileMetaData = yield* Effect.tryPromise({ try: () => parquetMetadataAsync(file), catch: fail(path) })
  const hf = metadata.key_value_metadata?.find((entry) => entry.key === "huggingface")?.value
  // `datasets` keeps the features in the schema's `huggingface` metadata; a file without it (or unreadable) has none.
  const decoded = hf === undefined ? Option.none() : Schema.decodeUnknownOption(HfMetadata)(hf)
  const features = new Map(Object.entries(Option.match(decoded, {
    onNone: () => ({}),
    onSome: (value) => value.info?.features ?? {}
  })))
  const columns = metadata.schema.slice(1).reduce<{ names: Array<string>; skip: number }>((acc, element) => {
    if (acc.skip > 0) return { names: acc.names, skip: acc.skip - 1 + (element.num_children ?? 0) }
    return { names: [...acc.names, element.name], skip: element.num_children ?? 0 }
  }, { names: [], skip: 0 }).names
  let start = 0
  const rowGroups = metadata.row_groups.map((group) => {
    const rowStart = start
    const rowEnd = start + Number(group.num_rows)
    start = rowEnd
    return Effect.tryPromise({
      // Binary columns (images) stay bytes; string columns are annotated UTF8 and come back as strings.
      try: () => parquetReadObjects({ file, metadata, rowStart, rowEnd, utf8: false }),
      catch: fail(path)
    }).pipe(Effect.map((rows) =>
      rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, toJson(value)])))
    ))
  })
  return { rows: Number(metadata.num_rows), columns, features, rowGroups } satisfies ParquetFile
})
