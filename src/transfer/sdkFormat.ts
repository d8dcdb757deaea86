/**
 * The Argilla SDK 2.8's export shapes and Gloss's API shapes, both ways: the dataset model dump
 * (`.argilla/dataset.json`), `Settings.serialize()` (`.argilla/settings.json`) and a record's `Record.to_dict()` (each
 * element of `records.json`, and each row the Hub export flattens). Shared by the disk and the Hub transfers.
 *
 * Where Gloss writes more than the SDK (the SDK reads all of it back; docs/reference/compatibility.md lists it):
 * - each response carries its `status` (the SDK writes only `value` and `user_id`, so its own round trip turns every
 *   response into a draft); a response without values (a discarded one) is one entry with `value: null` under the
 *   first question, which the SDK reads back as a response with no values;
 * - ranking responses keep their ranks (`[{"value", "rank"}]`, which the SDK passes through; the SDK's plain list of
 *   values would lose ties, and submitted rankings need ranks), and a plain list read from an SDK folder is ranked
 *   by position;
 * - suggestions carry their `type`; the records carry their vectors (the SDK's `to_disk` asks for none);
 * - the dataset model carries the dataset's `metadata`.
 */
import { Schema } from "effect"
import type { Dataset as WireDataset } from "../domain/Dataset.js"
import { Distribution } from "../domain/Dataset.js"
import { FieldCreate } from "../domain/Field.js"
import { MetadataPropertyCreate } from "../domain/MetadataProperty.js"
import { QuestionCreate } from "../domain/Question.js"
import type { Question } from "../domain/Question.js"
import { UserId } from "../domain/Ids.js"
import type { DatasetRecord, RecordUpsert } from "../domain/Record.js"
import { ResponseStatus } from "../domain/Response.js"
import type { RecordResponse } from "../domain/Response.js"
import { Score, SuggestionType } from "../domain/Suggestion.js"
import type { SuggestionCreate } from "../domain/Suggestion.js"
import { VectorSettingsCreate } from "../domain/VectorSettings.js"
import type { Dataset, DatasetDraftOf } from "./dataset.js"

/** The SDK's layout inside an export folder (`DiskImportExportMixin`). */
export const CONFIG_DIR = ".argilla"
export const DATASET_FILE = `${CONFIG_DIR}/dataset.json`
export const SETTINGS_FILE = `${CONFIG_DIR}/settings.json`
export const RECORDS_FILE = "records.json"

/** Python's `datetime.isoformat()` of a naive UTC datetime: microseconds, no zone. */
export const pythonTimestamp = (date: Date) => `${date.toISOString().slice(0, -1)}000`

// ---------------------------------------------------------------------------------------------------------------
// Writing: Gloss → SDK

/** `.argilla/dataset.json`: `DatasetModel.model_dump()`, plus the dataset's own metadata. */
export const sdkDatasetModel = (dataset: WireDataset) => ({
  id: dataset.id,
  inserted_at: pythonTimestamp(dataset.inserted_at),
  updated_at: pythonTimestamp(dataset.updated_at),
  name: dataset.name,
  status: dataset.status,
  guidelines: dataset.guidelines,
  allow_extra_metadata: dataset.allow_extra_metadata,
  distribution: dataset.distribution,
  workspace_id: dataset.workspace_id,
  last_activity_at: pythonTimestamp(dataset.last_activity_at),
  metadata: dataset.metadata
})

const stamps = (item: { readonly id: string; readonly inserted_at: Date; readonly updated_at: Date }) => ({
  id: item.id,
  inserted_at: pythonTimestamp(item.inserted_at),
  updated_at: pythonTimestamp(item.updated_at)
})

/** `.argilla/settings.json`: `Settings.serialize()` — each property as the SDK's model dumps it. */
export const sdkSettings = (dataset: Dataset) => ({
  guidelines: dataset.guidelines,
  questions: dataset.settings.questions.map((question) => ({
    ...stamps(question),
    name: question.name,
    settings: question.settings,
    title: question.title,
    description: question.description,
    required: question.required,
    dataset_id: question.dataset_id,
    type: question.settings.type
  })),
  fields: dataset.settings.fields.map((field) => ({
    ...stamps(field),
    name: field.name,
    settings: field.settings,
    title: field.title,
    required: field.required,
    description: null,
    dataset_id: field.dataset_id,
    type: field.settings.type
  })),
  vectors: dataset.settings.vectors.map((vector) => ({
    ...stamps(vector),
    name: vector.name,
    title: vector.title,
    dimensions: vector.dimensions,
    dataset_id: vector.dataset_id
  })),
  metadata: dataset.settings.metadata.map((property) => ({
    ...stamps(property),
    name: property.name,
    settings: { visible_for_annotators: property.visible_for_annotators, ...property.settings },
    title: property.title,
    visible_for_annotators: property.visible_for_annotators,
    dataset_id: property.dataset_id
  })),
  allow_extra_metadata: dataset.allow_extra_metadata,
  distribution: dataset.distribution,
  mapping: null
})

