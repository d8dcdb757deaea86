import { Schema } from "effect"
import { JsonObject } from "./Common.js"
import { DatasetId, RecordId } from "./Ids.js"
import { JsonObjectInput } from "./Json.js"
import { Numbers } from "./Numbers.js"
import { RecordResponse, Response } from "./Response.js"
import { Suggestion, SuggestionCreate } from "./Suggestion.js"
import { Timestamp } from "./Timestamp.js"

export const RecordStatus = Schema.Literal("pending", "completed")
export type RecordStatus = typeof RecordStatus.Type

/** Field values by field name; checked against the dataset's fields by the service. */
export const RecordFields = JsonObject
/** What a client sends: the same, nested no deeper than the stored JSON may be. */
const RecordFieldsInput = JsonObjectInput
export const Vectors = Schema.Record({ key: Schema.String, value: Numbers })
export type Vectors = typeof Vectors.Type

/** A record (reference A.3). `responses`, `suggestions` and `vectors` are present only when asked for. */
export const DatasetRecord = Schema.Struct({
  id: RecordId,
  status: RecordStatus,
  fields: RecordFields,
  metadata: Schema.NullOr(JsonObject),
  external_id: Schema.NullOr(Schema.String),
  responses: Schema.optional(Schema.Array(Response)),
  suggestions: Schema.optional(Schema.Array(Suggestion)),
  vectors: Schema.optional(Vectors),
  dataset_id: DatasetId,
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Record" })
export type DatasetRecord = typeof DatasetRecord.Type

/** The longest `external_id` (characters). Exported for the hand-written bulk reader (`codecs/bulkPayload.ts`). */
export const MAX_EXTERNAL_ID = 2000
const ExternalId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_EXTERNAL_ID))
/** Whether a value is a record id as the schemas accept it (the same check, for code that reads JSON by hand). */
export const isRecordId = Schema.is(RecordId)

export const RecordCreate = Schema.Struct({
  fields: RecordFieldsInput,
  metadata: Schema.optional(Schema.NullOr(JsonObjectInput)),
  external_id: Schema.optional(Schema.NullOr(ExternalId)),
  responses: Schema.optional(Schema.NullOr(Schema.Array(RecordResponse))),
  suggestions: Schema.optional(Schema.NullOr(Schema.Array(SuggestionCreate))),
  vectors: Schema.optional(Schema.NullOr(Vectors))
}).annotations({ identifier: "RecordCreate" })
export type RecordCreate = typeof RecordCreate.Type

/** Bulk upsert: matched by `external_id`, then by `id`; `fields` are needed only to create. */
export const RecordUpsert = Schema.Struct({
  id: Schema.optional(Schema.NullOr(RecordId)),
  fields: Schema.optional(Schema.NullOr(RecordFieldsInput)),
  metadata: Schema.optional(Schema.NullOr(JsonObjectInput)),
  external_id: Schema.optional(Schema.NullOr(ExternalId)),
  responses: Schema.optional(Schema.NullOr(Schema.Array(RecordResponse))),
  suggestions: Schema.optional(Schema.NullOr(Schema.Array(SuggestionCreate))),
  vectors: Schema.optional(Schema.NullOr(Vectors))
}).annotations({ identifier: "RecordUpsert" })
export type RecordUpsert = typeof RecordUpsert.Type

export const MAX_RECORDS_PER_BULK = 500

export const RecordsBulkCreate = Schema.Struct({
  items: Schema.Array(RecordCreate).pipe(Schema.minItems(1), Schema.maxItems(MAX_RECORDS_PER_BULK))
}).annotations({ identifier: "RecordsBulkCreate" })

export const RecordsBulkUpsert = Schema.Struct({
  items: Schema.Array(RecordUpsert).pipe(Schema.minItems(1), Schema.maxItems(MAX_RECORDS_PER_BULK))
}).annotations({ identifier: "RecordsBulkUpsert" })

export const RecordsBulk = Schema.Struct({
  items: Schema.Array(DatasetRecord),
  updated_item_ids: Schema.optional(Schema.Array(RecordId))
}).annotations({ identifier: "RecordsBulk" })

/** `PATCH /records/{id}`: `metadata` replaces the whole dict, `suggestions` replace all, `vectors` are upserted. */
export const RecordUpdate = Schema.Struct({
  metadata: Schema.optional(Schema.NullOr(JsonObjectInput)),
  suggestions: Schema.optional(Schema.Array(SuggestionCreate)),
  vectors: Schema.optional(Vectors)
}).annotations({ identifier: "RecordUpdate" })
export type RecordUpdate = typeof RecordUpdate.Type

export const RecordsPage = Schema.Struct({ items: Schema.Array(DatasetRecord), total: Schema.Int }).annotations({
  identifier: "RecordsPage"
})
