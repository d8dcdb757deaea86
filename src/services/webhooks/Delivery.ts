/**
 * Sending events to a webhook, and what each outcome means: 2xx delivered; connection errors, timeouts, 5xx and
 * 429 retried (the contract retries only the first two; a receiver that is restarting or throttling deserves
 * another try too); any other answer (3xx, 4xx) and a refused destination are final. Redirects are not followed, as
 * Argilla's client does not follow them.
 *
 * A delivery job makes one attempt at its events and never fails for what the receiver did: a failure is logged as
 * one line, counted on the webhook (`Health.ts`), and the events still worth sending are enqueued again, as a job
 * delayed until the webhook's back-off is over, carrying their attempt number. While a webhook is backed off its
 * deliveries are not sent but wait, attempts kept; once it is disabled they are dropped. So a receiver that is down
 * costs one request per back-off window, not one per event and attempt.
 */
import { Duration, Effect, Option, Random, Schema } from "effect"
import { WebhookId } from "../../domain/Ids.js"
import { VERSION } from "../../version.js"
import { now } from "../clock.js"
import { JobQueue } from "../jobs/JobQueue.js"
import { Destinations, REFUSED_DESTINATION } from "./Destinations.js"
import { WebhookHealth } from "./Health.js"
import { errorCode, makeAgents, post } from "./post.js"
import { WebhookSettings } from "./settings.js"
import { envelope, randomMessageId, signedHeaders } from "./signing.js"
import { type WebhookRow, WebhooksRepo } from "./WebhooksRepo.js"

export type Outcome =
  | { readonly _tag: "Delivered"; readonly status: number }
  | { readonly _tag: "Rejected"; readonly reason: string }
  | { readonly _tag: "Retry"; readonly reason: string }

const eventFields = {
  eventId: Schema.String,
  messageId: Schema.String,
  type: Schema.String,
  body: Schema.String,
  /** 1 for the first attempt at the event; a retry carries the next. (Jobs written before it was counted have none.) */
  attempt: Schema.optionalWith(Schema.Int.pipe(Schema.positive()), { default: () => 1 })
}

/** One event for one webhook, as a delivery job carries it: everything but the secret, which is read at send time. */
export const PendingEvent = Schema.Struct(eventFields)
export type PendingEvent = typeof PendingEvent.Type

/** What a `webhooks.deliver` job carries. */
export const DeliveryPayload = Schema.Struct({ webhookId: WebhookId, ...eventFields })
export type DeliveryPayload = typeof DeliveryPayload.Type

/** The job names: one event to one webhook, and many events to one webhook. */
export const DeliverWebhook = "webhooks.deliver"
export const DeliverWebhookBurst = "webhooks.deliver-burst"

/** One webhook's events of one dispatch, sent by one `webhooks.deliver-burst` job. */
export const BurstPayload = Schema.Struct({ webhookId: WebhookId, events: Schema.Array(PendingEvent) })
export type BurstPayload = typeof BurstPayload.Type

/** How many requests of a burst are in flight at once. */
const BURST_CONCURRENCY = 16

/** Follow-up jobs carry at most this many events each. */
const EVENTS_PER_JOB = 100

export const classify = (status: number): Outcome =>
  status >= 200 && status < 300
    ? { _tag: "Delivered", status }
    : status === 429 || status >= 500
    ? { _tag: "Retry", reason: `HTTP ${status}` }
    : { _tag: "Rejected", reason: `HTTP ${status}` }

const hostOf = (url: string) => new URL(url).host

