import { Effect } from "effect"
import { jobHandler } from "../jobs/JobHandlers.js"
import { BurstPayload, DeliverWebhook, DeliverWebhookBurst, DeliveryPayload, WebhookDelivery } from "./Delivery.js"

export { DeliverWebhook, DeliverWebhookBurst }

/** One event to one webhook, on the `high` queue (enqueued by the outbox dispatcher, or by a burst for a retry). */
export const deliverWebhook = jobHandler(
  DeliverWebhook,
  DeliveryPayload,
  (payload) => Effect.flatMap(WebhookDelivery, (delivery) => delivery.deliver(payload))
)

/** Many events to one webhook, on the `high` queue (enqueued by the outbox dispatcher for a burst of events). */
export const deliverWebhookBurst = jobHandler(
  DeliverWebhookBurst,
  BurstPayload,
  (payload) => Effect.flatMap(WebhookDelivery, (delivery) => delivery.deliverBurst(payload))
)
