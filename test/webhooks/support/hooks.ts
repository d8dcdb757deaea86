import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { send } from "../../support/datasets.js"
import type { Receiver } from "./receiver.js"

export const ALL_EVENTS = [
  "dataset.created",
  "dataset.updated",
  "dataset.deleted",
  "dataset.published",
  "record.created",
  "record.updated",
  "record.deleted",
  "record.completed",
  "response.created",
  "response.updated",
  "response.deleted"
] as const

export interface CreatedWebhook {
  readonly id: string
  readonly secret: string
  readonly url: string
}

/** Creates a webhook posting to `path` on the receiver, which learns its secret. */
export const hook = (receiver: Receiver, path: string, events: ReadonlyArray<string>, extra: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const created = yield* send("POST", "/api/v1/webhooks", { url: receiver.url(path), events, ...extra })
    expect(created.status).toBe(201)
    const body = created.body as CreatedWebhook // checked by the 201 above; the API test checks the shape
    receiver.trust(path, body.secret)
    return body
  })

/** Removes every webhook (the limit of 10 is per server). */
export const removeAllHooks = Effect.gen(function*() {
  const listed = yield* send("GET", "/api/v1/webhooks")
  for (const webhook of (listed.body as { items: Array<{ id: string }> }).items) {
    yield* send("DELETE", `/api/v1/webhooks/${webhook.id}`)
  }
})
