/** The owner's webhooks: the list, and turning one back on after Gloss disabled it. */
import { queryOptions } from "@tanstack/react-query"
import { Effect } from "effect"
import type { WebhookId } from "../../../src/domain/Ids.js"
import { call } from "./client.js"
import { queryClient } from "./queries.js"

export const webhooks = queryOptions({
  queryKey: ["webhooks"],
  queryFn: ({ signal }) => call((c) => Effect.map(c.webhooks.list(), (r) => r.items), signal)
})

/** `PATCH {"enabled": true}`: the server also starts its failure count again. */
export const reenableWebhook = async (id: WebhookId): Promise<void> => {
  await call((c) => c.webhooks.update({ path: { id }, payload: { enabled: true } }))
  await queryClient.invalidateQueries({ queryKey: webhooks.queryKey })
}
