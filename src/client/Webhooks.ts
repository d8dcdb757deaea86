/**
 * `client.webhooks`, as in the Argilla SDK: list, add, get by id, update, delete and ping. The API
 * has no GET by id (as in Argilla), so `get` finds the webhook in the list; not found is `None` with a warning.
 */
import { Array as Arr, Effect, Option } from "effect"
import { WebhookId } from "../domain/Ids.js"
import type { WebhookCreate, WebhookUpdate } from "../domain/Webhook.js"
import { MissingLookupArgument } from "./Errors.js"
import { notFound, parseId, quoted } from "./lookup.js"
import { sequenceOf } from "./sequence.js"
import type { Transport } from "./Transport.js"

export interface WebhookLookup {
  readonly id?: string | undefined
}

/** A webhook as the caller holds it: the object the client returned, or its id. */
export type WebhookRef = string | { readonly id: string }

export const makeWebhooks = ({ api, call }: Transport) => {
  const list = Effect.map(call(api.webhooks.list()), ({ items }) => items)
  const webhookId = (ref: WebhookRef) => {
    const id = typeof ref === "string" ? ref : ref.id
    return parseId(WebhookId, "Webhook", id)
  }

  const get = Effect.fn("GlossClient.webhooks.get")(function*(lookup: WebhookLookup) {
    if (lookup.id === undefined) return yield* new MissingLookupArgument({ expected: "'id'" })
    const id = yield* webhookId(lookup.id)
    const found = Arr.findFirst(yield* list, (webhook) => webhook.id === id)
    return Option.isSome(found) ? found : yield* notFound(`Webhook with id ${quoted(lookup.id)} not found`)
  })

  const add = Effect.fn("GlossClient.webhooks.add")(function*(draft: WebhookCreate) {
    return yield* call(api.webhooks.create({ payload: draft }))
  })

  const update = Effect.fn("GlossClient.webhooks.update")(function*(webhook: WebhookRef, changes: WebhookUpdate) {
    return yield* call(api.webhooks.update({ path: { id: yield* webhookId(webhook) }, payload: changes }))
  })

  const remove = Effect.fn("GlossClient.webhooks.delete")(function*(webhook: WebhookRef) {
    return yield* call(api.webhooks.delete({ path: { id: yield* webhookId(webhook) } }))
  })

  /** Asks the server to deliver a `ping` event to the webhook now. */
  const ping = Effect.fn("GlossClient.webhooks.ping")(function*(webhook: WebhookRef) {
    return yield* call(api.webhooks.ping({ path: { id: yield* webhookId(webhook) } }))
  })

  return Object.assign((lookup: WebhookLookup) => get(lookup), {
    get,
    list: () => list,
    add,
    update,
    delete: remove,
    ping,
    ...sequenceOf(list, Effect.succeed)
  })
}

export type Webhooks = ReturnType<typeof makeWebhooks>
