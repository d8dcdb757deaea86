/**
 * `client.webhooks` (list, add, get, update, delete, ping) and the exported Standard Webhooks verification: a
 * delivery the server signs (its ping) and one signed here with `standardwebhooks` both verify; tampering, a stale
 * timestamp, missing headers or another secret do not.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { Webhook as StandardWebhook } from "standardwebhooks"
import { verifyWebhook, verifyWebhookEither, verifyWebhookSync, WebhookVerificationFailed } from "../../src/client/index.js"
import { TestServerLive } from "../support/server.js"
import { ownerGloss, stubServer, valueOf, withLogs } from "./support.js"

const MISSING = "00000000-0000-4000-8000-000000000000"

// The ping test's receiver listens on loopback, which webhooks may post to only when it is listed.
layer(TestServerLive("sqlite", { GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1" }), { excludeTestServices: true, timeout: 60_000 })("webhooks", (it) => {
  it.scoped("add, list, get (by id; missing: None + warning), update, delete", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const added = yield* client.webhooks.add({ url: "https://example.com/hook", events: ["dataset.created"] })
      expect(added).toMatchObject({ url: "https://example.com/hook", events: ["dataset.created"], enabled: true })
      expect(added.secret.length).toBeGreaterThan(40)
      expect((yield* client.webhooks.list()).map((w) => w.id)).toContain(added.id)
      expect(yield* client.webhooks.count()).toBeGreaterThan(0)
      expect(yield* client.webhooks({ id: added.id })).toEqual(Option.some(added))

      const missing = yield* withLogs(client.webhooks({ id: MISSING }))
      expect(valueOf(missing.result)).toEqual(Option.none())
      expect(missing.warnings).toEqual([`Webhook with id '${MISSING}' not found`])
      expect((yield* Effect.flip(client.webhooks({})))._tag).toBe("MissingLookupArgument")

      const updated = yield* client.webhooks.update(added, { enabled: false, description: "paused" })
      expect(updated).toMatchObject({ enabled: false, description: "paused" })
      yield* client.webhooks.delete(added.id)
      expect(yield* withLogs(client.webhooks({ id: added.id })).pipe(Effect.map((r) => valueOf(r.result))))
        .toEqual(Option.none())
      expect((yield* Effect.flip(client.webhooks.delete(added.id)))._tag).toBe("NotFound")
    }))

  it.scoped("a delivery signed by the server (its ping) verifies with the webhook's secret", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const receiver = yield* stubServer((res) => {
        res.writeHead(200)
        res.end()
      })
      const webhook = yield* client.webhooks.add({ url: `${receiver.url}/hook`, events: ["record.created"] })
      yield* client.webhooks.ping(webhook)
      const delivery = receiver.requests[0]
      expect(delivery?.method).toBe("POST")
      const headers = delivery?.headers ?? {}
      const event = yield* verifyWebhook({ secret: webhook.secret, payload: delivery?.body ?? "", headers })
      expect(event).toMatchObject({ type: "ping", version: 1 })

      const tampered = yield* Effect.flip(
        verifyWebhook({ secret: webhook.secret, payload: `${delivery?.body ?? ""} `, headers })
      )
      expect(tampered).toBeInstanceOf(WebhookVerificationFailed)
      expect(tampered.reason).toBe("No matching signature found")
      yield* client.webhooks.delete(webhook)
    }))

  it.effect("a payload signed with standardwebhooks round-trips; stale, unsigned or foreign ones fail", () =>
    Effect.gen(function*() {
      const secret = Buffer.from("a secret of sixty-four bytes, as the server makes them: 0123456789").toString("base64")
      const payload = JSON.stringify({ type: "record.created", version: 1, timestamp: "2024-09-02T11:41:57.561000Z", data: {} })
      const signed = (at: Date) => ({
        "webhook-id": "msg_test",
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": new StandardWebhook(secret).sign("msg_test", at, payload)
      })
      const ok = yield* verifyWebhook({ secret, payload: new TextEncoder().encode(payload), headers: new Headers(signed(new Date())) })
      expect(ok.type).toBe("record.created")
      expect(verifyWebhookSync({ secret, payload, headers: signed(new Date()) }).version).toBe(1)

      const reasons = [
        verifyWebhookEither({ secret, payload, headers: signed(new Date(Date.now() - 10 * 60_000)) }),
        verifyWebhookEither({ secret, payload, headers: { "webhook-id": "msg_test" } }),
        verifyWebhookEither({ secret: Buffer.from("another secret").toString("base64"), payload, headers: signed(new Date()) })
      ].map((result) => Either.match(result, { onLeft: (error) => error.reason, onRight: () => "verified" }))
      expect(reasons).toEqual(["Message timestamp too old", "Missing required headers", "No matching signature found"])
      expect(() => verifyWebhookSync({ secret, payload: "{}", headers: signed(new Date()) })).toThrow(WebhookVerificationFailed)
    }))
})
