/** The webhook endpoints: owner only, contract bodies and errors, at most 10, ping. */
import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { Webhook as Verifier } from "standardwebhooks"
import { send } from "../support/datasets.js"
import { FORBIDDEN } from "../support/expect.js"
import { unique, userWith, workspace } from "../support/fixtures.js"
import { ownerClient } from "../support/server.js"
import { VERSION } from "../../src/version.js"
import { hook, removeAllHooks } from "./support/hooks.js"
import { SuiteLive, TheReceiver } from "./support/setup.js"
import { dialects } from "../support/databases.js"

type Json = Record<string, unknown>
const body = (response: { readonly body: unknown }) => response.body as Json
const NAIVE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/
const validation = (response: { readonly status: number; readonly body: unknown }) => {
  expect(response.status).toBe(422)
  expect(response.body).toMatchObject({ detail: { code: "argilla.api.errors::ValidationError" } })
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(SuiteLive(dialect, {}, { timeout: Duration.seconds(1) }), { excludeTestServices: true, timeout: 120_000 })("webhooks API", (it) => {
      it.effect("the owner creates, lists, updates and deletes webhooks; the secret is in every read", () =>
        Effect.gen(function*() {
          yield* removeAllHooks
          const created = yield* send("POST", "/api/v1/webhooks", {
            url: "HTTP://Example.COM:80/hooks/argilla",
            events: ["record.created", "response.created"]
          })
          expect(created.status).toBe(201)
          const webhook = body(created)
          // Argilla's keys, and Gloss's health extensions (which the SDK's model ignores).
          expect(Object.keys(webhook).sort()).toEqual([
            "consecutive_failures",
            "description",
            "disabled_reason",
            "enabled",
            "events",
            "id",
            "inserted_at",
            "last_error",
            "last_failure_at",
            "secret",
            "updated_at",
            "url"
          ])
          expect(webhook).toMatchObject({
            url: "http://example.com/hooks/argilla",
            events: ["record.created", "response.created"],
            enabled: true,
            description: null,
            consecutive_failures: 0,
            last_failure_at: null,
            last_error: null,
            disabled_reason: null
          })
          expect(webhook.inserted_at).toMatch(NAIVE)
          // Base64 of 64 random bytes, no `whsec_` prefix: what any Standard Webhooks verifier takes.
          expect(Buffer.from(String(webhook.secret), "base64")).toHaveLength(64)
          expect(() => new Verifier(String(webhook.secret))).not.toThrow()

          const second = yield* send("POST", "/api/v1/webhooks", { url: "https://b.example/x", events: ["dataset.created"], description: "B" })
          expect(body(second)).toMatchObject({ url: "https://b.example/x", description: "B" })
          const listed = yield* send("GET", "/api/v1/webhooks")
          expect(listed.status).toBe(200)
          expect((listed.body as { items: Array<Json> }).items).toEqual([webhook, body(second)])

          // The SDK's update sends its whole model: keys that cannot change are ignored.
          const patched = yield* send("PATCH", `/api/v1/webhooks/${webhook.id}`, {
            ...webhook,
            secret: "ignored",
            id: crypto.randomUUID(),
            enabled: false,
            description: "now described",
            events: ["dataset.deleted"]
          })
          expect(patched.status).toBe(200)
          expect(body(patched)).toMatchObject({
            id: webhook.id,
            secret: webhook.secret,
            url: webhook.url,
            enabled: false,
            description: "now described",
            events: ["dataset.deleted"]
          })
          expect(body(yield* send("PATCH", `/api/v1/webhooks/${webhook.id}`, { description: null })).description).toBeNull()

          const deleted = yield* send("DELETE", `/api/v1/webhooks/${webhook.id}`)
          expect(deleted.status).toBe(200)
          expect(body(deleted)).toMatchObject({ id: webhook.id, secret: webhook.secret, description: null })
          expect((yield* send("GET", "/api/v1/webhooks")).body).toEqual({ items: [body(second)] })
          // The typed client decodes the same shapes.
          const owner = yield* ownerClient
          const { items } = yield* owner.webhooks.list()
          expect(items.map((w) => w.id)).toEqual([body(second).id])
        }))

      it.effect("bad input is 422: URLs that are not http(s), unknown or repeated events, none, ping, blank description", () =>
        Effect.gen(function*() {
          const url = "http://127.0.0.1:9/hook"
          for (const bad of ["ftp://example.com/x", "not a url", "", "mailto:someone@example.com", "http://"]) {
            validation(yield* send("POST", "/api/v1/webhooks", { url: bad, events: ["dataset.created"] }))
          }
          for (const events of [[], ["dataset.exploded"], ["ping"], ["dataset.created", "dataset.created"], "dataset.created"]) {
            validation(yield* send("POST", "/api/v1/webhooks", { url, events }))
          }
          validation(yield* send("POST", "/api/v1/webhooks", { url, events: ["dataset.created"], description: "" }))
          validation(yield* send("POST", "/api/v1/webhooks", { events: ["dataset.created"] }))
          const created = body(yield* send("POST", "/api/v1/webhooks", { url, events: ["dataset.created"] }))
          for (const patch of [{ url: "ftp://x" }, { events: [] }, { events: ["nope"] }, { enabled: null }, { url: null }]) {
            validation(yield* send("PATCH", `/api/v1/webhooks/${created.id}`, patch))
          }
          expect((yield* send("DELETE", `/api/v1/webhooks/${created.id}`)).status).toBe(200)
        }))

      it.effect("an eleventh webhook is 422 with the contract's message", () =>
        Effect.gen(function*() {
          yield* removeAllHooks
          for (let i = 0; i < 10; i++) {
            expect((yield* send("POST", "/api/v1/webhooks", { url: `http://127.0.0.1:9/${i}`, events: ["dataset.created"] })).status)
              .toBe(201)
          }
          const eleventh = yield* send("POST", "/api/v1/webhooks", { url: "http://127.0.0.1:9/11", events: ["dataset.created"] })
          expect(eleventh.status).toBe(422)
          expect(eleventh.body).toEqual({ detail: "You can't create more than 10 webhooks. Please delete some of them first" })
          expect((yield* send("GET", "/api/v1/webhooks")).body).toMatchObject({ items: { length: 10 } })
          yield* removeAllHooks
        }))

      it.effect("only owners manage webhooks (403); PATCH, DELETE and ping look the webhook up first (404)", () =>
        Effect.gen(function*() {
          const webhook = body(yield* send("POST", "/api/v1/webhooks", { url: "http://127.0.0.1:9/x", events: ["dataset.created"] }))
          const missing = crypto.randomUUID()
          for (const role of ["admin", "annotator"] as const) {
            const { user } = yield* userWith(role, [yield* workspace()])
            const key = user.api_key
            for (const response of [
              yield* send("GET", "/api/v1/webhooks", undefined, key),
              yield* send("POST", "/api/v1/webhooks", { url: "http://127.0.0.1:9/y", events: ["dataset.created"] }, key),
              yield* send("PATCH", `/api/v1/webhooks/${webhook.id}`, { enabled: false }, key),
              yield* send("DELETE", `/api/v1/webhooks/${webhook.id}`, undefined, key),
              yield* send("POST", `/api/v1/webhooks/${webhook.id}/ping`, undefined, key)
            ]) {
              expect(response.status).toBe(403)
              expect(response.body).toEqual(FORBIDDEN)
            }
            for (const response of [
              yield* send("PATCH", `/api/v1/webhooks/${missing}`, { enabled: false }, key),
              yield* send("DELETE", `/api/v1/webhooks/${missing}`, undefined, key),
              yield* send("POST", `/api/v1/webhooks/${missing}/ping`, undefined, key)
            ]) {
              expect(response.status).toBe(404)
              expect(response.body).toEqual({ detail: `Webhook with id \`${missing}\` not found` })
            }
          }
          expect((yield* send("GET", "/api/v1/webhooks", undefined, "nobody")).status).toBe(401)
          validation(yield* send("DELETE", "/api/v1/webhooks/not-a-uuid"))
          expect((yield* send("DELETE", `/api/v1/webhooks/${webhook.id}`)).status).toBe(200)
        }))

      it.effect("ping posts a signed `ping` event at once (204), whatever the receiver answers or if it hangs", () =>
        Effect.gen(function*() {
          const receiver = yield* TheReceiver
          const path = unique("ping")
          const webhook = yield* hook(receiver, path, ["dataset.created"])
          const ping = yield* send("POST", `/api/v1/webhooks/${webhook.id}/ping`)
          expect(ping.status).toBe(204)
          expect(ping.text).toBe("")
          // Synchronous: the delivery has arrived by the time the answer has.
          const [delivery] = receiver.at(path)
          expect(delivery?.verifyError).toBeUndefined()
          expect(delivery?.event).toMatchObject({ type: "ping", version: 1, data: { agent: "argilla-server", version: VERSION } })
          expect(delivery?.messageId).toMatch(/^msg_[A-Za-z0-9_-]{22}$/)
          for (const mode of [{ _tag: "status", status: 500 }, { _tag: "garbage" }, { _tag: "hang" }] as const) {
            receiver.setMode(path, mode)
            expect((yield* send("POST", `/api/v1/webhooks/${webhook.id}/ping`)).status).toBe(204)
          }
          expect(receiver.at(path)).toHaveLength(4)
        }))
    })
  })
}
