/**
 * The default client, as the Argilla SDK has one: every successful construction, by either face, becomes
 * the default; `Client.default` and `GlossClient.default` return it; closing a client that is still the default
 * clears the slot. The tests run in order: the slot is shared by the whole file.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { Client, GlossClient } from "../../src/client/index.js"
import { stubServer } from "./support.js"

describe("the default client", () => {
  it.live("Effect face: the last GlossClient.make is the default until its scope closes", () =>
    Effect.scoped(Effect.gen(function*() {
      const stub = yield* stubServer()
      const first = yield* GlossClient.make({ apiUrl: stub.url, apiKey: "first-key" })
      expect(yield* GlossClient.default).toBe(first)
      const scope = yield* Scope.make()
      const second = yield* GlossClient.make({ apiUrl: stub.url, apiKey: "second-key" }).pipe(Scope.extend(scope))
      expect(yield* GlossClient.default).toBe(second)

      // The Promise face sees the same default, wrapped once.
      const face = Client.default
      expect(Client.default).toBe(face)
      expect((yield* Effect.promise(() => face.me)).username).toBe("stub")
      expect(stub.requests.at(-1)?.headers["x-gloss-api-key"]).toBe("second-key")

      yield* Scope.close(scope, Exit.void)
      // The slot was cleared: the next default is a new, lazy client from the environment.
      expect(Client.default).not.toBe(face)
    })))

  it.live("Promise face: new Client() and Client.connect become the default; close clears it", () =>
    Effect.scoped(Effect.gen(function*() {
      const stub = yield* stubServer()
      const lazy = new Client({ apiUrl: stub.url, apiKey: "lazy-key" })
      expect(Client.default).toBe(lazy)
      expect(stub.requests).toEqual([])
      // The Effect face gets the lazy client's service, built on first use.
      const service = yield* GlossClient.default
      expect((yield* service.me).username).toBe("stub")
      expect(stub.requests[0]?.headers["x-gloss-api-key"]).toBe("lazy-key")

      const connected = yield* Effect.promise(() => Client.connect({ apiUrl: stub.url, apiKey: "connected-key" }))
      expect(Client.default).toBe(connected)
      // A failed construction does not become the default.
      yield* Effect.promise(() => Client.connect({ apiUrl: "ftp://nowhere", apiKey: "k" }).catch(() => undefined))
      expect(Client.default).toBe(connected)

      yield* Effect.promise(() => lazy.close())
      expect(Client.default).toBe(connected)
      yield* Effect.promise(() => connected.close())
      const fresh = Client.default
      expect(fresh).not.toBe(connected)
      expect(Client.default).toBe(fresh)
      yield* Effect.promise(() => fresh.close())
    })))
})
