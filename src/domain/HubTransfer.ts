import { Schema } from "effect"

/**
 * A Hub dataset repo id, `owner/name` (letters, digits, `-`, `_`, `.`; at most 96 characters each side, as the Hub
 * allows). Checked here so that a repo id never carries a path or a query into the Hub's URLs.
 */
export const HubRepoId = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][\w.-]{0,95}\/[A-Za-z0-9][\w.-]{0,95}$/, {
    message: () => "must be a Hugging Face Hub dataset id 'owner/name'"
  })
)

/** A subset (`config_name`) or split name: one path segment of the repo. */
const HubSegment = Schema.String.pipe(Schema.pattern(/^[\w.-]{1,128}$/, {
  message: () => "must be 1 to 128 letters, digits, '-', '_' or '.'"
}))

/**
 * `POST /datasets/{id}/export`: the dataset's records pushed to a Hub dataset repo by a job, in the
 * layout of the SDK's `Dataset.to_hub`. The token needs write access; it is kept encrypted while the job waits.
 */
export const DatasetHubExport = Schema.Struct({
  name: HubRepoId,
  /** Default `default` (its files go under `data/`). */
  subset: Schema.optional(HubSegment),
  /** Default `train`. */
  split: Schema.optional(HubSegment),
  /** Default false: a new repo is public, as `huggingface_hub` creates it. */
  private: Schema.optional(Schema.Boolean),
  token: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000))
}).annotations({ identifier: "DatasetHubExport" })
export type DatasetHubExport = typeof DatasetHubExport.Type

const MappingItem = Schema.Struct({
  source: Schema.String.pipe(Schema.minLength(1)),
  target: Schema.String.pipe(Schema.minLength(1))
})

/** Which column of the Hub dataset goes where: fields (at least one), metadata properties, suggestions by question. */
export const HubDatasetMapping = Schema.Struct({
  fields: Schema.Array(MappingItem).pipe(Schema.minItems(1), Schema.maxItems(1000)),
  metadata: Schema.optional(Schema.NullOr(Schema.Array(MappingItem).pipe(Schema.maxItems(1000)))),
  suggestions: Schema.optional(Schema.NullOr(Schema.Array(MappingItem).pipe(Schema.maxItems(1000)))),
  /** The column whose value becomes each record's external id: rows are upserted by it. */
  external_id: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.minLength(1))))
}).annotations({ identifier: "HubDatasetMapping" })
export type HubDatasetMapping = typeof HubDatasetMapping.Type

type Item = typeof MappingItem.Type

/** A mapping with what was left out filled in. */
export interface HubMapping {
  readonly fields: ReadonlyArray<Item>
  readonly metadata: ReadonlyArray<Item>
  readonly suggestions: ReadonlyArray<Item>
  readonly external_id: string | null
}

export const hubMapping = (mapping: HubDatasetMapping): HubMapping => ({
  fields: mapping.fields,
  metadata: mapping.metadata ?? [],
  suggestions: mapping.suggestions ?? [],
  external_id: mapping.external_id ?? null
})

/**
 * `POST /datasets/{id}/import`: the rows of any Hub dataset's `subset` and `split` (stored as
 * Parquet) become records of this published dataset, by `mapping`, in a job.
 */
export const DatasetHubImport = Schema.Struct({
  name: HubRepoId,
  subset: HubSegment,
  split: HubSegment,
  mapping: HubDatasetMapping
}).annotations({ identifier: "DatasetHubImport" })
export type DatasetHubImport = typeof DatasetHubImport.Type
