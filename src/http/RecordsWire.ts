/**
 * The records' wire fast paths: the bulk record endpoints read their body and write their answer here, by hand,
 * instead of through HttpApi's schema decoding and encoding. Both are tested to be exactly what the schemas give.
 *
 * Reading. Decoding 500 records through `RecordsBulkUpsert` (Effect Schema's union decoder for each
 * `optional(NullOr(…))` key) cost a tenth of an ingest (`npm run bench -- ingest`), and copied every record and its
 * fields. The payloads that make up an import have a plain shape: records with `fields`, `metadata`, `external_id`,
 * `id` and `vectors` (arrays of numbers by name). That shape is checked here by hand, with the limits
 * `domain/Record.ts` exports, and such a payload passes through as it is, which is what the schema would give back.
 * Anything else (responses, suggestions, an unknown key, a wrong type, `__proto__`) goes through the schema, read as
 * HttpApi reads every payload (`laxPayload`), so every error is the schema's own: 422 with the same body. Both paths
 * read the body through `request.json`, so the checks made where bodies are read (UTF-8, nesting, lone surrogates:
 * `BodyLimit.ts`) cover the fast one too. The endpoints still declare their payload schemas, from which the docs and
 * the typed client are made; test/unit/bulk-payload.test.ts keeps both paths equal.
 *
 * Writing. A bulk upsert answers with the 500 records it wrote. Encoding them through `RecordsBulk` re-checks every
 * field, id and nested response of data the service has just built from decoded input, a visible share of an ingest.
 * In these types the only values whose encoded form differs from their JSON are the `Timestamp`s (a `Date`, written
 * as ISO-8601 without the zone suffix, as Argilla does); they are written here, and the rest is `JSON.stringify`.
 * The HTTP tests check that what goes out is exactly what the schema would have written.
 *
 * Searching. A search answers with up to `limit` records read back from the database. Encoding them through
 * `SearchRecordsResult` allocated heavily on the main thread for a page of 50 (a Union parser for each `NullOr`, a
 * copy of every field map): a third of what a vector search allocates, and the full collections that make its tail. The
 * answer is written the same way as the bulk one; test/http/records.test.ts checks it against the schema.
 */
import { HttpApiError, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, ParseResult, Schema } from "effect"
import {
  type DatasetRecord,
  isRecordId,
  MAX_EXTERNAL_ID,
  MAX_RECORDS_PER_BULK,
  type RecordCreate,
  type RecordsBulk,
  RecordsBulkCreate,
  RecordsBulkUpsert,
  type RecordUpsert
} from "../domain/Record.js"
import { isPlainObject, keyNestedTooDeep } from "../domain/Json.js"
import { isNumbers } from "../domain/Numbers.js"
import type { SearchRecordsResult } from "../domain/Search.js"
import { isoString } from "../domain/Timestamp.js"
import { laxPayload } from "./LaxPayload.js"

type Mode = "create" | "upsert"


/** A plain object the schema would store as it is: nested no deeper than `JsonObjectInput` allows. */
const isStorableObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  isPlainObject(value) && keyNestedTooDeep(value) === undefined

/** Vectors by name as `Vectors` takes them: arrays of numbers (their names and sizes are the service's to check). */
const isPlainVectors = (value: unknown): boolean => {
  if (!isPlainObject(value)) return false
  for (const name in value) if (!isNumbers(value[name])) return false
  return true
}

const isPlainRecord = (item: unknown, mode: Mode): boolean => {
  if (!isPlainObject(item)) return false
  for (const key in item) {
    const value = item[key]
    switch (key) {
      case "fields":
        if (!(isStorableObject(value) || (mode === "upsert" && value === null))) return false
        break
      case "metadata":
        if (!(value === null || isStorableObject(value))) return false
        break
      case "external_id":
        if (!(value === null || (typeof value === "string" && value.length >= 1 && value.length <= MAX_EXTERNAL_ID))) {
          return false
        }
        break
      case "id":
        if (mode === "create" || !(value === null || isRecordId(value))) return false
        break
      case "vectors":
        if (!(value === null || isPlainVectors(value))) return false
        break
      default:
        return false
    }
  }
  return mode === "upsert" || Object.hasOwn(item, "fields")
}

/**
 * The payload as `RecordsBulkCreate` / `RecordsBulkUpsert` would decode it, when it has the plain shape; undefined
 * when the schema must decide.
 */
export const plainBulk = <M extends Mode>(
  body: unknown,
  mode: M
): { readonly items: ReadonlyArray<M extends "create" ? RecordCreate : RecordUpsert> } | undefined => {
  if (!isPlainObject(body)) return undefined
  const items = body["items"]
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_RECORDS_PER_BULK) return undefined
  for (const item of items) if (!isPlainRecord(item, mode)) return undefined
  // Other top-level keys are ignored, as the schema ignores them.
  return { items }
}

// The schema path reads the body as every other payload is read (strict first, then lax; see LaxPayload.ts).
const decodeCreate = Schema.decodeUnknown(laxPayload(RecordsBulkCreate))
const decodeUpsert = Schema.decodeUnknown(laxPayload(RecordsBulkUpsert))

/**
 * What HttpApi reads as the payload of a JSON endpoint: the JSON body (malformed JSON is a defect, answered 422 by
 * ErrorResponses), or the text of a body sent as something else, which the schema then refuses.
 */
const bodyOf = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown> => {
  const contentType = request.headers["content-type"]?.toLowerCase().trim() ?? "application/json"
  return Effect.orDie(contentType.includes("application/json") ? request.json : request.text)
}

/** Reads and decodes a bulk body; a payload the schema refuses fails as HttpApi's own decoding would. */
export const bulkPayload = <M extends Mode>(request: HttpServerRequest.HttpServerRequest, mode: M) =>
  Effect.flatMap(bodyOf(request), (body) => {
    const plain = plainBulk(body, mode)
    if (plain !== undefined) return Effect.succeed(plain)
    const decoded = mode === "create" ? decodeCreate(body) : decodeUpsert(body)
    return decoded as Effect.Effect<NonNullable<ReturnType<typeof plainBulk<M>>>, ParseResult.ParseError>
  }).pipe(Effect.catchIf(ParseResult.isParseError, HttpApiError.HttpApiDecodeError.refailParseError))

// The answer.

const stamp = (date: Date) => isoString(date).slice(0, -1)
const stamped = <T extends { readonly inserted_at: Date; readonly updated_at: Date }>(value: T) => ({
  ...value,
  inserted_at: stamp(value.inserted_at),
  updated_at: stamp(value.updated_at)
})
const record = (value: DatasetRecord) => {
  const out: Record<string, unknown> = stamped(value)
  if (value.responses !== undefined) out.responses = value.responses.map(stamped)
  if (value.suggestions !== undefined) out.suggestions = value.suggestions.map(stamped)
  return out
}

const json = (body: unknown, status: number) => HttpServerResponse.text(JSON.stringify(body), { status, contentType: "application/json" })

/** A `RecordsBulk` answer as the JSON body the schema would encode it to. */
export const bulkJson = (bulk: typeof RecordsBulk.Type, status: number) => json({ ...bulk, items: bulk.items.map(record) }, status)

/** A `SearchRecordsResult` as the JSON body the schema would encode it to. */
export const searchJson = (result: typeof SearchRecordsResult.Type) =>
  json({ ...result, items: result.items.map((item) => ({ record: record(item.record), query_score: item.query_score })) }, 200)