const isRanking = (question: Question | undefined) => question?.settings.type === "ranking"

const rankedValues = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map((item: unknown) =>
      typeof item === "object" && item !== null && "value" in item ? item.value : item
    )
    : value

/** What `records.json` holds for one record: `Record.to_dict()` (see the module's note for the additions). */
export interface SdkRecordDict {
  readonly id: string | null
  readonly fields: Readonly<Record<string, unknown>>
  readonly metadata: Readonly<Record<string, unknown>>
  readonly suggestions: Readonly<Record<string, SdkSuggestion>>
  readonly responses: Readonly<Record<string, ReadonlyArray<SdkResponse>>>
  readonly vectors: Readonly<Record<string, ReadonlyArray<number>>>
  readonly status: string
  readonly _server_id: string
}

/** The questions of a dataset, by id and by name, as the conversions need them. */
export interface QuestionIndex {
  readonly byId: ReadonlyMap<string, Question>
  readonly byName: ReadonlyMap<string, Question>
  /** The first question's name: where a response without values is written. */
  readonly first: string | undefined
}

export const questionIndex = (questions: ReadonlyArray<Question>): QuestionIndex => ({
  byId: new Map(questions.map((question) => [question.id, question])),
  byName: new Map(questions.map((question) => [question.name, question])),
  first: questions[0]?.name
})

export const sdkRecord = (record: DatasetRecord, questions: QuestionIndex): SdkRecordDict => {
  const suggestions: Record<string, SdkSuggestion> = {}
  for (const suggestion of record.suggestions ?? []) {
    const question = questions.byId.get(suggestion.question_id)
    if (question === undefined) continue
    suggestions[question.name] = {
      // The SDK writes a ranking suggestion as the list of values, and sends them back without ranks.
      value: isRanking(question) ? rankedValues(suggestion.value) : suggestion.value,
      score: suggestion.score,
      agent: suggestion.agent,
      type: suggestion.type
    }
  }
  const responses: Record<string, Array<SdkResponse>> = {}
  const add = (name: string, entry: SdkResponse) => {
    const list = responses[name] ?? []
    list.push(entry)
    responses[name] = list
  }
  for (const response of record.responses ?? []) {
    const values = Object.entries(response.values ?? {})
    if (values.length === 0) {
      if (questions.first !== undefined) add(questions.first, { value: null, user_id: response.user_id, status: response.status })
      continue
    }
    for (const [name, { value }] of values) add(name, { value, user_id: response.user_id, status: response.status })
  }
  // The SDK leaves out fields whose value is None.
  const fields = Object.fromEntries(Object.entries(record.fields).filter(([, value]) => value !== null))
  return {
    id: record.external_id,
    fields,
    metadata: record.metadata ?? {},
    suggestions,
    responses,
    vectors: record.vectors ?? {},
    status: record.status,
    _server_id: record.id
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Reading: SDK → Gloss

const Loose = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** `.argilla/dataset.json` as the SDK reads it (`DatasetModel(**json)`): only the name is needed. */
export const SdkDatasetModel = Schema.Struct({
  name: Schema.String,
  guidelines: Schema.optional(Schema.NullOr(Schema.String)),
  allow_extra_metadata: Schema.optional(Schema.NullOr(Schema.Boolean)),
  distribution: Schema.optional(Schema.NullOr(Distribution)),
  metadata: Schema.optional(Schema.NullOr(Loose))
})
export type SdkDatasetModel = typeof SdkDatasetModel.Type

/** `.argilla/settings.json` (`Settings._from_dict`): each property decoded as the API's create payload takes it. */
export const SdkSettings = Schema.Struct({
  guidelines: Schema.optional(Schema.NullOr(Schema.String)),
  fields: Schema.optionalWith(Schema.Array(FieldCreate), { default: () => [] }),
  questions: Schema.optionalWith(Schema.Array(QuestionCreate), { default: () => [] }),
  metadata: Schema.optionalWith(Schema.NullOr(Schema.Array(MetadataPropertyCreate)), { default: () => [] }),
  vectors: Schema.optionalWith(Schema.NullOr(Schema.Array(VectorSettingsCreate)), { default: () => [] }),
  allow_extra_metadata: Schema.optional(Schema.NullOr(Schema.Boolean)),
  distribution: Schema.optional(Schema.NullOr(Distribution))
})
export type SdkSettings = typeof SdkSettings.Type

const SdkSuggestion = Schema.Struct({
  value: Schema.Unknown,
  score: Schema.optional(Schema.NullOr(Score)),
  agent: Schema.optional(Schema.NullOr(Schema.String)),
  type: Schema.optional(Schema.NullOr(SuggestionType))
})
export type SdkSuggestion = typeof SdkSuggestion.Type

const SdkResponse = Schema.Struct({
  value: Schema.Unknown,
  user_id: UserId,
  status: Schema.optional(Schema.NullOr(ResponseStatus))
})
export type SdkResponse = typeof SdkResponse.Type

/** One element of `records.json` (`Record.from_dict`). */
export const SdkRecord = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.String)),
  fields: Schema.optional(Schema.NullOr(Loose)),
  metadata: Schema.optional(Schema.NullOr(Loose)),
  suggestions: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: SdkSuggestion }))),
  responses: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Array(SdkResponse) }))),
  vectors: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Array(Schema.Number) }))),
  status: Schema.optional(Schema.NullOr(Schema.String)),
  _server_id: Schema.optional(Schema.NullOr(Schema.String))
})
export type SdkRecord = typeof SdkRecord.Type

