/**
 * Which column of the file goes where in a record (a field, a metadata property, the external id, or nowhere), and
 * the record a row becomes. Columns are matched by name first (case, spaces and dashes ignored), then by title.
 */
import type { Field } from "../../../../src/domain/Field.js"
import type { MetadataProperty } from "../../../../src/domain/MetadataProperty.js"

/** `""` (ignored), `field:<name>`, `metadata:<name>` or `external_id`: a string, so it can be a `<select>`'s value. */
export type Target = string
export const IGNORE: Target = ""
export const EXTERNAL_ID: Target = "external_id"
export const fieldTarget = (name: string): Target => `field:${name}`
export const metadataTarget = (name: string): Target => `metadata:${name}`

export type Mapping = Readonly<Record<string, Target>>

const normal = (name: string) => name.trim().toLowerCase().replace(/[\s-]+/g, "_")

const EXTERNAL_ID_NAMES = new Set(["external_id", "externalid", "id", "record_id"])

/** Maps each column automatically; a target is taken by one column at most (the first that matches). */
export const autoMap = (
  columns: ReadonlyArray<string>,
  fields: ReadonlyArray<Pick<Field, "name" | "title">>,
  metadata: ReadonlyArray<Pick<MetadataProperty, "name" | "title">>
): Record<string, Target> => {
  const taken = new Set<Target>()
  const mapping: Record<string, Target> = {}
  const find = (column: string): Target => {
    const key = normal(column)
    const candidates: Array<Target> = [
      ...fields.filter((f) => normal(f.name) === key).map((f) => fieldTarget(f.name)),
      ...metadata.filter((m) => normal(m.name) === key).map((m) => metadataTarget(m.name)),
      ...(EXTERNAL_ID_NAMES.has(key) ? [EXTERNAL_ID] : []),
      ...fields.filter((f) => normal(f.title) === key).map((f) => fieldTarget(f.name)),
      ...metadata.filter((m) => normal(m.title) === key).map((m) => metadataTarget(m.name))
    ]
    return candidates.find((target) => !taken.has(target)) ?? IGNORE
  }
  for (const column of columns) {
    const target = find(column)
    if (target !== IGNORE) taken.add(target)
    mapping[column] = target
  }
  return mapping
}

/** Problems with a mapping that make the import pointless: no field mapped, a required field left out, a target used twice. */
export const mappingProblems = (
  mapping: Mapping,
  fields: ReadonlyArray<Pick<Field, "name" | "title" | "required">>
): Array<string> => {
  const problems: Array<string> = []
  const targets = Object.values(mapping).filter((t) => t !== IGNORE)
  if (!targets.some((t) => t.startsWith("field:"))) problems.push("Map at least one column to a field.")
  for (const field of fields) {
    if (field.required && !targets.includes(fieldTarget(field.name))) {
      problems.push(`The required field “${field.title}” has no column.`)
    }
  }
  const seen = new Set<Target>()
  for (const target of targets) {
    if (seen.has(target)) problems.push(`Two columns go to the same place (${target.replace(":", " ")}).`)
    seen.add(target)
  }
  return problems
}

export interface ImportRecord {
  readonly fields: Record<string, unknown>
  readonly metadata?: Record<string, unknown>
  readonly external_id?: string
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "")

const parseJson = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** A cell as a field's value: text and image fields take text; chat and custom fields take JSON (a CSV cell is parsed). */
const fieldValue = (field: Pick<Field, "name" | "settings">, value: unknown): { value: unknown } | { error: string } => {
  switch (field.settings.type) {
    case "text":
    case "image":
      if (typeof value === "string") return { value }
      if (typeof value === "number" || typeof value === "boolean") return { value: String(value) }
      return { error: `field '${field.name}' expects text, found ${JSON.stringify(value)}` }
    case "chat": {
      const parsed = typeof value === "string" ? parseJson(value) : { ok: true as const, value }
      if (!parsed.ok || !Array.isArray(parsed.value)) {
        return { error: `field '${field.name}' expects a JSON list of messages ({"role", "content"})` }
      }
      return { value: parsed.value }
    }
    case "custom": {
      if (typeof value !== "string") return { value }
      const parsed = parseJson(value)
      return { value: parsed.ok ? parsed.value : value }
    }
  }
}

const metadataValue = (property: Pick<MetadataProperty, "name" | "settings">, value: unknown): { value: unknown } | { error: string } => {
  const raw = typeof value === "string" ? value.trim() : value
  switch (property.settings.type) {
    case "integer":
      if (typeof raw === "number" && Number.isInteger(raw)) return { value: raw }
      if (typeof raw === "string" && /^[+-]?\d+$/.test(raw)) return { value: Number(raw) }
      return { error: `metadata '${property.name}' expects an integer, found ${JSON.stringify(value)}` }
    case "float": {
      const number = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : Number.NaN
      return Number.isFinite(number) ? { value: number } : { error: `metadata '${property.name}' expects a number, found ${JSON.stringify(value)}` }
    }
    case "terms":
      return { value: raw }
  }
}

/** The record a row becomes under `mapping`, or why it cannot be one (said for the row, before anything is sent). */
export const toRecord = (
  values: Readonly<Record<string, unknown>>,
  mapping: Mapping,
  fields: ReadonlyArray<Pick<Field, "name" | "title" | "required" | "settings">>,
  metadata: ReadonlyArray<Pick<MetadataProperty, "name" | "settings">>
): { readonly record: ImportRecord } | { readonly error: string } => {
  const recordFields: Record<string, unknown> = {}
  const recordMetadata: Record<string, unknown> = {}
  let externalId: string | undefined
  for (const [column, target] of Object.entries(mapping)) {
    const value = values[column]
    if (target === IGNORE || blank(value)) continue
    if (target === EXTERNAL_ID) {
      externalId = typeof value === "string" ? value.trim() : JSON.stringify(value)
    } else if (target.startsWith("field:")) {
      const field = fields.find((f) => fieldTarget(f.name) === target)
      if (field === undefined) continue
      const converted = fieldValue(field, value)
      if ("error" in converted) return { error: converted.error }
      recordFields[field.name] = converted.value
    } else if (target.startsWith("metadata:")) {
      const property = metadata.find((m) => metadataTarget(m.name) === target)
      if (property === undefined) continue
      const converted = metadataValue(property, value)
      if ("error" in converted) return { error: converted.error }
      recordMetadata[property.name] = converted.value
    }
  }
  for (const field of fields) {
    if (field.required && !(field.name in recordFields)) return { error: `the required field '${field.name}' is empty` }
  }
  if (Object.keys(recordFields).length === 0) return { error: "every mapped field is empty" }
  return {
    record: {
      fields: recordFields,
      ...(Object.keys(recordMetadata).length > 0 ? { metadata: recordMetadata } : {}),
      ...(externalId === undefined ? {} : { external_id: externalId })
    }
  }
}

/** Collects items into batches of at most `size`; `flush` hands out the last, shorter one. */
export class Batcher<A> {
  private items: Array<A> = []
  constructor(readonly size: number) {}
  /** Adds an item; returns a full batch when this one filled it. */
  add(item: A): Array<A> | undefined {
    this.items.push(item)
    if (this.items.length < this.size) return undefined
    const full = this.items
    this.items = []
    return full
  }
  flush(): Array<A> | undefined {
    if (this.items.length === 0) return undefined
    const rest = this.items
    this.items = []
    return rest
  }
}
