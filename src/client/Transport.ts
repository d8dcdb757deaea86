/**
 * The typed transport: `HttpApiClient` derived from the one `Api` over `FetchHttpClient`, with the client's headers,
 * connection retries and — through `call` — the request timeout and the mapping of transport failures to the
 * client's tagged errors. No endpoint is written by hand.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientError, HttpClientRequest } from "@effect/platform"
import { Effect, flow, ParseResult, Redacted, Schedule } from "effect"
import { ValidationError } from "../domain/Errors.js"
import { Api } from "../contract/Api.js"
import { API_KEY_HEADER } from "../contract/Authentication.js"
import { ConnectionFailed, RequestTimeout, type TransportError, UnexpectedResponse } from "./Errors.js"
import type { ClientSettings } from "./Options.js"

type WireError = HttpClientError.HttpClientError | ParseResult.ParseError

/**
 * Failures before any answer: refused, reset, unreachable. Only these are retried, as the Argilla SDK's transport
 * retries them.
 */
const isConnectionError = (error: HttpClientError.HttpClientError) =>
  error._tag === "RequestError" && error.reason === "Transport"

const isWireError = (error: unknown): error is WireError =>
  HttpClientError.isHttpClientError(error) || ParseResult.isParseError(error)

/** Node's fetch fails with "fetch failed"; the reason (`connect ECONNREFUSED …`) is its cause. */
const describeCause = (cause: unknown): string => {
  const inner = cause instanceof Error && cause.cause !== undefined ? cause.cause : cause
  if (inner instanceof Error) {
    const code = "code" in inner && typeof inner.code === "string" ? inner.code : undefined
    return inner.message !== "" ? inner.message : code ?? inner.name
  }
  return String(inner)
}

/**
 * A response body that does not match the contract: marked here, where only decoding runs, so that a parse error
 * that reaches `call` can only come from encoding the request.
 */
const markDecodeErrors = (effect: Effect.Effect<unknown, unknown>) =>
  Effect.catchIf(effect, ParseResult.isParseError, (error) =>
    Effect.fail(new UnexpectedResponse({ detail: `the body does not match the contract: ${error.message}` })))

/** What the caller passed does not match the contract: the same error the server would answer with (422). */
const requestValidationError = (error: ParseResult.ParseError) =>
  new ValidationError({
    errors: ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
      loc: issue.path.map((key) => (typeof key === "number" ? key : String(key))),
      msg: issue.message,
      type: issue._tag
    }))
  })

export const makeTransport = Effect.fn("GlossClient.transport")(
  function*(settings: ClientSettings) {
    const httpClient = (yield* HttpClient.HttpClient).pipe(
      HttpClient.mapRequest(flow(
        HttpClientRequest.prependUrl(settings.apiUrl),
        HttpClientRequest.setHeaders({
          ...settings.headers,
          // Last, so that it wins over a caller's header of the same name (header names are case-insensitive).
          [API_KEY_HEADER]: Redacted.value(settings.apiKey)
        })
      )),
      HttpClient.retry({
        while: isConnectionError,
        times: settings.retries,
        schedule: Schedule.exponential(settings.retryBackoff)
      }),
      // Outermost, so that the caller's transform sees each request as sent (URL and headers), once per attempt.
      settings.transformClient
    )
    const api = yield* HttpApiClient.makeWith(Api, { httpClient, transformResponse: markDecodeErrors })

    const toClientError = (error: WireError): Effect.Effect<never, TransportError | ValidationError> => {
      if (ParseResult.isParseError(error)) return Effect.fail(requestValidationError(error))
      if (error._tag === "RequestError") {
        return isConnectionError(error)
          ? Effect.fail(new ConnectionFailed({
            apiUrl: settings.apiUrl,
            attempts: settings.retries + 1,
            reason: describeCause(error.cause)
          }))
          // An invalid URL or an unencodable body: the client built a request it should not have.
          : Effect.die(error)
      }
      const status = error.response.status
      return error.response.text.pipe(
        Effect.orElseSucceed(() => ""),
        Effect.flatMap((body) =>
          Effect.fail(new UnexpectedResponse({ status, detail: body === "" ? error.message : body.slice(0, 500) }))
        )
      )
    }

    /** One whole request, retries included, within the timeout; transport failures as the client's errors. */
    const call = <A, E, R>(
      effect: Effect.Effect<A, E | WireError, R>
    ): Effect.Effect<A, Exclude<E, WireError> | TransportError | ValidationError, R> =>
      effect.pipe(
        Effect.timeoutFail({
          duration: settings.timeout,
          onTimeout: () => new RequestTimeout({ apiUrl: settings.apiUrl, timeout: settings.timeoutSeconds })
        }),
        Effect.catchIf(isWireError, toClientError)
      )

    return { api, call }
  },
  Effect.provide(FetchHttpClient.layer)
)

export type Transport = Effect.Effect.Success<ReturnType<typeof makeTransport>>
export type ApiClient = Transport["api"]
export type Call = Transport["call"]
