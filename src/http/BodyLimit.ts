/**
 * The limits on request bodies: their size (`GLOSS_MAX_REQUEST_BODY_MB`), answered with 413 rather than a dropped
 * connection, how deep their JSON nests (`MAX_BODY_DEPTH`), and their encoding: UTF-8, with well-formed text (no lone
 * surrogate escapes, `WellFormedText.ts`), both answered with 422 (by `ErrorResponses`).
 *
 * A body that declares its length is refused before it is read. A chunked body (no length) is read here, up to the
 * limit: @effect/platform's own limit destroys the socket when it trips, so the client would never see the 413.
 * Past the limit the rest is drained and discarded (up to a bound, then the connection is closed), and a request
 * within it continues with the bytes already read.
 *
 * Either way the body's text is served from its bytes, checked to be UTF-8 first: @effect/platform decodes the
 * socket as UTF-8 and silently turns bytes that are not into U+FFFD, which would then be stored as if sent.
 *
 * JSON nesting is counted on the text, before `JSON.parse`: a body nested 100 000 levels deep parses, but then
 * overflows the stack of whatever walks it recursively (schema error messages, `JSON.stringify`, validators).
 */
import { isUtf8 } from "node:buffer"
import type { IncomingMessage } from "node:http"
import { HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Option, Stream } from "effect"
import { scanJson } from "../codecs/jsonScan.js"
import { refuseIllFormed } from "./WellFormedText.js"

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

/** Why a body was refused before parsing; `ErrorResponses` answers it with 422. */
export class BodyNotUtf8 extends Error {
  constructor() {
    super("The request body is not valid UTF-8")
  }
}

/** `request.json` as @effect/platform reads it, refusing too deep a body before parsing it and ill-formed text after. */
const readJson = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(request.text, (text) =>
    Effect.try({
      try: () => {
        const scan = scanJson(text, MAX_BODY_DEPTH)
        if (scan.tooDeep) throw new BodyTooDeep()
        if (text === "") return null
        const value: unknown = JSON.parse(text)
        if (scan.loneSurrogate) refuseIllFormed(value)
        return value
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

// A getter, so that it reads the `text` of the request it ends up on.
const limitedJson: PropertyDescriptor = {
  get(this: HttpServerRequest.HttpServerRequest) {
    return readJson(this)
  }
}

/**
 * `effect` run once, when first asked for; later (and concurrent) askers get its result. `Effect.cached`, made
 * when asked for rather than by an `Effect.runSync` a request: this runs on every request with a body.
 */
const once = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> => {
  let shared: Effect.Effect<A, E> | undefined
  return Effect.suspend(() => shared ?? Effect.flatMap(Effect.cached(effect), (cached) => (shared ??= cached)))
}

/**
 * The same request, its body served from the bytes `read` gives (read once, when first asked for): `text` only if
 * they are UTF-8, `json` as `readJson` reads it. Everything else (headers, url, cookies, `urlParamsBody`, which reads
 * `this.text`) is the original's; `multipart` still reads the socket, so a form upload is not read twice.
 */
const withBody = (
  request: HttpServerRequest.HttpServerRequest,
  read: Effect.Effect<Buffer, HttpServerError.RequestError>
): HttpServerRequest.HttpServerRequest => {
  const bytes = once(read)
  const text = once(Effect.flatMap(bytes, (body) =>
    isUtf8(body)
      ? Effect.succeed(body.toString("utf8"))
      : Effect.fail(new HttpServerError.RequestError({ request, reason: "Decode", cause: new BodyNotUtf8() }))))
  const array = Effect.map(bytes, (body) => new Uint8Array(body.buffer, body.byteOffset, body.byteLength))
  return overriding(request, {
    json: limitedJson,
    text: { value: text },
    arrayBuffer: { value: Effect.map(array, (view) => view.slice().buffer) },
    stream: { value: Stream.fromEffect(array) }
  })
}

const tooLargeError = (request: HttpServerRequest.HttpServerRequest) =>
  new HttpServerError.RequestError({ request, reason: "Decode", cause: new Error("maxBytes exceeded") })

export const limitBody = (maxBytes: number, tooLarge: HttpServerResponse.HttpServerResponse) =>
<E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const declared = request.headers["content-length"]
    if (declared !== undefined) {
      if (Number(declared) > maxBytes) return Effect.succeed(tooLarge)
      if (declared === "0") return app
      // Read when the endpoint asks for it (never, for a request refused before its body matters).
      const read = Effect.flatMap(
        readLimited(NodeHttpServerRequest.toIncomingMessage(request), maxBytes),
        Option.match({ onNone: () => Effect.fail(tooLargeError(request)), onSome: Effect.succeed })
      )
      return Effect.provideService(app, HttpServerRequest.HttpServerRequest, withBody(request, read))
    }
    if (request.headers["transfer-encoding"] === undefined) return app
    return Effect.flatMap(readLimited(NodeHttpServerRequest.toIncomingMessage(request), maxBytes), (body) =>
      Option.match(body, {
        onNone: () => Effect.succeed(tooLarge),
        onSome: (buffer) =>
          Effect.provideService(app, HttpServerRequest.HttpServerRequest, withBody(request, Effect.succeed(buffer)))
      }))
  })
