import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, NotFound } from "../../domain/Errors.js"
import { Job, JobId } from "../../domain/Job.js"
import { Authentication } from "../Authentication.js"

/** Job status for whoever started it: owners and admins; the lookup comes before the policy. */
export class JobsGroup extends HttpApiGroup.make("jobs")
  .add(
    HttpApiEndpoint.get("get", "/jobs/:id").setPath(Schema.Struct({ id: JobId })).addSuccess(Job)
      .addError(NotFound.http)
  )
  .addError(Forbidden.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Background jobs (owner or admin)")
{}
