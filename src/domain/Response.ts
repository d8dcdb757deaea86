import { Schema } from "effect"
import { firstRepeated, JsonValue } from "./Common.js"
import { RecordId, ResponseId, UserId } from "./Ids.js"
import { JsonValueInput } from "./Json.js"
import { Timestamp } from "./Timestamp.js"

export const ResponseStatus = Schema.Literal("draft", "submitted", "discarded")
export type ResponseStatus = typeof ResponseStatus.Type

/** Answers by question name: `{"sentiment": {"value": "positive"}}`. Each value is checked against its question. */
export const ResponseValues = Schema.Record({ key: Schema.String, value: Schema.Struct({ value: JsonValue }) })
export type ResponseValues = typeof ResponseValues.Type
/** What a client sends: each answer nested no deeper than stored JSON may be. */
export const ResponseValuesInput = Schema.Record({ key: Schema.String, value: Schema.Struct({ value: JsonValueInput }) })

export const Response = Schema.Struct({
  id: ResponseId,
  values: Schema.NullOr(ResponseValues),
  status: ResponseStatus,
  record_id: RecordId,
  user_id: UserId,
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Response" })
export type Response = typeof Response.Type

/** `POST /records/{id}/responses` and `PUT /responses/{id}`: `submitted` needs values (checked by the service). */
export const ResponseCreate = Schema.Struct({
  values: Schema.optional(Schema.NullOr(ResponseValuesInput)),
  status: ResponseStatus
}).annotations({ identifier: "ResponseCreate" })
export type ResponseCreate = typeof ResponseCreate.Type

export const ResponseBulkItem = Schema.Struct({
  record_id: RecordId,
  values: Schema.optional(Schema.NullOr(ResponseValuesInput)),
  status: ResponseStatus
})
export type ResponseBulkItem = typeof ResponseBulkItem.Type

/** Each item is an upsert of the caller's response to its record: two for one record would both be applied. */
const oneItemPerRecord = (items: ReadonlyArray<ResponseBulkItem>) => {
  const repeat = firstRepeated(items, (item) => item.record_id)
  if (repeat === undefined) return true
  const message = `items ${repeat.first} and ${repeat.second} have the same record_id \`${repeat.key}\``
  return { path: [repeat.second, "record_id"], message }
}

export const ResponsesBulk = Schema.Struct({
  items: Schema.Array(ResponseBulkItem).pipe(Schema.minItems(1), Schema.maxItems(100), Schema.filter(oneItemPerRecord))
}).annotations({ identifier: "ResponsesBulk" })

/** One outcome per item, in input order: the response, or why that item failed. */
export const ResponsesBulkResult = Schema.Struct({
  items: Schema.Array(Schema.Struct({
    item: Schema.NullOr(Response),
    error: Schema.NullOr(Schema.Struct({ detail: Schema.String }))
  }))
}).annotations({ identifier: "ResponsesBulkResult" })
export type ResponsesBulkResult = typeof ResponsesBulkResult.Type

/** A response given inside a record payload (bulk create/upsert), for any user. */
export const RecordResponse = Schema.Struct({
  user_id: UserId,
  values: Schema.optional(Schema.NullOr(ResponseValuesInput)),
  status: ResponseStatus
})
export type RecordResponse = typeof RecordResponse.Type