/**
 * The dataset a folder describes, as the client creates it: the settings without their old ids (a create takes
 * none), named `name` when given. Guidelines, distribution and extra-metadata rule come from the settings file,
 * else the dataset model (the SDK's `Settings` wins over the model the same way).
 */
export const draftOf = (
  model: SdkDatasetModel,
  settings: SdkSettings,
  name: string,
  workspace: string
): DatasetDraftOf<string> => {
  const guidelines = settings.guidelines ?? model.guidelines ?? null
  const distribution = settings.distribution ?? model.distribution ?? undefined
  const allowExtra = settings.allow_extra_metadata ?? model.allow_extra_metadata ?? undefined
  return {
    name,
    workspace,
    ...(guidelines === null || guidelines === "" ? {} : { guidelines }),
    ...(distribution === undefined ? {} : { distribution }),
    ...(allowExtra === undefined ? {} : { allow_extra_metadata: allowExtra }),
    ...(model.metadata == null ? {} : { metadata: model.metadata }),
    settings: {
      fields: settings.fields.map(({ id: _, ...field }) => field),
      questions: settings.questions.map(({ id: _, ...question }) => question),
      metadata: (settings.metadata ?? []).map(({ id: _, ...property }) => property),
      vectors: (settings.vectors ?? []).map(({ id: _, ...vector }) => vector)
    }
  }
}

/** A ranking answer read from a file: the SDK's plain list of values is ranked by position. */
const rankingValue = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map((item: unknown, index) => (typeof item === "string" ? { value: item, rank: index + 1 } : item))
    : value

const suggestionValue = (value: unknown): unknown =>
  Array.isArray(value) ? value.map((item: unknown) => (typeof item === "string" ? { value: item } : item)) : value

/**
 * A record of the file as the bulk upsert takes it: by external id (the file's `id`, else the source's record id),
 * with the responses grouped by user as the SDK's `UserResponse` does (one status each: the entries' own when they
 * agree, else draft).
 */
export const upsertOf = (record: SdkRecord, questions: ReadonlyMap<string, Question>): RecordUpsert => {
  const externalId = record.id ?? record._server_id ?? null
  const suggestions: Array<SuggestionCreate> = Object.entries(record.suggestions ?? {}).map(([name, suggestion]) => ({
    question_name: name,
    value: isRanking(questions.get(name)) ? suggestionValue(suggestion.value) : suggestion.value,
    ...(suggestion.score == null ? {} : { score: suggestion.score }),
    ...(suggestion.agent == null ? {} : { agent: suggestion.agent }),
    ...(suggestion.type == null ? {} : { type: suggestion.type })
  }))
  const byUser = new Map<UserId, { values: Record<string, { value: unknown }>; statuses: Set<ResponseStatus> }>()
  for (const [name, entries] of Object.entries(record.responses ?? {})) {
    for (const entry of entries) {
      const user = byUser.get(entry.user_id) ?? { values: {}, statuses: new Set<ResponseStatus>() }
      byUser.set(entry.user_id, user)
      if (entry.status != null) user.statuses.add(entry.status)
      if (entry.value !== null && entry.value !== undefined) {
        user.values[name] = { value: isRanking(questions.get(name)) ? rankingValue(entry.value) : entry.value }
      }
    }
  }
  const responses: Array<RecordResponse> = [...byUser.entries()].map(([userId, { statuses, values }]) => {
    const [only] = statuses
    return {
      user_id: userId,
      values: Object.keys(values).length === 0 ? null : values,
      status: statuses.size === 1 && only !== undefined ? only : "draft"
    }
  })
  const fields = Object.fromEntries(Object.entries(record.fields ?? {}).filter(([, value]) => value !== null))
  const metadata = record.metadata ?? {}
  const vectors = record.vectors ?? {}
  return {
    ...(externalId === null ? {} : { external_id: externalId }),
    fields,
    ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
    ...(suggestions.length === 0 ? {} : { suggestions }),
    ...(responses.length === 0 ? {} : { responses }),
    ...(Object.keys(vectors).length === 0 ? {} : { vectors })
  }
}
