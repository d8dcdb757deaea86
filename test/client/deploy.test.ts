/**
 * `deployOnSpaces` on both faces: the deploy helper against the fake Hub, returning a client built from
 * the deployment — pointed, in the test, at a local Gloss — that answers `me` and sends the Hub token to a
 * private Space.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Client, GlossClient } from "../../src/client/index.js"
import { DeployTest, FakeHub, FakeHubLive, HF_TOKEN } from "../deploy/fakeHub.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { recording } from "./support.js"

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("GlossClient.deployOnSpaces", (it) => {
  it.scoped("a private Space: the returned client answers me, with the API key and the Hub token on every request", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const { sent, transformClient } = recording()
      const client = yield* GlossClient.deployOnSpaces({
        apiKey: OWNER.apiKey,
        hfToken: HF_TOKEN,
        spaceStorage: "small",
        private: true,
        apiUrl: `${url}/`,
        pollInterval: "1 millis",
        transformClient
      }).pipe(Effect.provide(DeployTest({ runtime: ["BUILDING", "RUNNING"] })))
      expect((yield* client.me).username).toBe(OWNER.username)
      expect(client.apiUrl).toBe(url)
      expect(sent.length).toBeGreaterThan(0)
      for (const request of sent) {
        expect(request.headers).toMatchObject({ authorization: `Bearer ${HF_TOKEN}`, "x-gloss-api-key": OWNER.apiKey })
      }
    }))

  it.scoped("a public Space: no Authorization header; a short key fails before the Hub is written to", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const { sent, transformClient } = recording()
      yield* GlossClient.deployOnSpaces({ apiKey: OWNER.apiKey, hfToken: HF_TOKEN, apiUrl: url, transformClient }).pipe(
        Effect.provide(DeployTest())
      )
      expect(sent[0]?.headers.authorization).toBeUndefined()
      const short = yield* Effect.flip(
        GlossClient.deployOnSpaces({ apiKey: "short", hfToken: HF_TOKEN, apiUrl: url }).pipe(Effect.provide(DeployTest()))
      )
      expect(short._tag).toBe("InvalidApiKeyLength")
    }))
})

const Servers = Layer.merge(TestServerLive("sqlite"), FakeHubLive({ runtime: ["APP_STARTING", "RUNNING"] }))

layer(Servers, { excludeTestServices: true, timeout: 60_000 })("Client.deployOnSpaces", (it) => {
  it.scoped("the Promise form deploys through the Hub at HF_ENDPOINT and returns a working Client", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const hub = yield* FakeHub
      const saved = { ...process.env }
      yield* Effect.addFinalizer(() => Effect.sync(() => { process.env = saved }))
      process.env.HF_ENDPOINT = hub.url
      process.env.HF_TOKEN_PATH = hub.tokenPath
      const logs: Array<string> = []
      const client = yield* Effect.promise(() =>
        Client.deployOnSpaces({
          apiKey: OWNER.apiKey,
          hfToken: HF_TOKEN,
          private: true,
          apiUrl: url,
          pollInterval: "1 millis",
          onLog: ({ level, message }) => logs.push(`${level} ${message}`)
        })
      )
      expect((yield* Effect.promise(() => client.me)).username).toBe(OWNER.username)
      // The deployment's own logs go where the client's do.
      expect(logs.some((line) => line.startsWith("INFO Deployment in progress (APP_STARTING)"))).toBe(true)
      expect(logs.some((line) => line.startsWith("WARN No storage provided."))).toBe(true)
      expect((yield* hub.calls).map((call) => `${call.method} ${call.path}`)).toContain("POST /api/spaces/argilla/argilla-template-space/duplicate")
      yield* Effect.promise(() => client.close())
    }))
})
