import { Clock, Duration, Effect, Ref } from "effect"
import type { WebhookEventType } from "../../domain/Webhook.js"
import { WebhookSettings } from "./settings.js"
import { WebhooksRepo } from "./WebhooksRepo.js"

interface Cached {
  readonly events: ReadonlySet<string>
  readonly until: number
}

/**
 * Whether any enabled webhook wants an event, from a short-lived cache: the write paths ask on every change (the
 * bulk ingest path included), so with no webhooks, or none for that event, no payload is built and nothing is
 * written. Webhook changes in this process drop the cache at once; other processes see them within the TTL.
 */
export class Subscriptions extends Effect.Service<Subscriptions>()("Gloss/Subscriptions", {
  effect: Effect.gen(function*() {
    const repo = yield* WebhooksRepo
    const ttl = Duration.toMillis((yield* WebhookSettings).subscriptionsTtl)
    const cache = yield* Ref.make<Cached>({ events: new Set<string>(), until: 0 })

    // A refresh runs in the caller's fiber, so inside the caller's transaction: on SQLite's single connection a
    // read from anywhere else would wait for that very transaction to end. (Hence no `Effect.cachedWithTTL`, whose
    // lookups run in the context it was created in.) Two callers may refresh at once; both read the same thing.
    const current = Effect.gen(function*() {
      const millis = yield* Clock.currentTimeMillis
      const cached = yield* Ref.get(cache)
      if (cached.until > millis) return cached.events
      const events = yield* repo.subscribedEvents
      yield* Ref.set(cache, { events, until: millis + ttl })
      return events
    })

    return {
      wants: (type: WebhookEventType) => Effect.map(current, (events) => events.has(type)),
      invalidate: Ref.set(cache, { events: new Set<string>(), until: 0 })
    } as const
  }),
  dependencies: [WebhooksRepo.Default]
}) {}
