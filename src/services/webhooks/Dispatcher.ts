/**
 * Moves committed outbox rows to the job queue: each event becomes one `webhooks.deliver` job per enabled webhook
 * that wants it (on `high`), each follow-up job is enqueued as written. Runs in the server and in `gloss worker`;
 * any number of dispatchers may run against one database.
 *
 * A batch is claimed and enqueued in one transaction. On the embedded queue the jobs commit with the claim, so each
 * row is dispatched exactly once. On Redis the enqueue cannot join the transaction: a crash after enqueueing and
 * before committing dispatches the batch again, and the deliveries carry the same `webhook-id` (at least once).
 */
import { Duration, Effect, Layer, Schedule, Schema } from "effect"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { JobQueue } from "../jobs/JobQueue.js"
import type { Json } from "../jobs/model.js"
import { type BurstPayload, DeliverWebhook, DeliverWebhookBurst, type DeliveryPayload } from "./Delivery.js"
import { type ClaimedRow, OutboxRepo } from "./OutboxRepo.js"
import { WebhookSettings } from "./settings.js"
import { envelope, messageIdFor } from "./signing.js"
import { type WebhookRow, WebhooksRepo } from "./WebhooksRepo.js"

const JsonValue: Schema.Schema<Json> = Schema.Union(
  Schema.Null,
  Schema.Boolean,
  Schema.Number,
  Schema.String,
  Schema.Array(Schema.suspend(() => JsonValue)),
  Schema.Record({ key: Schema.String, value: Schema.suspend(() => JsonValue) })
)
const decodeJob = Schema.decode(Schema.parseJson(JsonValue))

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** Keeps the loop alive through infrastructure failures (database restarting, Redis down), which it logs. */
const logAndContinue = (what: string) => <A, R>(self: Effect.Effect<A, never, R>) =>
  Effect.catchAllCause(self, (cause) => Effect.logError(`Outbox dispatcher: ${what} failed; will try again`, cause))

export const OutboxDispatcherLive = Layer.scopedDiscard(Effect.gen(function*() {
  const outbox = yield* OutboxRepo
  const webhooks = yield* WebhooksRepo
  const queue = yield* JobQueue
  const db = yield* Database
  const settings = yield* WebhookSettings
  const delivery = { attempts: settings.attempts, backoff: settings.backoff }

  /** The deliveries of one batch's events, by webhook, in the batch's order. */
  const deliveriesOf = (rows: ReadonlyArray<ClaimedRow>, hooks: ReadonlyArray<WebhookRow>) => {
    const byHook = new Map<WebhookRow["id"], Array<DeliveryPayload>>()
    for (const row of rows) {
      if (row.kind !== "event") continue
      const body = envelope(row.name, row.occurred_at, row.payload)
      for (const hook of hooks) {
        if (!hook.events.some((event) => event === row.name)) continue
        const job = {
          webhookId: hook.id,
          eventId: row.id,
          messageId: messageIdFor(row.id, hook.id),
          type: row.name,
          body,
          attempt: 1
        }
        const jobs = byHook.get(hook.id)
        if (jobs === undefined) byHook.set(hook.id, [job])
        else jobs.push(job)
      }
    }
    return byHook
  }

  /**
   * A webhook's few events each get a job of their own; a burst of them (a bulk write, a backlog after a restart)
   * goes out as one `webhooks.deliver-burst` job: a job and two queue transactions per event bounded delivery to a
   * few hundred events a second (bench: webhooks).
   */
  const enqueueDeliveries = (jobs: ReadonlyArray<DeliveryPayload>, hook: WebhookRow | undefined, at: Date) => {
    // A webhook that is backed off (its receiver failing) gets its new events when the back-off is over.
    const wait = hook?.retry_at != null ? hook.retry_at.getTime() - at.getTime() : 0
    const options = wait > 0 ? { ...delivery, delay: Duration.millis(wait) } : delivery
    return jobs.length < settings.burstFrom
      ? Effect.forEach(jobs, (job) => queue.enqueue("high", DeliverWebhook, job, options), { discard: true })
      : Effect.forEach(chunks(jobs, settings.dispatchBatch), (events) => {
        const burst: BurstPayload = {
          webhookId: events[0]!.webhookId,
          events: events.map(({ webhookId: _, ...event }) => event)
        }
        return queue.enqueue("high", DeliverWebhookBurst, burst, options)
      }, { discard: true })
  }

  /** One batch; how many rows it took. */
  const batch = db.transaction(Effect.gen(function*() {
    const at = yield* now
    const rows = yield* outbox.claim(settings.dispatchBatch, at)
    if (rows.length === 0) return 0
    for (const row of rows) {
      if (row.kind !== "job") continue
      // Written by our own code from a Json value; a row that does not parse is a bug, not a reason to stall.
      const payload = yield* Effect.orDie(decodeJob(row.payload))
      yield* queue.enqueue(row.queue ?? "default", row.name, payload)
    }
    const hooks = rows.some((row) => row.kind === "event") ? yield* webhooks.listEnabled : []
    for (const [id, jobs] of deliveriesOf(rows, hooks)) yield* enqueueDeliveries(jobs, hooks.find((h) => h.id === id), at)
    return rows.length
  }))

  // A cheap read first: an idle dispatcher never opens a write transaction.
  const drain = Effect.gen(function*() {
    while (yield* outbox.hasPending) {
      if ((yield* batch) < settings.dispatchBatch) return
    }
  }).pipe(logAndContinue("dispatching events"))

  // Starts with a pass: rows a stopped process left behind go out at once.
  yield* Effect.forkScoped(Effect.repeat(drain, Schedule.spaced(settings.dispatchInterval).pipe(Schedule.jittered)))

  const purge = Effect.gen(function*() {
    yield* outbox.purge(new Date((yield* now).getTime() - Duration.toMillis(settings.keepDispatched)))
  }).pipe(logAndContinue("removing dispatched rows"))
  yield* Effect.forkScoped(Effect.repeat(purge, Schedule.spaced("10 minutes")))
}).pipe(Effect.annotateLogs({ component: "outbox" }))).pipe(
  Layer.provide([OutboxRepo.Default, WebhooksRepo.Default, JobQueue.Default])
)
