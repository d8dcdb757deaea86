/** The pure parts: URL normalisation, message ids, the envelope, signing (checked with the library), outcomes. */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { Webhook as Verifier } from "standardwebhooks"
import { WebhookCreate, WebhookUrl } from "../../src/domain/Webhook.js"
import { classify } from "../../src/services/webhooks/Delivery.js"
import { envelope, eventTimestamp, messageIdFor, newSecret, randomMessageId, signedHeaders } from "../../src/services/webhooks/signing.js"

const decodeUrl = Schema.decodeUnknownEither(WebhookUrl)

describe("webhook URLs", () => {
  it("are stored as the WHATWG parser normalises them", () => {
    expect(decodeUrl("HTTP://Example.COM")).toEqual(Either.right("http://example.com/"))
    expect(decodeUrl("https://example.com:443/a/../b?x=1#f")).toEqual(Either.right("https://example.com/b?x=1#f"))
    expect(decodeUrl("http://127.0.0.1:8080/hook")).toEqual(Either.right("http://127.0.0.1:8080/hook"))
  })

  it("must be absolute http(s) URLs", () => {
    for (const bad of ["ftp://example.com", "example.com/hook", "/relative", "javascript:alert(1)", "http://", "", "x".repeat(2100)]) {
      expect(Either.isLeft(decodeUrl(bad))).toBe(true)
    }
  })

  it("events: at least one, each once, from the list (not `ping`)", () => {
    const decode = Schema.decodeUnknownEither(WebhookCreate)
    expect(Either.isRight(decode({ url: "http://a.example", events: ["record.completed"] }))).toBe(true)
    for (const events of [[], ["ping"], ["record.done"], ["record.created", "record.created"]]) {
      expect(Either.isLeft(decode({ url: "http://a.example", events }))).toBe(true)
    }
  })
})

describe("signing", () => {
  it("a secret is base64 of 64 random bytes", () => {
    const secret = newSecret()
    expect(Buffer.from(secret, "base64")).toHaveLength(64)
    expect(newSecret()).not.toBe(secret)
  })

  it("a message id is derived from the event and the webhook, in Argilla's form", () => {
    const id = messageIdFor("event-1", "hook-1")
    expect(id).toMatch(/^msg_[A-Za-z0-9_-]{22}$/)
    expect(messageIdFor("event-1", "hook-1")).toBe(id)
    expect(messageIdFor("event-1", "hook-2")).not.toBe(id)
    expect(messageIdFor("event-2", "hook-1")).not.toBe(id)
    expect(randomMessageId()).toMatch(/^msg_[A-Za-z0-9_-]{22}$/)
  })

  it("the envelope carries the event time with microseconds and the data unchanged", () => {
    const at = new Date("2024-09-02T11:41:57.561Z")
    expect(eventTimestamp(at)).toBe("2024-09-02T11:41:57.561000Z")
    const body = envelope("record.created", at, "{\"id\":\"r\",\"b\":1,\"a\":2}")
    expect(body).toBe("{\"type\":\"record.created\",\"version\":1,\"timestamp\":\"2024-09-02T11:41:57.561000Z\",\"data\":{\"id\":\"r\",\"b\":1,\"a\":2}}")
    expect(JSON.parse(body)).toEqual({ type: "record.created", version: 1, timestamp: "2024-09-02T11:41:57.561000Z", data: { id: "r", b: 1, a: 2 } })
  })

  it("the headers verify with the standardwebhooks library, and not with another secret or body", () => {
    const secret = newSecret()
    const body = envelope("dataset.created", new Date(), "{}")
    const headers = signedHeaders(secret, "msg_test", body, new Date())
    expect(headers["content-type"]).toBe("application/json")
    expect(headers["webhook-id"]).toBe("msg_test")
    expect(headers["webhook-timestamp"]).toMatch(/^\d+$/)
    expect(new Verifier(secret).verify(body, headers)).toMatchObject({ type: "dataset.created", version: 1 })
    expect(() => new Verifier(newSecret()).verify(body, headers)).toThrow("No matching signature found")
    expect(() => new Verifier(secret).verify(body.replace("{}", "{\"x\":1}"), headers)).toThrow()
  })
})

describe("delivery outcomes", () => {
  it("2xx delivers; 5xx and 429 retry; other answers are final", () => {
    expect([200, 201, 204, 299].map((s) => classify(s)._tag)).toEqual(["Delivered", "Delivered", "Delivered", "Delivered"])
    expect([500, 502, 503, 504, 429].map((s) => classify(s)._tag)).toEqual(["Retry", "Retry", "Retry", "Retry", "Retry"])
    expect([301, 302, 400, 401, 403, 404, 408, 410, 413, 422].map((s) => classify(s)._tag)).toEqual(Array(10).fill("Rejected"))
  })
})
