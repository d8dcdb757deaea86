/**
 * The limits on request bodies: their size (`GLOSS_MAX_REQUEST_BODY_MB`), answered with 413 rather than a dropped
 * connection, and how deep their JSON nests (`MAX_BODY_DEPTH`), answered with 422 (by `ErrorResponses`).
 *
 * A body that declares its length is refused before it is read. A chunked body (no length) is read here, up to the
 * limit: @effect/platform's own limit destroys the socket when it trips, so the client would never see the 413.
 * Past the limit the rest is drained and discarded (up to a bound, then the connection is closed), and a request
 * within it continues with the bytes already read.
 *
 * JSON nesting is counted on the text, before `JSON.parse`: a body nested 100 000 levels deep parses, but then
 * overflows the stack of whatever walks it recursively (schema error messages, `JSON.stringify`, validators).
 */
import type { IncomingMessage } from "node:http"
import { HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
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

/**
 * How deep a request body's JSON may nest: the stored values' own limit (`MAX_JSON_DEPTH`, checked by the schemas,
 * which name the key) plus room for the envelopes around them (`{"items": [{"responses": [{"values": …`).
 */
export const MAX_BODY_DEPTH = 64

/** Why a body was refused before parsing; `ErrorResponses` answers it with 422. */
export class BodyTooDeep extends Error {
  constructor() {
    super(`The request body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep`)
  }
}

/** Whether JSON text opens more than `max` objects and arrays inside one another (brackets in strings do not count). */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // Skip the string: to the next quote that no backslash escapes.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    }
  }
  return false
}

/** `request.json` as @effect/platform reads it, refusing too deep a body before parsing it. */
const readJson = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(request.text, (text) =>
    Effect.try({
      try: () => {
        if (nestsDeeperThan(text, MAX_BODY_DEPTH)) throw new BodyTooDeep()
        return text === "" ? null : JSON.parse(text) as unknown
      },
      catch: (cause) => new HttpServerError.RequestError({ request, reason: "Decode", cause })
    }))

/**
 * `request` with some members replaced. `modify` (the router uses it to mount the app under `GLOSS_BASE_URL`) makes
 * a new request from the socket, so it is replaced too: the copy keeps the replacements.
 */
const overriding = (
  request: HttpServerRequest.HttpServerRequest,
  members: PropertyDescriptorMap
): HttpServerRequest.HttpServerRequest =>
  Object.create(request, {
    ...members,
    modify: {
      value: (options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]) =>
        overriding(request.modify(options), members)
    }
  })

// A getter, so that it reads the `text` of the request it ends up on (the body already read, for a chunked one).
const limitedJson: PropertyDescriptorMap = {
  json: {
    get(this: HttpServerRequest.HttpServerRequest) {
      return readJson(this)
    }
  }
}

/** The same request, its body served from `body` instead of the socket. */
const withBody = (request: HttpServerRequest.HttpServerRequest, body: Buffer): HttpServerRequest.HttpServerRequest => {
  const text = body.toString("utf8")
  const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
  // Delegate everything else (headers, url, cookies, urlParamsBody — which read `this.text`) to the original.
  return overriding(request, {
    ...limitedJson,
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
    if (declared !== undefined) {
      if (Number(declared) > maxBytes) return Effect.succeed(tooLarge)
      return declared === "0" ? app : Effect.provideService(app, HttpServerRequest.HttpServerRequest, overriding(request, limitedJson))
    }
    if (request.headers["transfer-encoding"] === undefined) return app
    return Effect.flatMap(readLimited(NodeHttpServerRequest.toIncomingMessage(request), maxBytes), (body) =>
      Option.match(body, {
        onNone: () => Effect.succeed(tooLarge),
        onSome: (buffer) => Effect.provideService(app, HttpServerRequest.HttpServerRequest, withBody(request, buffer))
      }))
  })
