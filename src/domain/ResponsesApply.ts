import { Schema } from "effect"
import { RecordId } from "./Ids.js"
import { ResponseStatus, ResponseValuesInput } from "./Response.js"
import { SearchRecordsQuery } from "./Search.js"

/**
 * `POST /me/datasets/{id}/responses/apply` (a Gloss addition): the caller's answer, applied to every record the
 * search matches when the job starts (the caller's view: `/me/datasets/{id}/records/search`), less `exclude`.
 * It runs as a job (`GET /jobs/{id}` shows its progress) so that tens of thousands of records take one request.
 */
export const ResponsesApply = Schema.Struct({
  search: SearchRecordsQuery,
  values: Schema.optional(Schema.NullOr(ResponseValuesInput)),
  status: ResponseStatus,
  exclude: Schema.optional(Schema.Array(RecordId).pipe(Schema.maxItems(1000)))
}).annotations({ identifier: "ResponsesApply" })
export type ResponsesApply = typeof ResponsesApply.Type
