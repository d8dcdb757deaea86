import { Effect } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import { WebhookId } from "../../domain/Ids.js"
import type { User } from "../../domain/User.js"
import type { WebhookCreate, WebhookUpdate } from "../../domain/Webhook.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { orNotFound } from "../found.js"
import { Policy } from "../Policy.js"
import { WebhookDelivery } from "./Delivery.js"
import { Destinations } from "./Destinations.js"
import { newSecret } from "./signing.js"
import { Subscriptions } from "./Subscriptions.js"
import { type WebhookRow, WebhooksRepo } from "./WebhooksRepo.js"
import { newId } from "../ids.js"

/** Argilla's limit, for the whole server. */
export const MAX_WEBHOOKS = 10

/** Managing webhooks over the API: owners only, as in Argilla. */
export class Webhooks extends Effect.Service<Webhooks>()("Gloss/Webhooks", {
  effect: Effect.gen(function*() {
    const repo = yield* WebhooksRepo
    const policy = yield* Policy
    const db = yield* Database
    const delivery = yield* WebhookDelivery
    const subscriptions = yield* Subscriptions
    const destinations = yield* Destinations

    /** The contract loads the webhook before checking the policy: an unknown id is 404 for everyone. */
    const load = (actor: User, id: WebhookId) =>
      Effect.tap(repo.findById(id).pipe(orNotFound("Webhook", id)), () => policy.require(actor, "webhooks.manage"))

    const list = Effect.fn("Webhooks.list")(function*(actor: User) {
      yield* policy.require(actor, "webhooks.manage")
      return yield* repo.list
    })

    const create = Effect.fn("Webhooks.create")(function*(actor: User, payload: WebhookCreate) {
      yield* policy.require(actor, "webhooks.manage")
      yield* destinations.vet(payload.url)
      const at = yield* now
      const row: WebhookRow = {
        id: WebhookId.make(newId()),
        url: payload.url,
        secret: newSecret(),
        events: payload.events,
        enabled: true,
        description: payload.description ?? null,
        inserted_at: at,
        updated_at: at,
        consecutive_failures: 0,
        retry_at: null,
        probing_until: null,
        last_failure_at: null,
        last_error: null,
        disabled_reason: null
      }
      yield* db.write(Effect.gen(function*() {
        yield* repo.lockForCreate
        if ((yield* repo.count) >= MAX_WEBHOOKS) {
          return yield* new Unprocessable({
            detail: `You can't create more than ${MAX_WEBHOOKS} webhooks. Please delete some of them first`
          })
        }
        yield* repo.insert(row)
      }), { afterCommit: () => subscriptions.invalidate })
      return row
    })

    const update = Effect.fn("Webhooks.update")(function*(actor: User, id: WebhookId, patch: WebhookUpdate) {
      const current = yield* load(actor, id)
      const moved = patch.url !== undefined && patch.url !== current.url
      if (moved) yield* destinations.vet(patch.url)
      // Enabled (again) by its owner, or sent elsewhere: the failures start from nothing, and the webhook is not
      // held back by what another receiver did.
      const fresh = patch.enabled === true || moved
      const next: WebhookRow = {
        ...current,
        ...(fresh ? { consecutive_failures: 0, retry_at: null, probing_until: null } : {}),
        ...(patch.enabled === true ? { disabled_reason: null } : {}),
        url: patch.url ?? current.url,
        events: patch.events ?? current.events,
        enabled: patch.enabled ?? current.enabled,
        description: patch.description === undefined ? current.description : patch.description,
        updated_at: yield* now
      }
      yield* db.write(repo.replace(next), { afterCommit: () => subscriptions.invalidate })
      return next
    })

    const remove = Effect.fn("Webhooks.delete")(function*(actor: User, id: WebhookId) {
      const webhook = yield* load(actor, id)
      yield* db.write(repo.delete(id), { afterCommit: () => subscriptions.invalidate })
      return webhook
    })

    const ping = Effect.fn("Webhooks.ping")(function*(actor: User, id: WebhookId) {
      yield* delivery.ping(yield* load(actor, id))
    })

    return { list, create, update, delete: remove, ping } as const
  }),
  dependencies: [
    WebhooksRepo.Default,
    Policy.Default,
    Database.Default,
    WebhookDelivery.Default,
    Subscriptions.Default,
    Destinations.Default
  ]
}) {}
