/**
 * Every job handler of the application, in one list, so the server's workers and `gloss worker` processes run the
 * same ones. It lives here, where the app is assembled, because the handlers are features (datasets, webhooks)
 * while the queue in `services/jobs/` knows none of them. A feature adds its handler here (see
 * `services/jobs/README.md`).
 */
import { Effect, Layer } from "effect"
import { GlossConfig } from "./Config.js"
import { Exports, exportToFile } from "./services/exports/Exports.js"
import { exportToHub, HubExport } from "./services/hub/HubExport.js"
import { HubImport, importFromHub } from "./services/hub/HubImport.js"
import { JobHandlers } from "./services/jobs/JobHandlers.js"
import { JobWorkersLive } from "./services/jobs/JobWorkers.js"
import { SqlJobsRepo } from "./services/jobs/SqlJobsRepo.js"
import { ApplyResponses, applyResponses } from "./services/records/ApplyResponses.js"
import { recomputeStatuses, StatusRecomputation } from "./services/records/RecomputeStatuses.js"
import { WebhookDelivery } from "./services/webhooks/Delivery.js"
import { deliverWebhook, deliverWebhookBurst } from "./services/webhooks/deliveryJob.js"

export const AppJobHandlersLive = JobHandlers.layer(Effect.all([
  deliverWebhook,
  deliverWebhookBurst,
  recomputeStatuses,
  applyResponses,
  exportToHub,
  importFromHub,
  exportToFile
])).pipe(
  Layer.provide([
    WebhookDelivery.Default,
    StatusRecomputation.Default,
    ApplyResponses.Default,
    HubExport.Default,
    HubImport.Default,
    Exports.Default
  ])
)

/** The application's handlers on `concurrency` workers. */
export const AppJobWorkersLive = (concurrency: number) =>
  JobWorkersLive(concurrency).pipe(Layer.provide(AppJobHandlersLive), Layer.provide(SqlJobsRepo.Default))

/** The server process's workers: GLOSS_JOB_WORKERS of them. */
export const ServerJobWorkersLive = Layer.unwrapEffect(Effect.map(GlossConfig, ({ jobs }) => AppJobWorkersLive(jobs.workers)))
