/**
 * Helpers for the client tests: capturing logs, a small `node:http` server standing in for Gloss where the point is
 * the transport (delays, resets, headers), free ports, and a recording `transformClient`.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http"
import { HttpClient, type HttpClientRequest } from "@effect/platform"
import { Effect, Either, FiberRef, HashSet, Logger, LogLevel, type Scope } from "effect"
import { GlossClient } from "../../src/client/index.js"
import { OWNER, TestServer } from "../support/server.js"

/** Runs `effect` with a logger that keeps every line as `LEVEL message`. */
export const withLogs = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      const parts: ReadonlyArray<unknown> = Array.isArray(message) ? message : [message]
      lines.push(`${logLevel.label} ${parts.map(String).join(" ")}`)
    })
    // Only this logger, at every level: the test server's layer sets the minimum to error for what it runs.
    const result = yield* Effect.either(effect.pipe(
      Logger.withMinimumLogLevel(LogLevel.Debug),
      Effect.locally(FiberRef.currentLoggers, HashSet.make(logger))
    ))
    return { result, lines, warnings: lines.filter((line) => line.startsWith("WARN ")).map((line) => line.slice(5)) }
  })

/** The value of `withLogs`'s result, failing the test when it is an error. */
export const valueOf = <A, E>(result: Either.Either<A, E>): A =>
  Either.getOrThrowWith(result, (error) => new Error(`expected a success, got ${String(error)}`))

/** A client of the test server, as the owner (scoped: the default client while the test runs). */
export const ownerGloss = (options: Parameters<typeof GlossClient.make>[0] = {}) =>
  Effect.flatMap(TestServer, ({ url }) => GlossClient.make({ apiUrl: url, apiKey: OWNER.apiKey, ...options }))

export interface SeenRequest {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  /** The raw body, as received. */
  readonly body: string
}

export interface StubServer {
  readonly url: string
  readonly port: number
  readonly requests: ReadonlyArray<SeenRequest>
}

/** What `GET /api/v1/me` answers on the stub: a valid user, so that a client can be made against it. */
export const STUB_USER = {
  id: "00000000-0000-4000-8000-0000000000aa",
  first_name: "Stub",
  last_name: null,
  username: "stub",
  role: "owner",
  api_key: "stub-key",
  inserted_at: "2024-01-01T00:00:00",
  updated_at: "2024-01-01T00:00:00"
}

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

/** The stub's default answers: `me`, and empty lists for the collections. */
export const stubGloss = (res: ServerResponse, _n: number, request: SeenRequest) =>
  request.url === "/api/v1/me" ? json(res, 200, STUB_USER) : json(res, 200, { items: [] })

const portOf = (server: Server) => {
  const address = server.address()
  return typeof address === "object" && address !== null ? address.port : 0
}

/** A loopback server on `port` (0: any) answering with `handle`, which gets the request's number (from 1). */
export const stubServer = (
  handle: (res: ServerResponse, n: number, request: SeenRequest) => void = stubGloss,
  port = 0
): Effect.Effect<StubServer, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.async<{ readonly stub: StubServer; readonly server: Server }>((resume) => {
        const requests: Array<SeenRequest> = []
        const server = createServer((req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (chunk: Buffer) => chunks.push(chunk))
          req.on("end", () => {
            const body = Buffer.concat(chunks).toString("utf8")
            const seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body }
            requests.push(seen)
            handle(res, requests.length, seen)
          })
        })
        server.listen(port, "127.0.0.1", () => {
          const bound = portOf(server)
          resume(Effect.succeed({ stub: { url: `http://127.0.0.1:${bound}`, port: bound, requests }, server }))
        })
      }),
      ({ server }) =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    ),
    ({ stub }) => stub
  )

/** A port nothing listens on (it was free a moment ago). */
export const freePort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const port = portOf(server)
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** A `transformClient` that keeps every request that reaches the network (each retry included). */
export const recording = () => {
  const sent: Array<HttpClientRequest.HttpClientRequest> = []
  const transformClient = (client: HttpClient.HttpClient) =>
    HttpClient.tapRequest(client, (request) => Effect.sync(() => sent.push(request)))
  return { sent, transformClient }
}

/** The JSON body of a recorded request. */
export const bodyOf = (request: HttpClientRequest.HttpClientRequest): unknown =>
  request.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(request.body.body)) : undefined
