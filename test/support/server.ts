/**
 * One helper boots the whole app for tests: a fresh database, the real server layers, Node's HTTP server on a
 * random loopback port, an owner created by the bootstrap, and typed clients derived from the one `HttpApi`.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer } from "effect"
import { ServerLive } from "../../src/App.js"
import { GlossConfig } from "../../src/Config.js"
import { Api } from "../../src/contract/Api.js"
import { createStoppableServer } from "../../src/http/NodeServer.js"
import { LoggingLive } from "../../src/Logging.js"
import { type Dialect, freshDatabase } from "./databases.js"

export const OWNER = { username: "owner", password: "owner-password", apiKey: "owner.apikey.for.tests" } as const
export const AUTH_SECRET = "test-secret-key-with-enough-entropy-0123456789"

export interface TestServerShape {
  readonly dialect: Dialect
  readonly home: string
  /** `http://127.0.0.1:<port><base url>` */
  readonly url: string
  readonly env: Readonly<Record<string, string>>
}

export class TestServer extends Context.Tag("test/TestServer")<TestServer, TestServerShape>() {}

/**
 * How much test servers log: nothing by default, so that a green run is quiet (the failures tests provoke on
 * purpose — a receiver answering 410, workers meeting a database the test has dropped — are not news).
 * GLOSS_TEST_LOG_LEVEL=error (or debug) shows them when a test needs explaining.
 */
const LEVELS = ["debug", "info", "warning", "error", "none"] as const
const levelOf = (name: string | undefined): (typeof LEVELS)[number] => {
  const level = LEVELS.find((known) => known === (name ?? "none"))
  if (level === undefined) throw new Error(`GLOSS_TEST_LOG_LEVEL must be one of ${LEVELS.join(", ")}, not ${name}`)
  return level
}
export const TEST_LOG_LEVEL = levelOf(process.env.GLOSS_TEST_LOG_LEVEL)

/** A test server's environment on `database` (see freshDatabase), with the owner; `env` adds or overrides variables. */
export const testServerEnv = (database: { readonly env: Record<string, string> }, env: Record<string, string> = {}) => ({
  USERNAME: OWNER.username,
  PASSWORD: OWNER.password,
  API_KEY: OWNER.apiKey,
  GLOSS_AUTH_SECRET_KEY: AUTH_SECRET,
  // bcrypt's cheapest cost: tests create and sign in users by the hundred, and at the default each hash is tens of
  // milliseconds of CPU the suite shares on two cores. test/unit/passwords.test.ts covers the default cost.
  GLOSS_AUTH_PASSWORD_HASH_ROUNDS: "4",
  GLOSS_LOG_LEVEL: TEST_LOG_LEVEL,
  // Test servers never talk to the real Hub (the telemetry tests turn it back on against a fake one).
  HF_HUB_DISABLE_TELEMETRY: "1",
  ...database.env,
  ...env
})

/** The server on `dialect` with the owner bootstrapped, on a fresh database; `env` adds or overrides variables. */
export const TestServerLive = (dialect: Dialect, env: Record<string, string> = {}) =>
  Layer.unwrapScoped(Effect.map(freshDatabase(dialect), (database) => TestServerOn(dialect, testServerEnv(database, env))))

/** The server exactly as `env` configures it, on whatever database that names (for restarts on the same one). */
export const TestServerOn = (dialect: Dialect, env: Record<string, string>) => {
  const base = (env.GLOSS_BASE_URL ?? "").replace(/^\/+|\/+$/g, "")
  const server = Layer.effect(
    TestServer,
    Effect.map(HttpServer.HttpServer, (http) => {
      const address = http.address as HttpServer.TcpAddress
      const url = `http://127.0.0.1:${address.port}${base === "" ? "" : `/${base}`}`
      return { dialect, home: env.GLOSS_HOME_PATH ?? "", url, env }
    })
  )
  return server.pipe(
    Layer.provideMerge(ServerLive),
    Layer.provideMerge(NodeHttpServer.layer(createStoppableServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(GlossConfig.fromRecord(env)),
    Layer.provide(LoggingLive(TEST_LOG_LEVEL, "text")),
    Layer.provideMerge(FetchHttpClient.layer)
  )
}

/** A typed client that sends `apiKey` (none: anonymous) in `X-Gloss-Api-Key`. */
export const clientWith = (headers: Record<string, string>) =>
  Effect.flatMap(TestServer, ({ url }) =>
    HttpApiClient.make(Api, {
      baseUrl: url,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeaders(headers))
    }))

export const clientFor = (apiKey?: string) => clientWith(apiKey === undefined ? {} : { "X-Gloss-Api-Key": apiKey })

export const ownerClient = clientFor(OWNER.apiKey)

/**
 * Deletes the owner's workspaces (at start-up, the bootstrap's `default`, made because WORKSPACE is unset), for the
 * tests of a server where nobody has created a workspace yet.
 */
export const withoutWorkspaces = Effect.gen(function*() {
  const owner = yield* ownerClient
  for (const workspace of (yield* owner.me.workspaces()).items) yield* owner.workspaces.delete({ path: { id: workspace.id } })
})

/** A raw request, for what a typed client cannot send (malformed bodies, bad ids) and for exact bodies. */
export const raw = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(TestServer, ({ url }) =>
    Effect.promise(async () => {
      const response = await fetch(url + path, init)
      const text = await response.text()
      let body: unknown = text
      try {
        body = text === "" ? null : JSON.parse(text)
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, headers: response.headers, body, text }
    }))
