/** Tuning of event dispatch and webhook delivery, with production defaults; tests provide shorter ones. */
import { Context, Duration } from "effect"

export interface WebhookSettingsShape {
  /** A receiver has this long to answer (headers) before the attempt counts as failed (contract: 20 s). */
  readonly timeout: Duration.Duration
  /** Attempts at one event in all: the first plus retries (connection errors, timeouts, 5xx, 429). */
  readonly attempts: number
  /**
   * Base of the exponential back-off of a failing webhook (see `Health.ts`): after its n-th failure in a row no
   * delivery goes to it for `backoff × 2^(n-1)`; the events wait, their attempts kept.
   */
  readonly backoff: Duration.Duration
  /** Consecutive failures (one per back-off window) after which a webhook is disabled. */
  readonly disableAfter: number
  /** How often each dispatcher looks for committed events that are not yet on the job queue. */
  readonly dispatchInterval: Duration.Duration
  /** Outbox rows moved to the queue per transaction. */
  readonly dispatchBatch: number
  /** A webhook's events of one dispatch batch go out as one burst job from this many on (else a job each). */
  readonly burstFrom: number
  /** How long dispatched outbox rows are kept (for inspection) before they are removed. */
  readonly keepDispatched: Duration.Duration
  /**
   * How long a process trusts its list of subscribed events. Writes skip building payloads nobody listens to; a
   * webhook created in another process is seen after at most this long (in the same process, at once).
   */
  readonly subscriptionsTtl: Duration.Duration
}

/**
 * A 5 s base and disabled at the 8th failure in a row: a receiver is tried again after 5 s, 10 s, 20 s, 40 s, 80 s,
 * 160 s and 320 s, so it may be down for about 10½ minutes without losing a delivery; then the webhook is disabled
 * (and its waiting events dropped) until its owner enables it again. An event the receiver keeps failing on its
 * own (the webhook otherwise healthy) is given up after 8 attempts.
 */
export class WebhookSettings extends Context.Reference<WebhookSettings>()("Gloss/WebhookSettings", {
  defaultValue: (): WebhookSettingsShape => ({
    timeout: Duration.seconds(20),
    attempts: 8,
    backoff: Duration.seconds(5),
    disableAfter: 8,
    dispatchInterval: Duration.millis(250),
    dispatchBatch: 100,
    burstFrom: 10,
    keepDispatched: Duration.days(1),
    subscriptionsTtl: Duration.seconds(1)
  })
}) {}
