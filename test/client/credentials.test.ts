/**
 * `fromCredentials` and its order (argument, environment, then the stored file only while the URL or
 * the key is missing, keeping values already set), extra headers on every request, the preferred workspace, and
 * `gloss login` / `gloss logout` writing and removing the file.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Command } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import { vi } from "vitest"
import { loginCommand, logoutCommand } from "../../src/cli/LoginCommand.js"
import { Client, GlossClient } from "../../src/client/index.js"
import { publishedDataset } from "../support/datasets.js"
import { workspace } from "../support/fixtures.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { stubServer } from "./support.js"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "gloss-credentials-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

const withEnv = (entries: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(entries))))

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

const store = (dir: string, credentials: Record<string, unknown>) =>
  fs.writeFileSync(path.join(dir, "credentials.json"), JSON.stringify(credentials))

describe("fromCredentials: argument, environment, stored file", () => {
  it.live("argument, then environment; the file is not read when both URL and key are known", () =>
    Effect.scoped(Effect.gen(function*() {
      const dir = yield* tempDir
      const envServer = yield* stubServer()
      const fileServer = yield* stubServer()
      store(dir, { api_url: fileServer.url, api_key: "file-key", workspace: "file-ws", extra_headers: { "X-File": "1" } })
      const env = { GLOSS_CACHE_DIR: dir, GLOSS_API_URL: envServer.url, GLOSS_API_KEY: "env-key", GLOSS_WORKSPACE: "env-ws" }

      const fromEnv = yield* GlossClient.fromCredentials().pipe(withEnv(env))
      expect(fromEnv.workspace).toEqual(Option.some("env-ws"))
      expect(envServer.requests[0]?.headers).toMatchObject({ "x-gloss-api-key": "env-key" })
      expect(envServer.requests[0]?.headers["x-file"]).toBeUndefined()

      const fromArgs = yield* GlossClient.fromCredentials({ apiKey: "arg-key", workspace: "arg-ws" }).pipe(withEnv(env))
      expect(fromArgs.workspace).toEqual(Option.some("arg-ws"))
      expect(envServer.requests[1]?.headers["x-gloss-api-key"]).toBe("arg-key")
      expect(fileServer.requests).toEqual([])
    })))

  it.live("a missing key is read from the file; the URL and workspace already set are kept", () =>
    Effect.scoped(Effect.gen(function*() {
      const dir = yield* tempDir
      const envServer = yield* stubServer()
      store(dir, {
        api_url: "http://127.0.0.1:9/not-this",
        api_key: "file-key",
        workspace: "file-ws",
        extra_headers: { "X-File": "from-file", "X-Other": "2" }
      })
      const client = yield* GlossClient.fromCredentials({ workspace: "arg-ws" }).pipe(
        withEnv({ GLOSS_CACHE_DIR: dir, GLOSS_API_URL: envServer.url })
      )
      expect(client.apiUrl).toBe(envServer.url)
      expect(client.workspace).toEqual(Option.some("arg-ws"))
      expect(envServer.requests[0]?.headers).toMatchObject({ "x-gloss-api-key": "file-key", "x-file": "from-file" })

      // Extra headers given as an argument are kept too (and sent on every request).
      yield* GlossClient.fromCredentials({ extraHeaders: { "X-Arg": "a" } }).pipe(
        withEnv({ GLOSS_CACHE_DIR: dir, GLOSS_API_URL: envServer.url })
      )
      expect(envServer.requests[1]?.headers).toMatchObject({ "x-arg": "a", "x-gloss-api-key": "file-key" })
      expect(envServer.requests[1]?.headers["x-file"]).toBeUndefined()
    })))

  it.live("with nothing else set, everything comes from the file; without a file the key is missing", () =>
    Effect.scoped(Effect.gen(function*() {
      const dir = yield* tempDir
      const fileServer = yield* stubServer()
      expect((yield* Effect.flip(GlossClient.fromCredentials().pipe(withEnv({ GLOSS_CACHE_DIR: dir }))))._tag)
        .toBe("MissingApiKey")
      store(dir, { api_url: fileServer.url, api_key: "file-key", workspace: "file-ws", extra_headers: { "X-File": "1" } })
      const client = yield* GlossClient.fromCredentials().pipe(withEnv({ GLOSS_CACHE_DIR: dir }))
      expect(client.workspace).toEqual(Option.some("file-ws"))
      const workspaces = yield* client.workspaces.list()
      expect(workspaces).toEqual([])
      for (const request of fileServer.requests) {
        expect(request.headers).toMatchObject({ "x-gloss-api-key": "file-key", "x-file": "1" })
      }
      fs.writeFileSync(path.join(dir, "credentials.json"), "{not json")
      expect((yield* Effect.flip(GlossClient.fromCredentials().pipe(withEnv({ GLOSS_CACHE_DIR: dir }))))._tag)
        .toBe("CredentialsFileError")
    })))

  it.live("the Promise form reads the same file (GLOSS_CACHE_DIR from the process environment)", () =>
    Effect.scoped(Effect.gen(function*() {
      const dir = yield* tempDir
      const fileServer = yield* stubServer()
      store(dir, { api_url: fileServer.url, api_key: "file-key", workspace: null, extra_headers: { "X-File": "p" } })
      const saved = { ...process.env }
      yield* Effect.addFinalizer(() => Effect.sync(() => { process.env = saved }))
      process.env.GLOSS_CACHE_DIR = dir
      delete process.env.GLOSS_API_URL
      delete process.env.GLOSS_API_KEY
      delete process.env.GLOSS_WORKSPACE
      const client = yield* Effect.promise(() => Client.fromCredentials())
      expect((yield* Effect.promise(() => client.me)).username).toBe("stub")
      expect(fileServer.requests[0]?.headers).toMatchObject({ "x-gloss-api-key": "file-key", "x-file": "p" })
      yield* Effect.promise(() => client.close())
    })))
})

const cli = Command.make("gloss").pipe(Command.withSubcommands([loginCommand, logoutCommand]))
const gloss = (dir: string, ...args: ReadonlyArray<string>) =>
  Command.run(cli, { name: "gloss", version: "test" })(["node", "gloss", ...args]).pipe(
    withEnv({ GLOSS_CACHE_DIR: dir }),
    Effect.provide(NodeContext.layer)
  )

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 60_000 })("with a server", (it) => {
  it.scoped("the resolved workspace is the default for dataset lookups, before workspaces.default", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      yield* workspace()
      const team = yield* workspace()
      const dataset = yield* publishedDataset(team)
      const client = yield* GlossClient.fromCredentials({ apiUrl: url, apiKey: OWNER.apiKey, workspace: team.name })
      expect(Option.map(yield* client.datasets({ name: dataset.name }), (d) => d.id)).toEqual(Option.some(dataset.id))
      expect((yield* client.workspaces.default).id).not.toBe(team.id)
    }))

  it.scoped("gloss login checks the key, then writes the file (0600); gloss logout removes it", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const dir = yield* tempDir
      const file = path.join(dir, "credentials.json")
      const log = vi.spyOn(console, "log").mockImplementation(() => undefined)
      yield* Effect.addFinalizer(() => Effect.sync(() => log.mockRestore()))

      const wrongKey = yield* Effect.flip(gloss(dir, "login", "--api-url", url, "--api-key", "wrong-key-123"))
      expect(messageOf(wrongKey)).toBe(`Could not login to '${url}' using the provided credentials.`)
      const badHeaders = yield* Effect.flip(
        gloss(dir, "login", "--api-url", url, "--api-key", OWNER.apiKey, "--extra-headers", "{nope")
      )
      expect(messageOf(badHeaders)).toContain("The provided extra headers are not a valid JSON object")
      expect(fs.existsSync(file)).toBe(false)

      yield* gloss(
        dir,
        "login",
        "--api-url",
        url,
        "--api-key",
        OWNER.apiKey,
        "--workspace",
        "team",
        "--extra-headers",
        `{"X-Proxy":"p"}`
      )
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({
        api_url: url,
        api_key: OWNER.apiKey,
        workspace: "team",
        extra_headers: { "X-Proxy": "p" }
      })
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      expect(log.mock.calls.flat().join("\n")).toContain(`Logged in successfully to '${url}' as ${OWNER.username}`)

      const client = yield* GlossClient.fromCredentials().pipe(withEnv({ GLOSS_CACHE_DIR: dir }))
      expect(client.workspace).toEqual(Option.some("team"))
      expect((yield* client.me).username).toBe(OWNER.username)

      yield* gloss(dir, "logout")
      expect(fs.existsSync(file)).toBe(false)
      const again = yield* Effect.flip(gloss(dir, "logout"))
      expect(messageOf(again)).toContain("You are not logged in")
    }))

  it.scoped("--help describes both commands", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const log = vi.spyOn(console, "log").mockImplementation(() => undefined)
      yield* Effect.addFinalizer(() => Effect.sync(() => log.mockRestore()))
      yield* gloss(dir, "login", "--help")
      yield* gloss(dir, "logout", "--help")
      const help = log.mock.calls.flat().join("\n")
      expect(help).toContain("--api-url")
      expect(help).toContain("--extra-headers")
      expect(help).toContain("Remove the credentials saved by 'gloss login'.")
    }))
})
