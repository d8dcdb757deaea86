import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { DatasetId, RecordId } from "../../domain/Ids.js"
import {
  DatasetRecord,
  RecordsBulk,
  RecordsBulkCreate,
  RecordsBulkUpsert,
  RecordsPage,
  RecordUpdate
} from "../../domain/Record.js"
import { Authentication } from "../Authentication.js"

const InDataset = Schema.Struct({ id: DatasetId })
const ById = Schema.Struct({ id: RecordId })

/** Repeatable `include=responses,suggestions` / `include=vectors:name`, as Argilla reads it. */
export const IncludeParam = Schema.optional(Schema.Array(Schema.String))

export const RecordsPageParams = Schema.Struct({
  offset: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative())),
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 1000))),
  include: IncludeParam
})

/** Records of a dataset. Writes need a published dataset. */
export class RecordsGroup extends HttpApiGroup.make("records")
  .add(
    HttpApiEndpoint.get("list", "/datasets/:id/records").setPath(InDataset).setUrlParams(RecordsPageParams)
      .addSuccess(RecordsPage)
  )
  .add(
    HttpApiEndpoint.post("bulkCreate", "/datasets/:id/records/bulk").setPath(InDataset).setPayload(RecordsBulkCreate)
      .addSuccess(RecordsBulk, { status: 201 }).addError(Conflict.http)
  )
  .add(
    HttpApiEndpoint.put("bulkUpsert", "/datasets/:id/records/bulk").setPath(InDataset).setPayload(RecordsBulkUpsert)
      .addSuccess(RecordsBulk).addError(Conflict.http)
  )
  .add(
    HttpApiEndpoint.del("deleteMany", "/datasets/:id/records").setPath(InDataset)
      .setUrlParams(Schema.Struct({ ids: Schema.optional(Schema.String) })).addSuccess(Schema.Void, { status: 204 })
  )
  .add(HttpApiEndpoint.get("get", "/records/:id").setPath(ById).addSuccess(DatasetRecord))
  .add(HttpApiEndpoint.patch("update", "/records/:id").setPath(ById).setPayload(RecordUpdate).addSuccess(DatasetRecord))
  .add(HttpApiEndpoint.del("delete", "/records/:id").setPath(ById).addSuccess(DatasetRecord))
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .addError(Unprocessable.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Records: bulk create and upsert (≤ 500), list, get, update, delete")
{}
