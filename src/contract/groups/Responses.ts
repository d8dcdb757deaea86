import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { DatasetId, RecordId, ResponseId } from "../../domain/Ids.js"
import { Job } from "../../domain/Job.js"
import { Response, ResponseCreate, ResponsesBulk, ResponsesBulkResult } from "../../domain/Response.js"
import { ResponsesApply } from "../../domain/ResponsesApply.js"
import { Authentication } from "../Authentication.js"

const OfRecord = Schema.Struct({ id: RecordId })

/** Annotators' answers. */
export class ResponsesGroup extends HttpApiGroup.make("responses")
  .add(
    HttpApiEndpoint.post("create", "/records/:id/responses").setPath(OfRecord).setPayload(ResponseCreate)
      .addSuccess(Response, { status: 201 }).addError(Conflict.http)
  )
  .add(
    HttpApiEndpoint.put("update", "/responses/:id").setPath(Schema.Struct({ id: ResponseId })).setPayload(ResponseCreate)
      .addSuccess(Response)
  )
  .add(HttpApiEndpoint.del("delete", "/responses/:id").setPath(Schema.Struct({ id: ResponseId })).addSuccess(Response))
  .add(HttpApiEndpoint.post("bulk", "/me/responses/bulk").setPayload(ResponsesBulk).addSuccess(ResponsesBulkResult))
  .add(
    HttpApiEndpoint.post("apply", "/me/datasets/:id/responses/apply").setPath(Schema.Struct({ id: DatasetId }))
      .setPayload(ResponsesApply).addSuccess(Job, { status: 202 })
      .annotate(OpenApi.Description, "Gloss addition: answer every record a search matches, as a job")
  )
  .addError(NotFound.http)
  .addError(Forbidden.http)
  .addError(Unprocessable.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Responses: one per user per record")
{}

