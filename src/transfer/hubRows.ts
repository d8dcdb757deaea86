/**
 * The records of a dataset as the Argilla SDK pushes them to the Hugging Face Hub (`records/_io/_generic.py`
 * `_record_to_dict(flatten=True)`, then `datasets.Dataset.from_dict`): one row per record, one column per field,
 * metadata property and vector (under their own names), `id` (the SDK's record id: Gloss's `external_id`), `status`,
 * `_server_id`, and per question `<q>.responses` / `.responses.users` / `.responses.status` (lists, one item per user)
 * and `<q>.suggestion` / `.suggestion.score` / `.suggestion.agent`; the Arrow type of each column, and the rows back
 * to record upserts. The Parquet file itself is `hubParquet.ts`.
 */
import type { UserId } from "../domain/Ids.js"
import type { DatasetRecord, RecordUpsert } from "../domain/Record.js"
import type { RecordResponse } from "../domain/Response.js"
import type { SuggestionCreate } from "../domain/Suggestion.js"
import type { DatasetSettings } from "./dataset.js"

/** Any JSON value (the domain's `JsonValue` is `unknown` too). */
type JsonValue = unknown

/** The Arrow types `datasets` infers from the SDK's Python values. */
export type ColumnType =
  | { readonly kind: "string" }
  | { readonly kind: "int64" }
  | { readonly kind: "double" }
  | { readonly kind: "list"; readonly item: ColumnType }
  | { readonly kind: "struct"; readonly fields: ReadonlyArray<readonly [string, ColumnType]> }

const string: ColumnType = { kind: "string" }
const int64: ColumnType = { kind: "int64" }
const double: ColumnType = { kind: "double" }
const list = (item: ColumnType): ColumnType => ({ kind: "list", item })
const struct = (...fields: ReadonlyArray<readonly [string, ColumnType]>): ColumnType => ({ kind: "struct", fields })

export interface Column {
  readonly name: string
  readonly type: ColumnType
}

type QuestionType = DatasetSettings["questions"][number]["settings"]["type"]

/** A question's answer as the SDK holds it: `ranking` is `[{value, rank}]`, `span` is `[{start, end, label}]`. */
export const answerType = (type: QuestionType): ColumnType => {
  switch (type) {
    case "text":
    case "label_selection":
      return string
    case "rating":
      return int64
    case "multi_label_selection":
      return list(string)
    case "ranking":
      return list(struct(["rank", int64], ["value", string]))
    case "span":
      return list(struct(["end", int64], ["label", string], ["start", int64]))
  }
}

/** A ranking suggestion is the SDK's plain list of values, best first (its responses keep `{value, rank}`). */
const suggestionType = (type: QuestionType): ColumnType => type === "ranking" ? list(string) : answerType(type)

/** Questions whose suggestion may carry one score per item (the SDK's `score: float | list[float]`). */
const listScored = (type: QuestionType) => type === "multi_label_selection" || type === "ranking" || type === "span"

type FieldType = DatasetSettings["fields"][number]["settings"]["type"]
const fieldType = (type: FieldType): ColumnType =>
  type === "chat" ? list(struct(["content", string], ["role", string])) : string

/** The columns, in the SDK's order: id, status, _server_id, fields, metadata, vectors, responses, suggestions. */
export const hubColumns = (settings: DatasetSettings): ReadonlyArray<Column> => [
  { name: "id", type: string },
  { name: "status", type: string },
  { name: "_server_id", type: string },
  ...settings.fields.map((field) => ({ name: field.name, type: fieldType(field.settings.type) })),
  ...settings.metadata.map((property) => ({
    name: property.name,
    type: property.settings.type === "integer" ? int64 : property.settings.type === "float" ? double : string
  })),
  ...settings.vectors.map((vector) => ({ name: vector.name, type: list(double) })),
  ...settings.questions.flatMap((question) => [
    { name: `${question.name}.responses`, type: list(answerType(question.settings.type)) },
    { name: `${question.name}.responses.users`, type: list(string) },
    { name: `${question.name}.responses.status`, type: list(string) }
  ]),
  ...settings.questions.flatMap((question) => [
    { name: `${question.name}.suggestion`, type: suggestionType(question.settings.type) },
    { name: `${question.name}.suggestion.score`, type: listScored(question.settings.type) ? list(double) : double },
    { name: `${question.name}.suggestion.agent`, type: string }
  ])
]

