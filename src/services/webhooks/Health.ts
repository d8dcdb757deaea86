/**
 * A webhook's health, shared by every worker through its row: a receiver that fails is backed off as a whole
 * (a circuit), not event by event, and disabled after `disableAfter` consecutive failures.
 *
 * - Closed (no failures): deliveries go out.
 * - Open (`retry_at` ahead): no delivery is sent; each one waits until `retry_at` (it keeps its attempts).
 * - Half-open (`retry_at` passed): one delivery claims the probe (`probing_until`); the others look again after
 *   the base back-off. Success closes the circuit, failure opens it again for twice as long
 *   (`backoff × 2^(failures-1)`).
 *
 * Failures are counted once per window: an attempt that was already in flight when another one's failure opened
 * the circuit (a burst of requests to a receiver that just went down) does not count again. With the defaults
 * (5 s base, disabled at 8) a receiver is disabled once it has failed for about 10½ minutes.
 */
import { Duration, Effect } from "effect"
import type { WebhookId } from "../../domain/Ids.js"
import { Database } from "../database/Database.js"
import { WebhookSettings } from "./settings.js"
import { type HealthAfterFailure, type WebhookRow, WebhooksRepo } from "./WebhooksRepo.js"

/** The back-off of the circuit after `failures` failures in a row. */
export const circuitDelay = (backoff: Duration.Duration, failures: number): number =>
  Duration.toMillis(backoff) * 2 ** Math.min(Math.max(failures - 1, 0), 16)

export class WebhookHealth extends Effect.Service<WebhookHealth>()("Gloss/WebhookHealth", {
  effect: Effect.gen(function*() {
    const repo = yield* WebhooksRepo
    const db = yield* Database
    const settings = yield* WebhookSettings

    /**
     * Whether deliveries to `webhook` may be sent at `at`: closed, or half-open and this caller won the probe.
     * When not, the time to try again.
     */
    const gate = (webhook: WebhookRow, at: Date): Effect.Effect<{ readonly send: true } | { readonly send: false; readonly until: Date }> =>
      Effect.gen(function*() {
        if (webhook.consecutive_failures === 0 && webhook.retry_at === null) return { send: true } as const
        if (webhook.retry_at !== null && webhook.retry_at > at) return { send: false, until: webhook.retry_at } as const
        // The probe holds the webhook for as long as an attempt can take; if it dies, the next one probes after.
        const lease = Duration.toMillis(settings.timeout) + 1000
        const claimed = yield* repo.claimProbe(webhook.id, at, new Date(at.getTime() + lease))
        // The others look again after the base back-off: a probe that succeeds lets them go soon after.
        return claimed
          ? { send: true } as const
          : { send: false, until: new Date(at.getTime() + Math.min(lease, Duration.toMillis(settings.backoff))) } as const
      })

    /** A delivery got through. */
    const succeeded = (webhook: WebhookRow) =>
      webhook.consecutive_failures === 0 && webhook.retry_at === null ? Effect.void : repo.recovered(webhook.id)

    /** Attempts started at `startedAt` failed with `reason`: counts it (once per window) and opens the circuit. */
    const failed = (id: WebhookId, startedAt: Date, at: Date, reason: string): Effect.Effect<HealthAfterFailure> =>
      db.write(Effect.gen(function*() {
        const found = yield* repo.lockRow(id)
        if (found._tag === "None" || !found.value.enabled) return { failures: 0, retryAt: null, disabled: true }
        const row = found.value
        const counts = row.last_failure_at === null || row.last_failure_at < startedAt || row.consecutive_failures === 0
        if (!counts) {
          return { failures: row.consecutive_failures, retryAt: row.retry_at ?? at, disabled: false }
        }
        const failures = row.consecutive_failures + 1
        const disabled = failures >= settings.disableAfter
        const retryAt = disabled ? null : new Date(at.getTime() + circuitDelay(settings.backoff, failures))
        yield* repo.failed({
          id,
          consecutive_failures: failures,
          retry_at: retryAt,
          probing_until: null,
          last_failure_at: at,
          last_error: reason,
          enabled: !disabled,
          disabled_reason: disabled
            ? `Disabled by Gloss after ${failures} consecutive failed deliveries; the last: ${reason}`
            : row.disabled_reason
        })
        return { failures, retryAt, disabled }
      }))

    return { gate, succeeded, failed } as const
  }),
  dependencies: [WebhooksRepo.Default, Database.Default]
}) {}