export class WebhookDelivery extends Effect.Service<WebhookDelivery>()("Gloss/WebhookDelivery", {
  scoped: Effect.gen(function*() {
    const repo = yield* WebhooksRepo
    const queue = yield* JobQueue
    const destinations = yield* Destinations
    const health = yield* WebhookHealth
    const settings = yield* WebhookSettings
    const seconds = Duration.toSeconds(settings.timeout)
    const agents = yield* Effect.acquireRelease(
      Effect.sync(() => makeAgents(destinations.lookup)),
      (made) => Effect.sync(() => {
        made.http.destroy()
        made.https.destroy()
      })
    )

    /** One attempt. Never fails: every way it can go wrong is an outcome. */
    const send = Effect.fn("Webhooks.send")(function*(webhook: WebhookRow, messageId: string, body: string) {
      const refused = destinations.refusedLiteral(webhook.url)
      if (refused !== undefined) return { _tag: "Rejected", reason: `refused destination (${refused})` } as Outcome
      const headers = signedHeaders(webhook.secret, messageId, body, yield* now)
      return yield* Effect.tryPromise({
        try: (signal) => post(webhook.url, headers, body, agents, signal).then(classify),
        catch: (error): Outcome => {
          const code = errorCode(error)
          return code === REFUSED_DESTINATION
            ? { _tag: "Rejected", reason: `refused destination (${error instanceof Error ? error.message : code})` }
            : { _tag: "Retry", reason: code }
        }
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
      if (outcome._tag !== "Delivered") {
        yield* Effect.logWarning(`Webhook ping failed: webhook=${webhook.id} host=${hostOf(webhook.url)} error=${outcome.reason}`)
      }
    })

    /** Enqueues `events` again, to be sent from `until` on (spread a little, so waiting jobs do not all wake at once). */
    const later = (webhookId: WebhookId, events: ReadonlyArray<PendingEvent>, until: Date) =>
      Effect.gen(function*() {
        const jitter = yield* Random.nextIntBetween(0, Math.max(1, Math.min(Duration.toMillis(settings.backoff), 1000)))
        const delay = Duration.millis(Math.max(0, until.getTime() - (yield* now).getTime()) + jitter)
        const options = { attempts: settings.attempts, backoff: settings.backoff, delay }
        for (let i = 0; i < events.length; i += EVENTS_PER_JOB) {
          const chunk = events.slice(i, i + EVENTS_PER_JOB)
          const [only] = chunk
          if (chunk.length === 1 && only !== undefined) yield* queue.enqueue("high", DeliverWebhook, { ...only, webhookId }, options)
          else yield* queue.enqueue("high", DeliverWebhookBurst, { webhookId, events: chunk }, options)
        }
      })

    /** One line per failed attempt at an event: no stack trace, which says nothing about a receiver. */
    const logFailure = (webhook: WebhookRow, event: PendingEvent, outcome: Outcome, next: string) => {
      const line = `Webhook delivery failed: webhook=${webhook.id} host=${hostOf(webhook.url)} event=${event.type} ` +
        `event_id=${event.eventId} attempt=${event.attempt}/${settings.attempts} error=${
          outcome._tag === "Delivered" ? "" : outcome.reason
        }; ${next}`
      return next.startsWith("retry") ? Effect.logWarning(line) : Effect.logError(line)
    }

    /**
     * The events of one job, to the webhook they are for: the ones it still wants are sent (BURST_CONCURRENCY in
     * flight) unless the webhook is backed off. A webhook that was failing is tested with one event (the probe)
     * before the rest go.
     */
    const deliverEvents = (webhookId: WebhookId, events: ReadonlyArray<PendingEvent>): Effect.Effect<void> =>
      Effect.gen(function*() {
        const found = yield* repo.findById(webhookId)
        const wanted = Option.match(found, {
          onNone: () => [],
          onSome: (w) => (w.enabled ? events.filter((event) => w.events.some((type) => type === event.type)) : [])
        })
        if (wanted.length < events.length) {
          yield* Effect.logInfo(
            `Webhook delivery skipped: webhook=${webhookId} events=${events.length - wanted.length} (deleted, disabled or unsubscribed)`
          )
        }
        if (Option.isNone(found) || wanted.length === 0) return
        const webhook = found.value
        const startedAt = yield* now
        const gate = yield* health.gate(webhook, startedAt)
        if (!gate.send) {
          yield* Effect.logDebug(`Webhook ${webhookId} is backed off: ${wanted.length} event(s) wait`)
          return yield* later(webhookId, wanted, gate.until)
        }
        const probing = webhook.consecutive_failures > 0 || webhook.retry_at !== null
        const sending = probing ? wanted.slice(0, 1) : wanted
        const rest = probing ? wanted.slice(1) : []
        const sent = yield* Effect.forEach(
          sending,
          (event) => Effect.map(send(webhook, event.messageId, event.body), (outcome) => ({ event, outcome })),
          { concurrency: BURST_CONCURRENCY }
        )
        const failures = sent.filter(({ outcome }) => outcome._tag !== "Delivered")
        const [first] = failures
        if (first === undefined || first.outcome._tag === "Delivered") {
          yield* health.succeeded(webhook)
          return rest.length > 0 ? yield* deliverEvents(webhookId, rest) : undefined
        }
        const failedAt = yield* now
        const state = yield* health.failed(webhook.id, startedAt, failedAt, first.outcome.reason)
        const retries: Array<PendingEvent> = []
        for (const { event, outcome } of failures) {
          const next = state.disabled
            ? "the webhook is disabled"
            : outcome._tag === "Rejected"
            ? "not retried"
            : event.attempt >= settings.attempts
            ? "giving up"
            : `retry after ${Math.max(0, Math.round(((state.retryAt ?? failedAt).getTime() - failedAt.getTime()) / 1000))} s`
          yield* logFailure(webhook, event, outcome, next)
          if (next.startsWith("retry")) retries.push({ ...event, attempt: event.attempt + 1 })
        }
        if (state.disabled) {
          if (state.failures < settings.disableAfter) return // disabled by its owner meanwhile
          return yield* Effect.logError(
            `Webhook disabled: webhook=${webhook.id} host=${hostOf(webhook.url)} after ${settings.disableAfter} ` +
              `consecutive failures; ${rest.length} waiting event(s) dropped`
          )
        }
        const waiting = [...retries, ...rest]
        if (waiting.length > 0) yield* later(webhookId, waiting, state.retryAt ?? startedAt)
      })

    /** The `webhooks.deliver` job. */
    const deliver = Effect.fn("Webhooks.deliver")(function*({ webhookId, ...event }: DeliveryPayload) {
      yield* deliverEvents(webhookId, [event])
    })

    /**
     * The `webhooks.deliver-burst` job: many events to one webhook (a backlog, a bulk write) in one job, the webhook
     * read once and BURST_CONCURRENCY requests in flight, instead of a job, two queue transactions and a read per
     * event. Rerun after a crash, it sends its events again, with the same `webhook-id`s (at least once).
     */
    const deliverBurst = Effect.fn("Webhooks.deliverBurst")(function*(burst: BurstPayload) {
      yield* deliverEvents(burst.webhookId, burst.events)
    })

    return { send, ping, deliver, deliverBurst } as const
  }),
  dependencies: [WebhooksRepo.Default, JobQueue.Default, Destinations.Default, WebhookHealth.Default]
}) {}
