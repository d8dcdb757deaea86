/**
 * Every job handler of the application, in one list, so the server's workers and `gloss worker` processes run the
 * same ones. A feature adds its handler here (see README.md in this folder).
 */
import { Effect } from "effect"
import { JobHandlers } from "./JobHandlers.js"

export const AppJobHandlersLive = JobHandlers.layer(Effect.all([
  // webhooks: deliverWebhook, records: recomputeRecordStatuses, …
]))
