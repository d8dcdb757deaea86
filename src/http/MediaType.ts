/**
 * A body of a media type its endpoint does not read is refused with 415 before anything reads it. JSON endpoints
 * read JSON (or a body without a content type, as FastAPI does); form endpoints (`POST /token`) read forms. Parsing
 * another body anyway failed deep inside the framework (a multipart body without a boundary was a 500) or, worse,
 * succeeded: a multipart body was written to temporary files, then decoded as if it were the JSON payload.
 */
import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { bodyAt, routePath } from "./Routes.js"

const unsupported = (detail: string) => HttpServerResponse.unsafeJson({ detail }, { status: 415 })
const jsonOnly = unsupported("Unsupported Media Type: send the request body as application/json")
const formOnly = unsupported(
  "Unsupported Media Type: send the request body as application/x-www-form-urlencoded or multipart/form-data"
)
const noBoundary = unsupported("Unsupported Media Type: multipart/form-data needs a boundary parameter")

/** The answer to a body that its endpoint cannot read, if it is one. */
const refusedBody = (request: HttpServerRequest.HttpServerRequest, baseUrl: string) => {
  const { headers } = request
  const contentType = headers["content-type"]?.toLowerCase()
  if (contentType === undefined || contentType === "" || contentType.includes("application/json")) return undefined
  const length = headers["content-length"]
  if ((length === undefined || length === "0") && headers["transfer-encoding"] === undefined) return undefined
  const path = routePath(request.url, baseUrl)
  switch (path === undefined ? undefined : bodyAt(request.method, path)) {
    case "json":
      return jsonOnly
    case "form":
      if (contentType.includes("application/x-www-form-urlencoded")) return undefined
      if (!contentType.includes("multipart/form-data")) return formOnly
      return /;\s*boundary=/.test(contentType) ? undefined : noBoundary
    default:
      // No such endpoint (404 or 405 follows), or one that reads no body.
      return undefined
  }
}

/** Refuses, before anything reads it, a body that the endpoint cannot read. */
export const checkMediaType = (baseUrl: string) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const refused = refusedBody(request, baseUrl)
    return refused === undefined ? app : Effect.succeed(refused)
  })
