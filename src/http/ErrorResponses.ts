/**
 * Turns failures that no handler declares into the contract's bodies (Argilla's error shapes): a request that does not
 * match its schema → 422 (FastAPI's shape, not Effect's 400), malformed JSON, JSON nested too deep, a body that is not
 * UTF-8, text with a lone surrogate or a malformed form → 422, a body over the limit → 413, text PostgreSQL cannot
 * store (NUL) → 422, a locked database → 503, anything unexpected → 500 with the cause logged and no internals in the
 * body.
 */
import { HttpApiBuilder, HttpApiError, HttpServerError, Multipart } from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import {
  InternalServerError,
  PayloadTooLarge,
  ServiceUnavailable,
  ValidationError,
  type ValidationIssue
} from "../domain/Errors.js"
import { DatabaseLocked, isBusy, isUnstorableText } from "../services/database/errors.js"
import { Api } from "../contract/Api.js"
import { BodyNotUtf8, BodyTooDeep } from "./BodyLimit.js"
import { laxErrorType } from "./Lax.js"
import { IllFormedText } from "./WellFormedText.js"

const issueType = (tag: string, message: string): string => {
  // The lax readings of numbers and booleans fail with pydantic's messages; their pydantic types go with them.
  const lax = laxErrorType(message)
  if (lax !== undefined) return lax
  switch (tag) {
    case "Missing":
      return "missing"
    case "Unexpected":
      return "extra_forbidden"
    default:
      return "value_error"
  }
}

export const toValidationError = (error: HttpApiError.HttpApiDecodeError): ValidationError =>
  new ValidationError({
    errors: error.issues.map((issue): ValidationIssue => ({
      loc: issue.path.map((key) => (typeof key === "number" ? key : String(key))),
      msg: issue.message,
      type: issueType(issue._tag, issue.message)
    }))
  })

const isBodyTooLarge = (error: HttpServerError.RequestError) =>
  error.cause instanceof Error && error.cause.message === "maxBytes exceeded"

const badBody = (msg: string, type: string) => new ValidationError({ errors: [{ loc: ["body"], msg, type }] })

/** Why a body could not be read, when it was the client's doing. */
const unreadableBody = (error: HttpServerError.RequestError): PayloadTooLarge | ValidationError => {
  if (isBodyTooLarge(error)) {
    return new PayloadTooLarge({ detail: "The request body is larger than GLOSS_MAX_REQUEST_BODY_MB allows" })
  }
  const { cause } = error
  if (cause instanceof IllFormedText) {
    return new ValidationError({ errors: [{ loc: [...cause.path], msg: cause.message, type: "value_error" }] })
  }
  return cause instanceof BodyTooDeep || cause instanceof BodyNotUtf8
    ? badBody(cause.message, "value_error")
    : badBody("The request body is not valid JSON", "json_invalid")
}

/** The failure a defect should be answered with, if it is one the API knows how to explain. */
const explainDefect = (defect: unknown): Option.Option<PayloadTooLarge | ValidationError | ServiceUnavailable> => {
  if (HttpServerError.isServerError(defect) && defect._tag === "RequestError") return Option.some(unreadableBody(defect))
  // A form endpoint (`POST /token`) sent a multipart body that does not parse.
  if (defect instanceof Multipart.MultipartError && defect.reason !== "InternalError") {
    return Option.some(badBody(`The request body is not valid multipart/form-data (${defect.reason})`, "value_error"))
  }
  // The search cluster stopped answering after start-up (the official clients' own error names).
  if (defect instanceof Error && ["ConnectionError", "TimeoutError", "NoLivingConnectionsError"].includes(defect.name)) {
    return Option.some(new ServiceUnavailable({ detail: "The search engine is not answering; try again" }))
  }
  if (isUnstorableText(defect)) {
    return Option.some(
      new ValidationError({
        errors: [{ loc: [], msg: "Text cannot contain the NUL character (\\u0000) on PostgreSQL", type: "value_error" }]
      })
    )
  }
  if (defect instanceof DatabaseLocked || isBusy(defect)) {
    const detail = defect instanceof DatabaseLocked
      ? `${defect.message}; try again`
      : "The database is locked by another process; try again"
    return Option.some(new ServiceUnavailable({ detail }))
  }
  return Option.none()
}

type Answer = Effect.Effect<never, ValidationError | PayloadTooLarge | ServiceUnavailable | InternalServerError>

export const ErrorResponsesLive = HttpApiBuilder.middleware(Api, (app) =>
  Effect.catchAllCause(app, (cause): Answer => {
    // The app's type declares no failures, yet the request decoder fails with HttpApiDecodeError.
    const failure: Option.Option<unknown> = Cause.failureOption(cause)
    if (Option.isSome(failure)) {
      return failure.value instanceof HttpApiError.HttpApiDecodeError
        ? Effect.fail(toValidationError(failure.value))
        : Effect.failCause(cause)
    }
    if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
    const defect = Cause.squash(cause)
    return Option.match(explainDefect(defect), {
      onSome: (error) => Effect.fail(error),
      onNone: () =>
        Effect.logError("Unexpected failure while handling a request", cause).pipe(
          Effect.zipRight(Effect.fail(new InternalServerError({ detail: "An unexpected error occurred" })))
        )
    })
  }))
