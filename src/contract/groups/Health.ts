import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Liveness, Readiness } from "../../domain/Health.js"

/**
 * For load balancers and orchestrators; no credentials. Liveness: the process answers. Readiness: the database,
 * the search engine and the job queue answer too (503 with the same body when one does not).
 */
export class HealthGroup extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("live", "/health/live").addSuccess(Liveness))
  .add(
    HttpApiEndpoint.get("ready", "/health/ready").addSuccess(Readiness).addSuccess(Readiness, { status: 503 })
  )
  .annotate(OpenApi.Description, "Liveness and readiness probes")
{}
