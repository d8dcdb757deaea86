import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Items } from "../../domain/Common.js"
import { Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { WebhookId } from "../../domain/Ids.js"
import { Webhook, WebhookCreate, WebhookUpdate } from "../../domain/Webhook.js"
import { Authentication } from "../Authentication.js"

const ById = Schema.Struct({ id: WebhookId })

/** Webhooks: owners only, at most 10. Deliveries are described in docs/how-to/webhooks.md. */
export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(HttpApiEndpoint.get("list", "/webhooks").addSuccess(Items(Webhook)))
  .add(
    HttpApiEndpoint.post("create", "/webhooks").setPayload(WebhookCreate).addSuccess(Webhook, { status: 201 })
      .addError(Unprocessable.http)
  )
  .add(
    HttpApiEndpoint.patch("update", "/webhooks/:id").setPath(ById).setPayload(WebhookUpdate).addSuccess(Webhook)
      .addError(NotFound.http).addError(Unprocessable.http)
  )
  .add(HttpApiEndpoint.del("delete", "/webhooks/:id").setPath(ById).addSuccess(Webhook).addError(NotFound.http))
  .add(
    HttpApiEndpoint.post("ping", "/webhooks/:id/ping").setPath(ById).addSuccess(Schema.Void, { status: 204 })
      .addError(NotFound.http)
  )
  .addError(Forbidden.http)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Webhooks (owner only): signed event deliveries")
{}
