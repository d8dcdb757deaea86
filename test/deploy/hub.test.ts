import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { Hub } from "../../src/deploy/Hub.js"
import { DeployTest, FakeHub, HF_TOKEN } from "./fakeHub.js"

const token = Redacted.make(HF_TOKEN)

describe("Hub REST calls", () => {
  it.effect("addSecret posts {key, value, description} to the Space's secrets", () =>
    Effect.gen(function*() {
      const hub = yield* Hub
      yield* hub.addSecret(token, "alice/gloss", { key: "API_KEY", value: "owner.apikey", description: "owner key" })
      const [call] = yield* (yield* FakeHub).calls
      expect(call).toEqual({
        method: "POST",
        path: "/api/spaces/alice/gloss/secrets",
        authorization: `Bearer ${HF_TOKEN}`,
        body: { key: "API_KEY", value: "owner.apikey", description: "owner key" }
      })
    }).pipe(Effect.provide(DeployTest({ existing: ["alice/gloss"] }))))

  it.effect("restart answers the runtime; spaceExists is false on 404 and true on 200", () =>
    Effect.gen(function*() {
      const hub = yield* Hub
      expect(yield* hub.restart(token, "alice/gloss")).toEqual({ stage: "BUILDING" })
      expect(yield* hub.spaceExists(token, "alice/gloss")).toBe(true)
      expect(yield* hub.spaceExists(token, "alice/other")).toBe(false)
    }).pipe(Effect.provide(DeployTest({ existing: ["alice/gloss"] }))))

  it.effect("createRepo tolerates an existing repository and returns its URL", () =>
    Effect.gen(function*() {
      const hub = yield* Hub
      expect(yield* hub.createRepo(token, "alice/gloss")).toBe("http://hub.test/spaces/alice/gloss")
      expect((yield* (yield* FakeHub).calls)[0]?.body).toEqual({
        name: "gloss",
        organization: "alice",
        type: "space",
        sdk: "docker"
      })
    }).pipe(Effect.provide(DeployTest({ existing: ["alice/gloss"] }))))
})
