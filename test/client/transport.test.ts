/**
 * The Argilla SDK's constructor parameters and its timeout rule (the request fails once the retries are used up),
 * against small loopback servers: a whole-request
 * timeout, connection retries only (refused or reset before an answer), never a request the server answered,
 * headers on every request with the API key winning, and the environment defaults.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Fiber, Option, Schedule } from "effect"
import { type ClientOptions, GlossClient } from "../../src/client/index.js"
import { freePort, json, recording, STUB_USER, stubServer } from "./support.js"

const fast: ClientOptions = { retryBackoff: "5 millis", apiKey: "key-1234" }

describe("transport", () => {
  it.live("a server that answers after the timeout: RequestTimeout, and the request is not sent again", () =>
    Effect.scoped(Effect.gen(function*() {
      // A timeout with room for a loaded machine: at 0.2 s a full run's client once gave up before the stub had even
      // received the request.
      const stub = yield* stubServer((res) => setTimeout(() => json(res, 200, STUB_USER), 5_000))
      const error = yield* Effect.flip(GlossClient.make({ ...fast, apiUrl: stub.url, timeout: 1, retries: 3 }))
      expect(error._tag).toBe("RequestTimeout")
      expect(error.message).toBe(`No answer from '${stub.url}' within 1 seconds`)
      expect(stub.requests.length).toBe(1)
    })))

  it.live("connections reset before an answer are retried; past the timeout the call fails with RequestTimeout", () =>
    Effect.scoped(Effect.gen(function*() {
      const stub = yield* stubServer((res, n) => {
        if (n <= 3) res.socket?.destroy()
        else setTimeout(() => json(res, 200, STUB_USER), 2_000)
      })
      const error = yield* Effect.flip(GlossClient.make({ ...fast, apiUrl: stub.url, timeout: 0.5, retries: 3 }))
      expect(error._tag).toBe("RequestTimeout")
      expect(stub.requests.length).toBe(4)
    })))

  it.live("a server that stays down: ConnectionFailed after 5 retries (6 attempts)", () =>
    Effect.scoped(Effect.gen(function*() {
      const port = yield* freePort
      const { sent, transformClient } = recording()
      const error = yield* Effect.flip(
        GlossClient.make({ ...fast, apiUrl: `http://127.0.0.1:${port}`, transformClient })
      )
      expect(error._tag).toBe("ConnectionFailed")
      expect(sent.length).toBe(6)
      expect(error).toMatchObject({ attempts: 6, apiUrl: `http://127.0.0.1:${port}` })
      expect(error.message).toContain("ECONNREFUSED")
    })))

  it.live("a server that is not listening yet and starts during the retries: the call succeeds", () =>
    Effect.scoped(Effect.gen(function*() {
      const port = yield* freePort
      const { sent, transformClient } = recording()
      const connecting = yield* Effect.fork(
        GlossClient.make({ apiKey: "key-1234", apiUrl: `http://127.0.0.1:${port}`, retryBackoff: "50 millis", transformClient })
      )
      // Start listening once the first attempt has been refused.
      yield* Effect.repeat(Effect.sync(() => sent.length), { until: (n) => n >= 1, schedule: Schedule.spaced("5 millis") })
      const stub = yield* stubServer(undefined, port)
      const client = yield* Fiber.join(connecting)
      expect((yield* client.me).username).toBe("stub")
      expect(sent.length).toBeGreaterThan(1)
      expect(stub.requests.length).toBe(1)
    })))

  it.live("an answered request is never retried, whatever its status", () =>
    Effect.scoped(Effect.gen(function*() {
      const stub = yield* stubServer((res) =>
        json(res, 503, { detail: "the database stayed locked" })
      )
      const error = yield* Effect.flip(GlossClient.make({ ...fast, apiUrl: stub.url }))
      expect(error._tag).toBe("ServiceUnavailable")
      expect(stub.requests.length).toBe(1)

      const proxy = yield* stubServer((res) => {
        res.writeHead(502, { "content-type": "text/html" })
        res.end("<html>Bad Gateway</html>")
      })
      const unexpected = yield* Effect.flip(GlossClient.make({ ...fast, apiUrl: proxy.url }))
      expect(unexpected).toMatchObject({ _tag: "UnexpectedResponse", status: 502, detail: "<html>Bad Gateway</html>" })
      expect(proxy.requests.length).toBe(1)
    })))

  it.live("headers go with every request; the API-key header wins over a header of the same name", () =>
    Effect.scoped(Effect.gen(function*() {
      const stub = yield* stubServer()
      const client = yield* GlossClient.make({
        apiUrl: `${stub.url}/`,
        apiKey: "the-real-key",
        headers: { "X-Extra": "one", "x-gloss-api-key": "not-this", Authorization: "Bearer hub-token" }
      })
      expect(yield* client.workspaces.count()).toBe(0)
      expect(stub.requests.map((r) => r.url)).toEqual(["/api/v1/me", "/api/v1/me/workspaces"])
      for (const request of stub.requests) {
        expect(request.headers).toMatchObject({
          "x-extra": "one",
          "x-gloss-api-key": "the-real-key",
          authorization: "Bearer hub-token"
        })
      }
    })))

  it.live("me is fetched once, then cached for the client's life", () =>
    Effect.scoped(Effect.gen(function*() {
      const stub = yield* stubServer()
      const client = yield* GlossClient.make({ ...fast, apiUrl: stub.url })
      yield* client.me
      yield* client.me
      expect(stub.requests.filter((r) => r.url === "/api/v1/me").length).toBe(1)
    })))

  it.live("defaults: GLOSS_API_URL and GLOSS_API_KEY (through Config), else localhost:6900 and MissingApiKey", () =>
    Effect.scoped(Effect.gen(function*() {
      const stub = yield* stubServer()
      const env = (entries: Record<string, string>) =>
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(entries))))
      const client = yield* GlossClient.make().pipe(env({ GLOSS_API_URL: stub.url, GLOSS_API_KEY: "env-key" }))
      expect(client.apiUrl).toBe(stub.url)
      expect(stub.requests[0]?.headers["x-gloss-api-key"]).toBe("env-key")
      // An argument wins over the environment.
      yield* GlossClient.make({ apiKey: "arg-key" }).pipe(env({ GLOSS_API_URL: stub.url, GLOSS_API_KEY: "env-key" }))
      expect(stub.requests[1]?.headers["x-gloss-api-key"]).toBe("arg-key")

      const missing = yield* Effect.flip(GlossClient.make().pipe(env({ GLOSS_API_URL: stub.url, GLOSS_API_KEY: "  " })))
      expect(missing._tag).toBe("MissingApiKey")
      const { sent, transformClient } = recording()
      // Whatever answers there (or nothing), the request went to the default URL.
      yield* Effect.either(GlossClient.make({ apiKey: "k", retries: 0, timeout: 2, transformClient }).pipe(env({})))
      expect(sent[0]?.url).toBe("http://localhost:6900/api/v1/me")
      expect((yield* Effect.flip(GlossClient.make({ apiUrl: "ftp://x", apiKey: "k" })))._tag).toBe("InvalidApiUrl")
      expect(Option.isNone(client.workspace)).toBe(true)
    })))
})
