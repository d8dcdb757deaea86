import * as os from "node:os"
import * as path from "node:path"
import { FileSystem } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { Hub } from "../../src/deploy/Hub.js"
import { hubSettings } from "../../src/deploy/HubSettings.js"
import { DeployTest, FakeHub, fakeTerminal, HF_TOKEN, pressed, typed } from "./fakeHub.js"

const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

/** The token `Hub` settles on, as the fake Hub saw it in whoami. */
const tokenSeenByHub = (explicit?: string) =>
  Effect.gen(function*() {
    const hub = yield* Hub
    yield* hub.whoami(yield* hub.token(explicit))
    const calls = yield* (yield* FakeHub).calls
    return calls.at(-1)?.authorization
  })

const writeTokenFile = (content: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const { tokenPath } = yield* FakeHub
    yield* fs.makeDirectory(path.dirname(tokenPath), { recursive: true })
    yield* fs.writeFileString(tokenPath, content)
  }).pipe(Effect.provide(NodeFileSystem.layer))

describe("Hub settings", () => {
  it.effect("default to huggingface.co and ~/.cache/huggingface/token", () =>
    Effect.gen(function*() {
      const settings = yield* withEnv({})(hubSettings)
      expect(settings.endpoint).toBe("https://huggingface.co")
      expect(settings.tokenPath).toBe(path.join(os.homedir(), ".cache", "huggingface", "token"))
      expect(settings.envToken).toEqual(Option.none())
    }))

  it.effect("HF_TOKEN_PATH beats HF_HOME, which beats XDG_CACHE_HOME; HF_ENDPOINT loses its trailing slash", () =>
    Effect.gen(function*() {
      const all = { HF_TOKEN_PATH: "/t/token", HF_HOME: "/hf", XDG_CACHE_HOME: "/xdg", HF_ENDPOINT: "http://hub:8080/" }
      expect((yield* withEnv(all)(hubSettings)).tokenPath).toBe("/t/token")
      expect((yield* withEnv({ ...all, HF_TOKEN_PATH: "" })(hubSettings)).tokenPath).toBe("/hf/token")
      expect((yield* withEnv({ XDG_CACHE_HOME: "/xdg" })(hubSettings)).tokenPath).toBe("/xdg/huggingface/token")
      expect((yield* withEnv(all)(hubSettings)).endpoint).toBe("http://hub:8080")
      const error = yield* Effect.flip(withEnv({ HF_ENDPOINT: "ftp://hub" })(hubSettings))
      expect(String(error)).toContain("HF_ENDPOINT")
    }))
})

describe("Hub token discovery", () => {
  it.effect("the argument wins over HF_TOKEN and the token file", () =>
    Effect.gen(function*() {
      yield* writeTokenFile("hf_from_file")
      expect(yield* tokenSeenByHub(` ${HF_TOKEN}\n`)).toBe(`Bearer ${HF_TOKEN}`)
    }).pipe(Effect.provide(DeployTest({}, { env: { HF_TOKEN: "hf_from_env" } }))))

  it.effect("without an argument, HF_TOKEN wins over the token file", () =>
    Effect.gen(function*() {
      yield* writeTokenFile("hf_from_file")
      expect(yield* tokenSeenByHub()).toBe(`Bearer ${HF_TOKEN}`)
    }).pipe(Effect.provide(DeployTest({}, { env: { HF_TOKEN: `${HF_TOKEN}\r\n` } }))))

  it.effect("without HF_TOKEN, the token file is read (CR/LF and blanks dropped)", () =>
    Effect.gen(function*() {
      yield* writeTokenFile(`${HF_TOKEN}\n`)
      expect(yield* tokenSeenByHub()).toBe(`Bearer ${HF_TOKEN}`)
    }).pipe(Effect.provide(DeployTest())))

  it.effect("at a terminal, a login prompt re-asks until whoami accepts the token, then saves it (mode 0600)", () =>
    Effect.gen(function*() {
      const hub = yield* Hub
      const { calls, tokenPath } = yield* FakeHub
      const token = yield* hub.token()
      expect(Redacted.value(token)).toBe(HF_TOKEN)
      expect((yield* calls).map((c) => c.authorization)).toEqual(["Bearer hf_wrong", `Bearer ${HF_TOKEN}`])
      const fs = yield* FileSystem.FileSystem
      expect(yield* fs.readFileString(tokenPath)).toBe(HF_TOKEN)
      expect((yield* fs.stat(tokenPath)).mode & 0o777).toBe(0o600)
    }).pipe(
      Effect.provide(NodeFileSystem.layer),
      Effect.provide(DeployTest({}, {
        terminal: fakeTerminal(true, [
          ...typed("hf_wrong"),
          ...pressed("enter"),
          ...pressed("backspace", "hf_wrong".length),
          ...typed(HF_TOKEN),
          ...pressed("enter")
        ])
      }))
    ))

  it.effect("at a terminal whose input ends before a valid token, MissingHubToken and nothing is saved", () =>
    Effect.gen(function*() {
      const hub = yield* Hub
      const { tokenPath } = yield* FakeHub
      const error = yield* Effect.flip(hub.token())
      expect(error._tag).toBe("MissingHubToken")
      expect(yield* Effect.flatMap(FileSystem.FileSystem, (fs) => fs.exists(tokenPath))).toBe(false)
    }).pipe(
      Effect.provide(NodeFileSystem.layer),
      Effect.provide(DeployTest({}, { terminal: fakeTerminal(true, [...typed("hf_wrong"), ...pressed("enter")]) }))
    ))
})