/** One record as the SDK's flattened row (JSON values; the writer's encoding happens per column). */
export const recordToRow = (record: DatasetRecord, settings: DatasetSettings): Record<string, unknown> => {
  const row: Record<string, unknown> = {
    id: record.external_id ?? record.id,
    status: record.status,
    _server_id: record.id
  }
  const fields = new Map(Object.entries(record.fields))
  for (const field of settings.fields) {
    const value = fields.get(field.name)
    row[field.name] = value === undefined ? null : value
  }
  const metadata = new Map(Object.entries(record.metadata ?? {}))
  for (const property of settings.metadata) row[property.name] = metadata.get(property.name) ?? null
  const vectors = new Map(Object.entries(record.vectors ?? {}))
  for (const vector of settings.vectors) row[vector.name] = vectors.get(vector.name) ?? null
  const questionNames = new Map(settings.questions.map((question) => [question.id, question.name]))
  for (const question of settings.questions) {
    const answered = (record.responses ?? []).flatMap((response) => {
      const answer = response.values === null ? undefined : new Map(Object.entries(response.values)).get(question.name)
      return answer === undefined ? [] : [{ value: answer.value, user: response.user_id, status: response.status }]
    })
    row[`${question.name}.responses`] = answered.length === 0 ? null : answered.map((a) => a.value)
    row[`${question.name}.responses.users`] = answered.length === 0 ? null : answered.map((a) => a.user)
    row[`${question.name}.responses.status`] = answered.length === 0 ? null : answered.map((a) => a.status)
    row[`${question.name}.suggestion`] = null
    row[`${question.name}.suggestion.score`] = null
    row[`${question.name}.suggestion.agent`] = null
  }
  const rankings = new Set(settings.questions.filter((q) => q.settings.type === "ranking").map((q) => q.id))
  for (const suggestion of record.suggestions ?? []) {
    const name = questionNames.get(suggestion.question_id)
    if (name === undefined) continue
    row[`${name}.suggestion`] = rankings.has(suggestion.question_id) && Array.isArray(suggestion.value)
      ? suggestion.value.map((item: unknown) => isObject(item) ? item["value"] : item)
      : suggestion.value
    row[`${name}.suggestion.score`] = suggestion.score
    row[`${name}.suggestion.agent`] = suggestion.agent
  }
  return row
}
export const isObject = (value: JsonValue): value is Readonly<Record<string, JsonValue>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A `ClassLabel` column's names (the SDK casts label questions' suggestions to class indices). */
export const classNames = (feature: unknown): ReadonlyArray<string> | undefined => {
  if (typeof feature !== "object" || feature === null) return undefined
  const entries = new Map(Object.entries(feature))
  const names = entries.get("names")
  return entries.get("_type") === "ClassLabel" && Array.isArray(names) && names.every((n) => typeof n === "string")
    ? names.filter((n): n is string => typeof n === "string")
    : undefined
}

export interface RowContext {
  readonly settings: DatasetSettings
  readonly features: ReadonlyMap<string, unknown>
  /** A user id of the source: the same id when the target knows it, else another (the SDK: the importing user). */
  readonly user: (sourceUserId: string) => UserId
  /** The id to give a row without an `id` column: the SDK's `<split>_<row index>`. */
  readonly fallbackId: string
}

const present = (value: JsonValue | undefined): value is JsonValue => value !== undefined && value !== null

/** One SDK row back to a record upsert (by `external_id`, as the SDK's `log` matches by record id). */
export const rowToRecord = (row: Readonly<Record<string, JsonValue>>, context: RowContext): RecordUpsert => {
  const get = (name: string): JsonValue | undefined => new Map(Object.entries(row)).get(name)
  const { settings } = context
  const fields: Record<string, JsonValue> = {}
  for (const field of settings.fields) {
    const value = get(field.name)
    if (!present(value)) continue
    fields[field.name] = field.settings.type === "custom" && typeof value === "string"
      ? parseJsonOr(value)
      : field.settings.type === "image"
      ? imageValue(value)
      : value
  }
  const metadata: Record<string, JsonValue> = {}
  for (const property of settings.metadata) {
    const value = get(property.name) ?? get(`metadata.${property.name}`)
    if (present(value)) metadata[property.name] = value
  }
  const vectors: Record<string, ReadonlyArray<number>> = {}
  for (const vector of settings.vectors) {
    const value = get(vector.name) ?? get(`vector.${vector.name}`)
    if (Array.isArray(value)) vectors[vector.name] = value.filter((v): v is number => typeof v === "number")
  }
  const suggestions: Array<SuggestionCreate> = []
  const byUser = new Map<UserId, { values: Record<string, { value: JsonValue }>; status: RecordResponse["status"] }>()
  for (const question of settings.questions) {
    let value = get(`${question.name}.suggestion`)
    const names = classNames(context.features.get(`${question.name}.suggestion`))
    if (names !== undefined && typeof value === "number") value = names[value] ?? null
    if (question.settings.type === "ranking" && Array.isArray(value)) {
      value = value.map((item: unknown) => (typeof item === "string" ? { value: item } : item))
    }
    if (present(value)) {
      const score = get(`${question.name}.suggestion.score`)
      const agent = get(`${question.name}.suggestion.agent`)
      suggestions.push({
        question_name: question.name,
        value,
        score: typeof score === "number" ? score : Array.isArray(score) ? score.filter((s): s is number => typeof s === "number") : null,
        agent: typeof agent === "string" ? agent : null
      })
    }
    const values = get(`${question.name}.responses`)
    const users = get(`${question.name}.responses.users`)
    const statuses = get(`${question.name}.responses.status`)
    if (!Array.isArray(values) || !Array.isArray(users)) continue
    const used = new Set<UserId>()
    values.forEach((answer, index) => {
      const source = users[index]
      if (typeof source !== "string") return
      const user = context.user(source)
      if (used.has(user)) return
      used.add(user)
      const status = Array.isArray(statuses) ? statuses[index] : undefined
      const entry = byUser.get(user) ?? { values: {}, status: responseStatus(status) }
      entry.values[question.name] = { value: answer }
      byUser.set(user, entry)
    })
  }
  const id = get("id")
  return {
    external_id: typeof id === "string" && id.length > 0 ? id : typeof id === "number" ? String(id) : context.fallbackId,
    fields,
    metadata,
    vectors,
    suggestions,
    responses: [...byUser.entries()].map(([user_id, { status, values }]) => ({
      user_id,
      values,
      status
    }))
  }
}

/** An image as `datasets` stores it (`{bytes, path}`, the bytes already a data URI) or as a URL string. */
export const imageValue = (value: JsonValue): JsonValue => {
  if (!isObject(value)) return value
  const { bytes, path } = value
  return typeof bytes === "string" ? bytes : typeof path === "string" ? path : null
}

const responseStatus = (status: JsonValue | undefined): RecordResponse["status"] =>
  status === "draft" || status === "discarded" ? status : "submitted"

const parseJsonOr = (text: string): JsonValue => {
  try {
    const parsed: JsonValue = JSON.parse(text)
    return isObject(parsed) ? parsed : text
  } catch {
    return text
  }
}
