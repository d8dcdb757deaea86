import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { deployOnSpaces } from "../../src/deploy/deployOnSpaces.js"
import { Api } from "../../src/contract/Api.js"
import { API_KEY_HEADER } from "../../src/contract/Authentication.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { DeployTest, HF_TOKEN } from "./fakeHub.js"

// The Space itself is not started here: the deployment is pointed at a local Gloss server instead, which proves
// that its URL, key and headers are exactly what a client needs (a private Space's proxy adds the Bearer header).
layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("a deployment drives a client", (it) => {
  it.effect("a private Space's deployment answers GET /api/v1/me through the typed client", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const deployment = yield* deployOnSpaces({
        apiKey: OWNER.apiKey,
        hfToken: HF_TOKEN,
        spaceStorage: "small",
        private: true,
        apiUrl: `${url}/`
      }).pipe(Effect.provide(DeployTest({ runtime: ["RUNNING"] })))
      expect(deployment.headers).toEqual({ Authorization: `Bearer ${HF_TOKEN}` })

      const client = yield* HttpApiClient.make(Api, {
        baseUrl: deployment.apiUrl,
        transformClient: HttpClient.mapRequest(
          HttpClientRequest.setHeaders({ ...deployment.headers, [API_KEY_HEADER]: deployment.apiKey })
        )
      })
      const me = yield* client.me.me()
      expect(me).toMatchObject({ username: OWNER.username, role: "owner", api_key: OWNER.apiKey })
    }))
})
