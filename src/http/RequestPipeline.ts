/**
 * What happens to every request around the API itself: `X-Content-Type-Options: nosniff` on every answer (a browser
 * must never read an answer as another type than it declares, say a JSON answer that echoes a client's text as HTML),
 * CORS, a 415 for a body the endpoint cannot read (`MediaType.ts`), the body limits (`BodyLimit.ts`), JSON for unknown
 * routes (404) and wrong methods (405), and one log line per request. Kept cheap on purpose: the request logger that
 * ships with @effect/platform costs about a third of the throughput of a small endpoint (`npm run bench -- me`
 * compares Gloss with a bare Effect server).
 */
import {
  HttpApp,
  HttpMiddleware,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Cause, Context, Effect, Exit, Option } from "effect"
import type { GlossConfigShape } from "../Config.js"
import { limitBody } from "./BodyLimit.js"
import { checkMediaType } from "./MediaType.js"
import { pathOf, routePath, unrouted } from "./Routes.js"

type Middleware = <E, R>(app: HttpApp.Default<E, R>) => HttpApp.Default<E, R>

/** `*` matches one DNS label or more: `https://*.example.com` allows `https://app.example.com`. */
const originMatcher = (patterns: ReadonlyArray<string>) => {
  if (patterns.includes("*")) return () => true
  const regexes = patterns.map((pattern) =>
    new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, "\\$&")).join("[^/]+")}$`)
  )
  return (origin: string) => regexes.some((regex) => regex.test(origin))
}

/**
 * Set as a pre-response handler, so that it also reaches the answers the server makes from failures that no
 * middleware turned into a response.
 */
const noSniffing = HttpApp.appendPreResponseHandler((_, response) =>
  Effect.succeed(HttpServerResponse.setHeader(response, "x-content-type-options", "nosniff"))
)

export const requestPipeline = (config: GlossConfigShape) => {
  const logRequests = accessLog(config)
  const baseUrl = config.server.baseUrl
  const maxBytes = config.server.maxBodyMegabytes * 1024 * 1024
  const tooLarge = HttpServerResponse.unsafeJson(
    { detail: `The request body is larger than ${config.server.maxBodyMegabytes} MB (GLOSS_MAX_REQUEST_BODY_MB)` },
    { status: 413 }
  )
  // Unset: no cross-origin access at all (the web UI is served from the same origin).
  const cors: Middleware = Option.match(config.server.corsOrigins, {
    onNone: (): Middleware => (app) => app,
    onSome: (origins) =>
      HttpMiddleware.cors({
        allowedOrigins: originMatcher(origins),
        allowedHeaders: ["content-type", "authorization", "x-gloss-api-key", "x-argilla-api-key"],
        credentials: true,
        maxAge: 600
      })
  })

  return <E, R>(app: HttpApp.Default<E, R>) => {
    const routed = app.pipe(
      Effect.catchAll((error) =>
        HttpServerError.isServerError(error) && error._tag === "RouteNotFound"
          ? Effect.map(HttpServerRequest.HttpServerRequest, (request) => unrouted(request.method, routePath(request.url, baseUrl)))
          : Effect.fail(error)
      ),
      // A second line of defence; `limitBody` has already refused what is over the limit.
      HttpServerRequest.withMaxBodySize(Option.some(maxBytes))
    )
    return Effect.zipRight(noSniffing, logRequests(cors(checkMediaType(baseUrl)(limitBody(maxBytes, tooLarge)(routed)))))
  }
}

/**
 * One line per request: method, path (never the query string, which can carry OAuth codes), status, duration.
 * This is an access log, written apart from Effect's logger and in batches (one write per turn of the event loop):
 * going through `Effect.log` for every request cost about a quarter of the throughput of `GET /me`.
 */
const accessLog = (config: GlossConfigShape) => {
  const enabled = config.server.logLevel === "debug" || config.server.logLevel === "info"
  const json = config.server.logFormat === "json"
  let pending: Array<string> = []
  const flush = () => {
    const lines = pending
    pending = []
    process.stdout.write(lines.join(""))
  }
  const write = (method: string, url: string, status: number, millis: number) => {
    const time = new Date().toISOString()
    const path = pathOf(url)
    const duration = millis.toFixed(1)
    pending.push(
      json
        ? JSON.stringify({ time, level: "INFO", message: "request", method, path, status, duration_ms: Number(duration) }) +
          "\n"
        : `${time} INFO  ${method} ${path} ${status} ${duration}ms\n`
    )
    if (pending.length === 1) setImmediate(flush)
  }
  return <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
    enabled
      ? Effect.withFiberRuntime((fiber) => {
        const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
        const started = performance.now()
        return Effect.onExit(app, (exit) =>
          Effect.sync(() => {
            const status = Exit.isSuccess(exit) ? exit.value.status : Cause.isInterruptedOnly(exit.cause) ? 499 : 500
            write(request.method, request.url, status, performance.now() - started)
          }))
      })
      : app
}
