import { Effect } from "effect"
import { jobHandler } from "../jobs/JobHandlers.js"
import { DeliveryPayload, WebhookDelivery } from "./Delivery.js"

/** One event to one webhook, on the `high` queue (enqueued by the outbox dispatcher). */
export const DeliverWebhook = "webhooks.deliver"

export const deliverWebhook = jobHandler(
  DeliverWebhook,
  DeliveryPayload,
  (payload) => Effect.flatMap(WebhookDelivery, (delivery) => delivery.deliver(payload))
)
