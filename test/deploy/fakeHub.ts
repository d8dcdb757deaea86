/**
 * A fake Hugging Face Hub on a random loopback port: it records every call and answers the deploy helper's
 * endpoints from a script (who the token belongs to, whether the Space exists, the runtime stages in order).
 * `DeployTest` puts the real `Hub` service in front of it, configured through a `ConfigProvider`.
 */
import { createServer } from "node:http"
import {
  FetchHttpClient,
  FileSystem,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse,
  Terminal
} from "@effect/platform"
import { NodeFileSystem, NodeHttpServer, NodePath } from "@effect/platform-node"
import { ConfigProvider, Context, Effect, Layer, Logger, Mailbox, Option, Queue, Ref } from "effect"
import { Hub } from "../../src/deploy/Hub.js"

export const HF_TOKEN = "hf_valid_test_token"

export interface HubCall {
  readonly method: string
  readonly path: string
  readonly authorization: string | undefined
  readonly body: unknown
}

export interface HubScript {
  /** The name whoami answers; default "alice". */
  readonly user?: string
  /** Every other bearer token is answered with 401. */
  readonly validToken?: string
  /** The Space ids that exist before the deploy. */
  readonly existing?: ReadonlyArray<string>
  /** The stages successive runtime reads answer; the last one repeats. Default: RUNNING. */
  readonly runtime?: ReadonlyArray<string>
  /** `"METHOD /path"` → the status that call answers with instead. */
  readonly failures?: Readonly<Record<string, number>>
}

export class FakeHub extends Context.Tag("test/FakeHub")<FakeHub, {
  readonly url: string
  readonly calls: Effect.Effect<ReadonlyArray<HubCall>>
  /** Where the Hub service looks for (and saves) the token file in this test. */
  readonly tokenPath: string
}>() {}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers })

const hubApp = (script: HubScript, calls: Ref.Ref<ReadonlyArray<HubCall>>, spaces: Ref.Ref<ReadonlySet<string>>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = new URL(request.url, "http://hub.test").pathname
    const body: unknown = request.method === "POST" ? yield* Effect.orElseSucceed(request.json, () => null) : null
    yield* Ref.update(calls, (all) => [...all, { method: request.method, path, authorization: request.headers.authorization, body }])
    if (request.headers.authorization !== `Bearer ${script.validToken ?? HF_TOKEN}`) {
      const message = "Invalid credentials in Authorization header"
      return json({ error: message }, 401, { "x-error-message": message })
    }
    const route = `${request.method} ${path}`
    const failure = script.failures?.[route]
    if (failure !== undefined) return json({ error: `scripted ${failure}` }, failure)
    const space = /^\/api\/spaces\/([^/]+\/[^/]+)(\/[a-z]+)?$/.exec(path)
    const id = space?.[1] ?? ""
    const exists = (yield* Ref.get(spaces)).has(id)
    const created = (repoId: string) =>
      Ref.modify(spaces, (set) => [set.has(repoId), new Set([...set, repoId])] as const).pipe(Effect.map((had) =>
        had
          ? json({ error: "You already created this space repo", url: `http://hub.test/spaces/${repoId}` }, 409)
          : json({ url: `http://hub.test/spaces/${repoId}` })
      ))
    if (route === "GET /api/whoami-v2") return json({ name: script.user ?? "alice", type: "user" })
    if (route === "POST /api/repos/create" && typeof body === "object" && body !== null) {
      const { name, organization } = body as { name: string; organization: string }
      return yield* created(`${organization}/${name}`)
    }
    if (space === null) return json({ error: "Not Found" }, 404)
    if (request.method === "GET" && space[2] === undefined) {
      return exists ? json({ id, sdk: "docker" }) : json({ error: "Repository not found" }, 404, {
        "x-error-code": "RepoNotFound"
      })
    }
    if (request.method === "POST" && space[2] === "/duplicate") {
      return yield* created((body as { repository: string }).repository)
    }
    if (request.method === "GET" && space[2] === "/runtime") {
      const runtime = script.runtime ?? ["RUNNING"]
      const reads = (yield* Ref.get(calls)).filter((c) => c.path === path && c.method === "GET").length
      return json({ stage: runtime[Math.min(reads, runtime.length) - 1], hardware: { current: "cpu-basic" } })
    }
    if (request.method === "POST" && space[2] === "/restart") return json({ stage: "BUILDING" })
    if (request.method === "POST" && space[2] === "/secrets") return HttpServerResponse.empty()
    return json({ error: "Not Found" }, 404)
  })

