/**
 * Sending one signed request to a webhook, and what its outcome means for the delivery job: 2xx delivered;
 * connection errors, timeouts, 5xx and 429 retried (the contract retries only the first two; a receiver that is
 * restarting or throttling deserves another try too); any other answer (3xx, 4xx) is final. Redirects are not
 * followed, as Argilla's client does not follow them.
 */
import { Data, Duration, Effect, Option, Schema } from "effect"
import { WebhookId } from "../../domain/Ids.js"
import { VERSION } from "../../version.js"
import { now } from "../clock.js"
import { UnrecoverableJobError } from "../jobs/JobHandlers.js"
import { JobQueue } from "../jobs/JobQueue.js"
import { WebhookSettings } from "./settings.js"
import { envelope, randomMessageId, signedHeaders } from "./signing.js"
import { type WebhookRow, WebhooksRepo } from "./WebhooksRepo.js"

export type Outcome =
  | { readonly _tag: "Delivered"; readonly status: number }
  | { readonly _tag: "Rejected"; readonly reason: string }
  | { readonly _tag: "Retry"; readonly reason: string }

/** A failed attempt worth retrying: the job queue retries it with back-off. */
export class DeliveryFailed extends Data.TaggedError("DeliveryFailed")<{ readonly message: string }> {}

/** What a `webhooks.deliver` job carries: everything but the secret, which is read at send time. */
export const DeliveryPayload = Schema.Struct({
  webhookId: WebhookId,
  eventId: Schema.String,
  messageId: Schema.String,
  type: Schema.String,
  body: Schema.String
})
export type DeliveryPayload = typeof DeliveryPayload.Type

/** The job names: one event to one webhook, and many events to one webhook. */
export const DeliverWebhook = "webhooks.deliver"
export const DeliverWebhookBurst = "webhooks.deliver-burst"

/** One webhook's events of one dispatch, sent by one `webhooks.deliver-burst` job (see `deliverBurst`). */
export const BurstPayload = Schema.Struct({
  webhookId: WebhookId,
  events: Schema.Array(DeliveryPayload.pipe(Schema.omit("webhookId")))
})
export type BurstPayload = typeof BurstPayload.Type

/** How many requests of a burst are in flight at once. */
const BURST_CONCURRENCY = 16

export const classify = (status: number): Outcome =>
  status >= 200 && status < 300
    ? { _tag: "Delivered", status }
    : status === 429 || status >= 500
    ? { _tag: "Retry", reason: `the receiver answered HTTP ${status}` }
    : { _tag: "Rejected", reason: `the receiver answered HTTP ${status}` }

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  // fetch's own message is "fetch failed"; the cause says why (ECONNREFUSED, a malformed response…).
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ""
  return `${error.message}${cause}`
}

