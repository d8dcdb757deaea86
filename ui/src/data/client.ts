/**
 * The only way the UI talks to the server: the client derived from the server's one `HttpApi` definition
 * (`src/contract/Api.ts`), run on a small Effect runtime. `call` turns a client call into a promise for TanStack Query;
 * it rejects with the endpoint's typed failure (a tagged error such as `NotFound`), and a 401 ends the session.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Cause, Effect, Exit, ManagedRuntime, Option } from "effect"
import { Api } from "../../../src/contract/Api.js"
import { session } from "./session.js"

/** Where the app is served (`GLOSS_BASE_URL` included), from the `<base href>` the server writes. */
export const appBase = (): string => new URL(".", document.baseURI).href.replace(/\/$/, "")

const makeClient = HttpApiClient.make(Api, {
  baseUrl: appBase(),
  transformClient: HttpClient.mapRequest((request) => {
    const token = session.token()
    return token === null ? request : HttpClientRequest.bearerToken(request, token)
  })
})

export type Client = Effect.Effect.Success<typeof makeClient>

class ApiClient extends Effect.Service<ApiClient>()("gloss-ui/ApiClient", {
  effect: makeClient,
  dependencies: [FetchHttpClient.layer]
}) {}

const runtime = ManagedRuntime.make(ApiClient.Default)

const tagOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string"
    ? error._tag
    : undefined

export const isUnauthorized = (error: unknown) => tagOf(error) === "Unauthorized"

/** Runs one API call. `signal` (from TanStack Query) interrupts it. */
export const call = async <A, E>(
  use: (client: Client) => Effect.Effect<A, E>,
  signal?: AbortSignal
): Promise<A> => {
  const exit = await runtime.runPromiseExit(Effect.flatMap(ApiClient, use), signal === undefined ? {} : { signal })
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) {
    if (isUnauthorized(failure.value)) session.expire()
    throw failure.value
  }
  throw Cause.squash(exit.cause)
}

/** A sentence for the user: the server's `detail`, a validation summary, or a generic line. */
export const errorMessage = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    if ("detail" in error && typeof error.detail === "string") return error.detail
    const tag = tagOf(error)
    if (tag === "ValidationError" && error instanceof Error) return error.message
    if (tag === "RequestError") return "The server cannot be reached. Check your connection and try again."
    // `{"code": "missing_vector", "message": …}`: a "find similar" from a record without that vector.
    if (tag === "MissingVector" && "message" in error && typeof error.message === "string") return error.message
  }
  return "Something went wrong. Try again."
}
