import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber, Option, Queue, TestClock } from "effect"
import type { Hub } from "../../src/deploy/Hub.js"
import type { DeployError } from "../../src/deploy/Errors.js"
import { deployOnSpaces, type DeployOptions, type SpaceDeployment } from "../../src/deploy/deployOnSpaces.js"
import { captureLogs, DeployTest, FakeHub, HF_TOKEN } from "./fakeHub.js"

const API_KEY = "owner.apikey.1234"
const base = { apiKey: API_KEY, hfToken: HF_TOKEN, spaceStorage: "small" } satisfies DeployOptions

/** Runs a deploy with its log lines captured; answers the result (or error), the lines and the Hub calls. */
const deploy = (options: DeployOptions) =>
  Effect.gen(function*() {
    const logs = yield* captureLogs
    const result = yield* Effect.either(deployOnSpaces(options).pipe(Effect.provide(logs.logger)))
    const calls = yield* (yield* FakeHub).calls
    return { result, lines: yield* logs.all, calls, routes: calls.map((c) => `${c.method} ${c.path}`) }
  })

// The signature the client relies on: only `Hub` is required, and every failure is one of the typed errors.
const signature: (options: DeployOptions) => Effect.Effect<SpaceDeployment, DeployError, Hub> = deployOnSpaces

const SECRETS = [
  { key: "API_KEY", value: API_KEY, description: "The API key of the owner user." },
  { key: "WORKSPACE", value: "gloss", description: "The workspace of the space." }
]