export const FakeHubLive = (script: HubScript = {}): Layer.Layer<FakeHub> =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const calls = yield* Ref.make<ReadonlyArray<HubCall>>([])
    const spaces = yield* Ref.make<ReadonlySet<string>>(new Set(script.existing ?? []))
    const home = yield* Effect.orDie(Effect.flatMap(FileSystem.FileSystem, (fs) => fs.makeTempDirectoryScoped()))
    const fake = Layer.effect(
      FakeHub,
      Effect.map(HttpServer.HttpServer, (server) => {
        const address = server.address as HttpServer.TcpAddress
        return { url: `http://127.0.0.1:${address.port}`, calls: Ref.get(calls), tokenPath: `${home}/hf/token` }
      })
    )
    return Layer.merge(fake, HttpServer.serve(hubApp(script, calls, spaces))).pipe(
      Layer.provide(Layer.orDie(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })))
    )
  })).pipe(Layer.provide(NodeFileSystem.layer))

/** What a person types at the terminal: characters, then a named key such as "enter" or "backspace". */
export const typed = (text: string): ReadonlyArray<Terminal.UserInput> =>
  [...text].map((c) => ({ input: Option.some(c), key: key(c) }))
export const pressed = (name: string, times = 1): ReadonlyArray<Terminal.UserInput> =>
  Array.from({ length: times }, () => ({ input: Option.none(), key: key(name) }))

const key = (name: string) => ({ name, ctrl: false, meta: false, shift: false })

/** A terminal nobody sits at, or one where `inputs` are entered; input then ends, as a closed stdin does. */
export const fakeTerminal = (isTTY: boolean, inputs: ReadonlyArray<Terminal.UserInput> = []) =>
  Layer.succeed(
    Terminal.Terminal,
    Terminal.Terminal.of({
      columns: Effect.succeed(80),
      rows: Effect.succeed(24),
      isTTY: Effect.succeed(isTTY),
      readInput: Effect.gen(function*() {
        const mailbox = yield* Mailbox.make<Terminal.UserInput>()
        yield* mailbox.offerAll(inputs)
        yield* mailbox.end
        return mailbox
      }),
      readLine: Effect.succeed(""),
      display: () => Effect.void
    })
  )

/** The real `Hub` in front of the fake one; `env` adds Hugging Face variables (HF_TOKEN, HF_TOKEN_PATH, …). */
export const DeployTest = (
  script: HubScript = {},
  options: { readonly env?: Record<string, string>; readonly terminal?: Layer.Layer<Terminal.Terminal> } = {}
): Layer.Layer<Hub | FakeHub> =>
  Layer.unwrapEffect(Effect.map(FakeHub, ({ tokenPath, url }) => {
    const env = { HF_ENDPOINT: url, HF_TOKEN_PATH: tokenPath, ...options.env }
    return Hub.DefaultWithoutDependencies.pipe(
      Layer.provide([FetchHttpClient.layer, NodeFileSystem.layer, NodePath.layer, options.terminal ?? fakeTerminal(false)]),
      Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))),
      Layer.orDie
    )
  })).pipe(Layer.provideMerge(FakeHubLive(script)))

/** Every log line of the effects it is added to, as `LEVEL message`, in order. */
export const captureLogs = Effect.map(Queue.unbounded<string>(), (lines) => ({
  lines,
  logger: Logger.add(Logger.make(({ logLevel, message }) => {
    const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
    Queue.unsafeOffer(lines, `${logLevel.label} ${text}`)
  })),
  all: Queue.takeAll(lines).pipe(Effect.map((chunk) => Array.from(chunk)))
}))
