/**
 * The bulk record payloads' fast path. Decoding 500 records through `RecordsBulkUpsert` (Effect Schema's union decoder
 * for each `optional(NullOr(…))` key) cost a tenth of an ingest (`npm run bench -- ingest`), and copied every record
 * and its fields. The payloads that make up an import have a plain shape: records with `fields`, `metadata`,
 * `external_id`, `id` and `vectors` (arrays of numbers by name). That shape is checked here by hand, with the limits
 * `domain/Record.ts` exports, and such a payload passes through as it is, which is what the schema would give back.
 * Anything else (responses, suggestions, an unknown key, a wrong type, `__proto__`) is the schema's to decode.
 */
import { isPlainObject, keyNestedTooDeep } from "../domain/Json.js"
import { isNumbers } from "../domain/Numbers.js"
import { isRecordId, MAX_EXTERNAL_ID, MAX_RECORDS_PER_BULK, type RecordCreate, type RecordUpsert } from "../domain/Record.js"

export type BulkMode = "create" | "upsert"

/** A plain object the schema would store as it is: nested no deeper than `JsonObjectInput` allows. */
const isStorableObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  isPlainObject(value) && keyNestedTooDeep(value) === undefined

/** Vectors by name as `Vectors` takes them: arrays of numbers (their names and sizes are the service's to check). */
const isPlainVectors = (value: unknown): boolean => {
  if (!isPlainObject(value)) return false
  for (const name in value) if (!isNumbers(value[name])) return false
  return true
}

const isPlainRecord = (item: unknown, mode: BulkMode): boolean => {
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
export const plainBulk = <M extends BulkMode>(
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
