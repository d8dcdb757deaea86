/**
 * The request-body limit (`GLOSS_MAX_REQUEST_BODY_MB`), answered with 413 rather than a dropped connection.
 *
 * A body that declares its length is refused before it is read. A chunked body (no length) is read here, up to the
 * limit: @effect/platform's own limit destroys the socket when it trips, so the client would never see the 413.
 * Past the limit the rest is drained and discarded (up to a bound, then the connection is closed), and a request
 * within it continues with the bytes already read.
 */
import type { IncomingMessage } from "node:http"
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Option, Stream } from "effect"

/** How much of an oversized chunked body we are willing to drain to keep the connection usable. */
const DRAIN_FACTOR = 4

const readLimited = (incoming: IncomingMessage, maxBytes: number): Effect.Effect<Option.Option<Buffer>> =>
  Effect.async((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    incoming.on("data", (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes <= maxBytes) chunks.push(chunk)
      else if (bytes > maxBytes * DRAIN_FACTOR) incoming.destroy()
    })
    incoming.once("end", () => resume(Effect.succeed(bytes <= maxBytes ? Option.some(Buffer.concat(chunks)) : Option.none())))
    incoming.once("error", () => resume(Effect.succeed(Option.none())))
  })

/** The same request, its body served from `body` instead of the socket. */
const withBody = (request: HttpServerRequest.HttpServerRequest, body: Buffer): HttpServerRequest.HttpServerRequest => {
  const text = body.toString("utf8")
  const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
  // Delegate everything else (headers, url, cookies, json, urlParamsBody — which read `this.text`) to the original.
  return Object.create(request, {
    text: { value: Effect.succeed(text) },
    arrayBuffer: { value: Effect.succeed(bytes.slice().buffer) },
    stream: { value: Stream.make(bytes) }
  })
}

export const limitBody = (maxBytes: number, tooLarge: HttpServerResponse.HttpServerResponse) =>
<E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const declared = request.headers["content-length"]
    if (declared !== undefined) return Number(declared) > maxBytes ? Effect.succeed(tooLarge) : app
    if (request.headers["transfer-encoding"] === undefined) return app
    return Effect.flatMap(readLimited(NodeHttpServerRequest.toIncomingMessage(request), maxBytes), (body) =>
      Option.match(body, {
        onNone: () => Effect.succeed(tooLarge),
        onSome: (buffer) => Effect.provideService(app, HttpServerRequest.HttpServerRequest, withBody(request, buffer))
      }))
  })