describe("deployOnSpaces against a fake Hub", () => {
  it.effect("a new Space is duplicated with hardware, storage, privacy and the API_KEY and WORKSPACE secrets", () =>
    Effect.gen(function*() {
      const { calls, lines, result, routes } = yield* deploy({ ...base, spaceHardware: "cpu-upgrade", private: true })
      expect(routes).toEqual([
        "GET /api/whoami-v2",
        "GET /api/spaces/alice/gloss",
        "POST /api/spaces/argilla/argilla-template-space/duplicate",
        "POST /api/repos/create",
        "GET /api/spaces/alice/gloss/runtime"
      ])
      expect(calls.every((c) => c.authorization === `Bearer ${HF_TOKEN}`)).toBe(true)
      expect(calls[2]?.body).toEqual({
        repository: "alice/gloss",
        private: true,
        hardware: "cpu-upgrade",
        storageTier: "small",
        secrets: SECRETS
      })
      expect(calls[3]?.body).toEqual({ name: "gloss", organization: "alice", type: "space", sdk: "docker" })
      expect(result).toEqual(Either.right({
        apiUrl: "https://alice-gloss.hf.space/",
        apiKey: API_KEY,
        headers: { Authorization: `Bearer ${HF_TOKEN}` },
        repoId: "alice/gloss",
        stage: "RUNNING"
      }))
      expect(lines).toEqual(["INFO Gloss is being deployed at: http://hub.test/spaces/alice/gloss"])
    }).pipe(Effect.provide(DeployTest())))

  it.effect("without storage it warns that data is reset every 48 hours; defaults cpu-basic, public, sanitised URL", () =>
    Effect.gen(function*() {
      const { calls, lines, result } = yield* deploy({
        apiKey: API_KEY,
        hfToken: HF_TOKEN,
        orgName: "My_Org.Team",
        repoName: "Gloss.Demo"
      })
      const duplicate = calls.find((c) => c.path.endsWith("/duplicate"))
      expect(duplicate?.body).toEqual({ repository: "My_Org.Team/Gloss.Demo", private: false, hardware: "cpu-basic", secrets: SECRETS })
      expect(result).toMatchObject({
        _tag: "Right",
        right: { apiUrl: "https://my-org-team-gloss-demo.hf.space/", headers: {}, repoId: "My_Org.Team/Gloss.Demo" }
      })
      expect(lines[0]).toBe(
        "WARN No storage provided. The space will not have persistent storage so every 48 hours your data will be reset."
      )
    }).pipe(Effect.provide(DeployTest())))

  for (const stage of ["PAUSED", "STOPPED"]) {
    it.effect(`an existing ${stage} Space is restarted, not duplicated, and the provided API key is used`, () =>
      Effect.gen(function*() {
        const hub = yield* FakeHub
        const { lines, result, routes } = yield* deploy(base)
        expect(routes).toEqual([
          "GET /api/whoami-v2",
          "GET /api/spaces/alice/gloss",
          "GET /api/spaces/alice/gloss/runtime",
          "POST /api/spaces/alice/gloss/restart",
          "POST /api/repos/create",
          "GET /api/spaces/alice/gloss/runtime"
        ])
        expect(result).toMatchObject({ _tag: "Right", right: { apiKey: API_KEY, stage: "RUNNING" } })
        expect(lines[0]).toBe(
          "WARN Space alice/gloss already exists. Using provided API key. If client authentication fails, go to " +
            `${hub.url}/spaces/alice/gloss to login with OAuth and get the correct API key.`
        )
      }).pipe(Effect.provide(DeployTest({ existing: ["alice/gloss"], runtime: [stage, "RUNNING"] }))))
  }

  it.effect("an existing RUNNING Space is neither restarted nor duplicated, and the warning is still given", () =>
    Effect.gen(function*() {
      const { lines, result, routes } = yield* deploy(base)
      expect(routes.filter((r) => r.startsWith("POST"))).toEqual(["POST /api/repos/create"])
      expect(result._tag).toBe("Right")
      expect(lines.filter((l) => l.startsWith("WARN"))).toHaveLength(1)
      expect(lines[0]).toMatch(/^WARN Space alice\/gloss already exists\. Using provided API key\./)
    }).pipe(Effect.provide(DeployTest({ existing: ["alice/gloss"], runtime: ["RUNNING"] }))))

  it.effect("an existing Space in a stage outside the seven fails with InvalidSpaceStage and changes nothing", () =>
    Effect.gen(function*() {
      const { result, routes } = yield* deploy(base)
      expect(routes.filter((r) => r.startsWith("POST"))).toEqual([])
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "InvalidSpaceStage", stage: "CONFIG_ERROR" } })
      if (result._tag === "Left") expect(result.left.message).toBe("Space configuration is wrong and in stage: CONFIG_ERROR")
    }).pipe(Effect.provide(DeployTest({ existing: ["alice/gloss"], runtime: ["CONFIG_ERROR"] }))))

  it.effect("a Space that fails to build while polled fails with InvalidSpaceStage", () =>
    Effect.gen(function*() {
      const { result } = yield* deploy(base)
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "InvalidSpaceStage", stage: "BUILD_ERROR" } })
    }).pipe(Effect.provide(DeployTest({ runtime: ["BUILD_ERROR"] }))))

  it.effect("BUILDING → APP_STARTING → RUNNING: one poll and one progress line per interval, on the TestClock", () =>
    Effect.gen(function*() {
      const hub = yield* FakeHub
      const logs = yield* captureLogs
      const runtimeReads = Effect.map(hub.calls, (calls) => calls.filter((c) => c.path.endsWith("/runtime")).length)
      const fiber = yield* deployOnSpaces(base).pipe(Effect.provide(logs.logger), Effect.fork)

      expect(yield* Queue.take(logs.lines)).toBe("INFO Gloss is being deployed at: http://hub.test/spaces/alice/gloss")
      expect(yield* Queue.take(logs.lines)).toBe("INFO Deployment in progress (BUILDING). Waiting 10 seconds.")
      expect(yield* runtimeReads).toBe(1)
      yield* TestClock.adjust("9 seconds")
      expect(yield* runtimeReads).toBe(1)
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)

      yield* TestClock.adjust("1 second")
      expect(yield* Queue.take(logs.lines)).toBe("INFO Deployment in progress (APP_STARTING). Waiting 10 seconds.")
      expect(yield* runtimeReads).toBe(2)

      yield* TestClock.adjust("10 seconds")
      const deployment = yield* Fiber.join(fiber)
      expect(deployment.stage).toBe("RUNNING")
      expect(yield* runtimeReads).toBe(3)
      expect(yield* logs.all).toEqual([])
    }).pipe(Effect.provide(DeployTest({ runtime: ["BUILDING", "APP_STARTING", "RUNNING"] }))))

  it.effect("an API key under 8 characters fails with InvalidApiKeyLength before any Hub call", () =>
    Effect.gen(function*() {
      const { calls, result } = yield* deploy({ apiKey: "short12" })
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "InvalidApiKeyLength", length: 7 } })
      if (result._tag === "Left") {
        expect(result.left.message).toBe(
          "Provided API key has invalid length. Please provide an apikey with at least 8 characters."
        )
      }
      expect(calls).toEqual([])
    }).pipe(Effect.provide(DeployTest())))

  it.effect("no token anywhere and no terminal: MissingHubToken, and the Hub is not called", () =>
    Effect.gen(function*() {
      const hub = yield* FakeHub
      const { calls, result } = yield* deploy({ apiKey: API_KEY })
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "MissingHubToken", tokenPath: hub.tokenPath } })
      expect(calls).toEqual([])
    }).pipe(Effect.provide(DeployTest())))

  it.effect("Hub failures are typed: a missing template is HubNotFound, a 5xx is HubServerError with its status", () =>
    Effect.gen(function*() {
      const missing = yield* deploy({ ...base, templateSpace: "nobody/no-template" })
      expect(missing.result).toMatchObject({
        _tag: "Left",
        left: { _tag: "HubNotFound", operation: "POST /api/spaces/nobody/no-template/duplicate", detail: "{\"error\":\"scripted 404\"}" }
      })
      const down = yield* deploy(base)
      expect(down.result).toMatchObject({
        _tag: "Left",
        left: { _tag: "HubServerError", status: 503, operation: "POST /api/repos/create" }
      })
    }).pipe(Effect.provide(DeployTest({
      failures: { "POST /api/spaces/nobody/no-template/duplicate": 404, "POST /api/repos/create": 503 }
    }))))

  it.effect("a conflicting duplicate (the Space appeared meanwhile) is tolerated, as exist_ok does", () =>
    Effect.gen(function*() {
      const { result } = yield* deploy(base)
      expect(result).toMatchObject({ _tag: "Right", right: { stage: "RUNNING" } })
    }).pipe(Effect.provide(DeployTest({ failures: { "POST /api/spaces/argilla/argilla-template-space/duplicate": 409 } }))))

  it.effect("an unreachable Hub fails with HubRequestError", () =>
    Effect.gen(function*() {
      const { result } = yield* deploy(base)
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "HubRequestError", operation: "GET /api/whoami-v2" } })
    }).pipe(Effect.provide(DeployTest({}, { env: { HF_ENDPOINT: "http://127.0.0.1:1" } }))))

  it.effect("a token the Hub rejects fails with HubUnauthorized carrying the Hub's message", () =>
    Effect.gen(function*() {
      const { result, routes } = yield* deploy({ ...base, hfToken: "hf_revoked" })
      expect(routes).toEqual(["GET /api/whoami-v2"])
      expect(result).toMatchObject({
        _tag: "Left",
        left: {
          _tag: "HubUnauthorized",
          operation: "GET /api/whoami-v2",
          detail: "Invalid credentials in Authorization header"
        }
      })
    }).pipe(Effect.provide(DeployTest())))
})
