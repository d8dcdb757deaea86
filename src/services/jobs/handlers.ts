/**
 * Every job handler of the application, in one list, so the server's workers and `gloss worker` processes run the
 * same ones. A feature adds its handler here (see README.md in this folder).
 */
import { Effect, Layer } from "effect"
import { recomputeStatuses, StatusRecomputation } from "../datasets/RecomputeStatuses.js"
import { WebhookDelivery } from "../webhooks/Delivery.js"
import { deliverWebhook } from "../webhooks/deliveryJob.js"
import { JobHandlers } from "./JobHandlers.js"

export const AppJobHandlersLive = JobHandlers.layer(Effect.all([
  deliverWebhook,
  recomputeStatuses
])).pipe(Layer.provide([WebhookDelivery.Default, StatusRecomputation.Default]))