export class WebhookDelivery extends Effect.Service<WebhookDelivery>()("Gloss/WebhookDelivery", {
  effect: Effect.gen(function*() {
    const repo = yield* WebhooksRepo
    const queue = yield* JobQueue
    const settings = yield* WebhookSettings
    const seconds = Duration.toSeconds(settings.timeout)

    /** One attempt. Never fails: every way it can go wrong is an outcome. */
    const send = Effect.fn("Webhooks.send")(function*(webhook: WebhookRow, messageId: string, body: string) {
      const headers = signedHeaders(webhook.secret, messageId, body, yield* now)
      return yield* Effect.tryPromise({
        try: async (signal) => {
          const response = await fetch(webhook.url, { method: "POST", headers, body, redirect: "manual", signal })
          // Only the status matters; let the connection go instead of reading whatever the receiver sends.
          await response.body?.cancel().catch(() => undefined)
          return classify(response.status)
        },
        catch: (error): Outcome => ({ _tag: "Retry", reason: `the request failed (${describe(error)})` })
      }).pipe(
        Effect.timeoutFail({
          duration: settings.timeout,
          onTimeout: (): Outcome => ({ _tag: "Retry", reason: `no answer within ${seconds} s` })
        }),
        Effect.merge
      )
    })

    /** `POST /webhooks/{id}/ping`: one attempt, now; its outcome is logged, not reported (the contract's 204). */
    const ping = Effect.fn("Webhooks.ping")(function*(webhook: WebhookRow) {
      const body = envelope("ping", yield* now, JSON.stringify({ agent: "argilla-server", version: VERSION }))
      const outcome = yield* send(webhook, randomMessageId(), body)
      if (outcome._tag !== "Delivered") yield* Effect.logWarning(`Ping of webhook ${webhook.id} failed: ${outcome.reason}`)
    })

    /** The `webhooks.deliver` job. A webhook deleted, disabled or unsubscribed since the event is skipped. */
    const deliver = Effect.fn("Webhooks.deliver")(function*(job: DeliveryPayload) {
      const found = yield* repo.findById(job.webhookId)
      const webhook = Option.filter(found, (w) => w.enabled && w.events.some((event) => event === job.type))
      if (Option.isNone(webhook)) {
        return yield* Effect.logInfo(`Delivery of ${job.type} event ${job.eventId} skipped: the webhook no longer wants it`)
      }
      const outcome = yield* send(webhook.value, job.messageId, job.body)
      switch (outcome._tag) {
        case "Delivered":
          return
        case "Rejected":
          return yield* new UnrecoverableJobError({ message: `Webhook ${job.webhookId}: ${outcome.reason}; not retried` })
        case "Retry":
          return yield* new DeliveryFailed({ message: `Webhook ${job.webhookId}: ${outcome.reason}` })
      }
    }, (effect, job) => Effect.annotateLogs(effect, { webhook: job.webhookId, event: job.eventId }))

    /**
     * The `webhooks.deliver-burst` job: many events to one webhook (a backlog, a bulk write) in one job, the webhook
     * read once and BURST_CONCURRENCY requests in flight, instead of a job, two queue transactions and a read per
     * event. An event the receiver refuses for good is logged, as its own job would have failed; one worth retrying
     * becomes a `webhooks.deliver` job of its own, with the attempts left, after the first back-off, so from there
     * on it is retried, and seen in `GET /jobs/{id}`, like any delivery. The job itself never fails: rerun after a
     * crash, it sends its events again, with the same `webhook-id`s (at least once).
     */
    const deliverBurst = Effect.fn("Webhooks.deliverBurst")(function*(burst: BurstPayload) {
      const found = yield* repo.findById(burst.webhookId)
      const outcomes = yield* Effect.forEach(burst.events, (event) => {
        const webhook = Option.filter(found, (w) => w.enabled && w.events.some((wanted) => wanted === event.type))
        return Option.isNone(webhook)
          ? Effect.succeed(undefined)
          : Effect.map(send(webhook.value, event.messageId, event.body), (outcome) => ({ event, outcome }))
      }, { concurrency: BURST_CONCURRENCY })
      for (const sent of outcomes) {
        if (sent === undefined || sent.outcome._tag === "Delivered") continue
        const { event, outcome } = sent
        if (outcome._tag === "Rejected") {
          yield* Effect.logError(`Webhook ${burst.webhookId}: ${outcome.reason}; not retried`).pipe(
            Effect.annotateLogs({ webhook: burst.webhookId, event: event.eventId })
          )
          continue
        }
        yield* queue.enqueue("high", DeliverWebhook, { ...event, webhookId: burst.webhookId }, {
          attempts: Math.max(1, settings.attempts - 1),
          backoff: settings.backoff,
          delay: settings.backoff
        })
      }
      const skipped = outcomes.filter((sent) => sent === undefined).length
      if (skipped > 0) {
        yield* Effect.logInfo(`Delivery of ${skipped} event(s) skipped: webhook ${burst.webhookId} no longer wants them`)
      }
    })

    return { send, ping, deliver, deliverBurst } as const
  }),
  dependencies: [WebhooksRepo.Default, JobQueue.Default]
}) {}
