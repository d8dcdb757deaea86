/**
 * What a webhook receives: the JSON envelope and the `data` of each kind of event. Receivers
 * written in TypeScript can decode deliveries with these after verifying the signature.
 */
import { Schema } from "effect"
import { JsonObject } from "./Common.js"
import { Distribution } from "./Dataset.js"
import { DatasetId, FieldId, MetadataPropertyId, QuestionId, RecordId, ResponseId, UserId, VectorSettingsId, WorkspaceId } from "./Ids.js"
import { RecordStatus } from "./Record.js"
import { ResponseStatus, ResponseValues } from "./Response.js"
import { Role } from "./User.js"
import { WebhookEventType } from "./Webhook.js"
import { Timestamp } from "./Timestamp.js"

const timestamps = { inserted_at: Timestamp, updated_at: Timestamp }

export const WorkspaceEventData = Schema.Struct({ id: WorkspaceId, name: Schema.String, ...timestamps })

export const UserEventData = Schema.Struct({
  id: UserId,
  first_name: Schema.String,
  last_name: Schema.NullOr(Schema.String),
  username: Schema.String,
  role: Role,
  ...timestamps
})

export const DatasetEventData = Schema.Struct({
  id: DatasetId,
  name: Schema.String,
  guidelines: Schema.NullOr(Schema.String),
  allow_extra_metadata: Schema.Boolean,
  status: Schema.Literal("draft", "ready"),
  distribution: Distribution,
  workspace: WorkspaceEventData,
  questions: Schema.Array(Schema.Struct({
    id: QuestionId,
    name: Schema.String,
    title: Schema.String,
    description: Schema.NullOr(Schema.String),
    required: Schema.Boolean,
    settings: JsonObject,
    ...timestamps
  })),
  fields: Schema.Array(Schema.Struct({
    id: FieldId,
    name: Schema.String,
    title: Schema.String,
    required: Schema.Boolean,
    settings: JsonObject,
    ...timestamps
  })),
  metadata_properties: Schema.Array(Schema.Struct({
    id: MetadataPropertyId,
    name: Schema.String,
    title: Schema.String,
    settings: JsonObject,
    visible_for_annotators: Schema.Boolean,
    ...timestamps
  })),
  vectors_settings: Schema.Array(Schema.Struct({
    id: VectorSettingsId,
    name: Schema.String,
    title: Schema.String,
    dimensions: Schema.Int,
    ...timestamps
  })),
  last_activity_at: Timestamp,
  ...timestamps
}).annotations({ identifier: "DatasetEventData" })
export type DatasetEventData = typeof DatasetEventData.Type

/** A record without its responses, suggestions and vectors, with its dataset inlined. */
export const RecordEventData = Schema.Struct({
  id: RecordId,
  status: RecordStatus,
  fields: JsonObject,
  metadata: Schema.NullOr(JsonObject),
  external_id: Schema.NullOr(Schema.String),
  dataset: DatasetEventData,
  ...timestamps
}).annotations({ identifier: "RecordEventData" })
export type RecordEventData = typeof RecordEventData.Type

export const ResponseEventData = Schema.Struct({
  id: ResponseId,
  values: Schema.NullOr(ResponseValues),
  status: ResponseStatus,
  record: RecordEventData,
  user: UserEventData,
  ...timestamps
}).annotations({ identifier: "ResponseEventData" })
export type ResponseEventData = typeof ResponseEventData.Type

export const PingEventData = Schema.Struct({ agent: Schema.String, version: Schema.String })

export const EventType = Schema.Union(WebhookEventType, Schema.Literal("ping"))
export type EventType = typeof EventType.Type

/**
 * The body of every delivery. `timestamp` is when the event happened, in UTC with microseconds
 * (`2024-09-02T11:41:57.561000Z`), as Argilla formats it.
 */
export const WebhookEnvelope = Schema.Struct({
  type: EventType,
  version: Schema.Literal(1),
  timestamp: Schema.String,
  data: Schema.Unknown
}).annotations({ identifier: "WebhookEnvelope" })
export type WebhookEnvelope = typeof WebhookEnvelope.Type
