/**
 * The rows of any Hub dataset (not one Gloss or the SDK wrote) as records, by the mapping of `POST /datasets/{id}/
 * import`: columns to fields, metadata properties and suggestions, one column to the external id.
 * Values are turned into what each target takes where the meaning is plain (a number into a text field or a terms
 * value, a `ClassLabel` index into its label, an `Image` into its data URI); anything else is left for the record's
 * validation to accept or refuse.
 */
import type { HubMapping } from "../domain/HubTransfer.js"
import type { RecordUpsert } from "../domain/Record.js"
import type { SuggestionCreate } from "../domain/Suggestion.js"
import type { DatasetSettings } from "./dataset.js"
import { classNames, imageValue, isObject } from "./hubRows.js"

/** Any JSON value, as `hubRows.ts` reads them. */
type JsonValue = unknown

export interface MappingContext {
  readonly settings: DatasetSettings
  readonly mapping: HubMapping
  /** The Parquet file's `datasets` features, by column. */
  readonly features: ReadonlyMap<string, unknown>
  /** The suggestions' agent: where they came from. */
  readonly agent: string
}

/** Where a mapping points to something the dataset does not have: one message per target, for a 422. */
export const unknownTargets = (settings: DatasetSettings, mapping: HubMapping): ReadonlyArray<string> => {
  const missing = (kind: string, targets: ReadonlyArray<{ readonly target: string }>, names: ReadonlyArray<string>) =>
    targets.filter(({ target }) => !names.includes(target)).map(({ target }) => `${kind} '${target}' does not exist in the dataset`)
  return [
    ...missing("field", mapping.fields, settings.fields.map((field) => field.name)),
    ...missing("metadata property", mapping.metadata, settings.metadata.map((property) => property.name)),
    ...missing("question", mapping.suggestions, settings.questions.map((question) => question.name))
  ]
}

const present = (value: JsonValue | undefined): value is JsonValue => value !== undefined && value !== null

const asText = (value: JsonValue): JsonValue =>
  typeof value === "number" || typeof value === "boolean" ? String(value) : isObject(value) || Array.isArray(value) ? JSON.stringify(value) : value

/** A label's class names, also for a list of labels (`Sequence(ClassLabel)`, or `[ClassLabel]` in newer `datasets`). */
const labelNames = (feature: unknown) => {
  if (Array.isArray(feature)) return classNames(feature[0])
  if (typeof feature === "object" && feature !== null) {
    const inner = new Map(Object.entries(feature))
    if (inner.get("_type") === "Sequence") return classNames(inner.get("feature"))
  }
  return classNames(feature)
}

const label = (value: JsonValue, names: ReadonlyArray<string> | undefined): JsonValue =>
  typeof value === "number" ? (names?.[value] ?? String(value)) : value

export const mappedRecord = (row: Readonly<Record<string, JsonValue>>, context: MappingContext): RecordUpsert => {
  const columns = new Map(Object.entries(row))
  const { mapping, settings } = context
  const fields: Record<string, JsonValue> = {}
  for (const { source, target } of mapping.fields) {
    const value = columns.get(source)
    const field = settings.fields.find((candidate) => candidate.name === target)
    if (!present(value) || field === undefined) continue
    const type = field.settings.type
    fields[target] = type === "text" ? asText(value) : type === "image" ? imageValue(value) : value
  }
  const metadata: Record<string, JsonValue> = {}
  for (const { source, target } of mapping.metadata) {
    const value = columns.get(source)
    const property = settings.metadata.find((candidate) => candidate.name === target)
    if (!present(value) || property === undefined) continue
    metadata[target] = property.settings.type === "terms" && typeof value !== "string" && !Array.isArray(value) ? asText(value) : value
  }
  const suggestions: Array<SuggestionCreate> = []
  for (const { source, target } of mapping.suggestions) {
    let value = columns.get(source)
    const question = settings.questions.find((candidate) => candidate.name === target)
    if (!present(value) || question === undefined) continue
    const names = labelNames(context.features.get(source))
    switch (question.settings.type) {
      case "label_selection":
        value = asText(label(value, names))
        break
      case "multi_label_selection":
        value = (Array.isArray(value) ? value : [value]).map((item) => asText(label(item, names)))
        break
      case "ranking":
        value = Array.isArray(value) ? value.map((item) => (typeof item === "string" ? { value: item } : item)) : value
        break
      case "text":
        value = asText(value)
        break
    }
    suggestions.push({ question_name: target, value, agent: context.agent })
  }
  const id = mapping.external_id === null ? undefined : columns.get(mapping.external_id)
  return {
    ...(present(id) ? { external_id: typeof id === "string" ? id : String(asText(id)) } : {}),
    fields,
    metadata,
    suggestions
  }
}

/**
 * The Parquet files of a subset's split among a repo's files, in order, as `datasets` lays them out: the default
 * subset at the root, under `data/` or `default/`; another under its own folder. A file belongs to a split when a
 * folder on its path is named after it, or its name starts with it (`train-00000-of-00002.parquet`, `train.parquet`).
 */
export const splitParquetFiles = (paths: ReadonlyArray<string>, subset: string, split: string) => {
  const parquets = paths.filter((path) => path.endsWith(".parquet"))
  const inSubset = parquets.filter((path) => {
    const folders = path.split("/").slice(0, -1)
    return subset === "default" ? folders.length === 0 || ["data", "default"].includes(folders[0]!) : folders.includes(subset)
  })
  const splitOf = (path: string) => {
    const parts = path.split("/")
    const file = parts.at(-1) ?? path
    const folders = parts.slice(0, -1)
    return folders.at(-1) === split || file.startsWith(`${split}-`) || file.startsWith(`${split}.`) || file.startsWith(`${split}_`)
  }
  const splits = [...new Set(inSubset.map((path) => (path.split("/").at(-1) ?? path).split(/[-._]/)[0] ?? ""))]
  return { files: inSubset.filter(splitOf).sort(), splits }
}
