import { HttpServerRequest } from "@effect/platform"
import { Effect, type Exit, Layer } from "effect"
import { Unauthorized } from "../domain/Errors.js"
import type { User } from "../domain/User.js"
import { Auth } from "../services/auth/Auth.js"
import { API_KEY_HEADER, ARGILLA_API_KEY_HEADER, Authentication } from "../contract/Authentication.js"

type Headers = HttpServerRequest.HttpServerRequest["headers"]

/** The API key headers sent, empty ones included (headers arrive lower-cased). */
const keysSent = (headers: Headers) =>
  [headers[API_KEY_HEADER.toLowerCase()], headers[ARGILLA_API_KEY_HEADER.toLowerCase()]].filter(
    (key): key is string => key !== undefined
  )

/** The token of `Authorization: Bearer <token>`; `""` for any other value. */
const bearerOf = (authorization: string) =>
  authorization.slice(0, 7).toLowerCase() === "bearer " ? authorization.slice(7).trim() : ""

/**
 * A private Hugging Face Space's proxy needs the Hub token in `Authorization: Bearer hf_…` on every request, next to
 * the API key (the SDK and Gloss's client send both): such a token is not ours to check and is let through.
 */
const isHubToken = (token: string) => token.startsWith("hf_")

/**
 * The middleware tries each scheme in turn and the first that yields a user wins, so on its own a valid key in one
 * header would let a wrong one in the other pass, and a key would let any token ride along. So every scheme decides
 * on all the credentials sent at once, and each of them must hold: every key header sent (even empty) carries the
 * same valid key, and an `Authorization` header beside it is a token of ours for the key's user (or a Hub token, see
 * above). Anything else is 401, never silently ignored.
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const auth = yield* Auth

    const byKey = (keys: ReadonlyArray<string>, authorization: string | undefined) =>
      Effect.gen(function*() {
        const [key] = keys
        if (key === undefined || key === "" || keys.some((other) => other !== key)) {
          return yield* Unauthorized.couldNotValidate()
        }
        const user = yield* auth.byApiKey(key)
        if (authorization === undefined) return user
        const token = bearerOf(authorization)
        if (isHubToken(token)) return user
        const tokenUser = yield* auth.byBearerToken(token).pipe(Effect.mapError(Unauthorized.couldNotValidate))
        if (tokenUser.id !== user.id) return yield* Unauthorized.couldNotValidate()
        return user
      })

    const decide = (headers: Headers) => {
      const keys = keysSent(headers)
      const authorization = headers["authorization"]
      if (keys.length > 0) return byKey(keys, authorization)
      return auth.byBearerToken(bearerOf(authorization ?? ""))
    }

    // Every scheme gets the same answer: the first one decides and the others, tried when it refused, repeat it
    // rather than look the same credentials up again.
    const decided = new WeakMap<HttpServerRequest.HttpServerRequest, Exit.Exit<User, Unauthorized>>()
    const authenticate: Effect.Effect<User, Unauthorized, HttpServerRequest.HttpServerRequest> = Effect.flatMap(
      HttpServerRequest.HttpServerRequest,
      (request) => {
        const known = decided.get(request)
        if (known !== undefined) return known
        return Effect.flatten(Effect.tap(Effect.exit(decide(request.headers)), (exit) => decided.set(request, exit)))
      }
    )

    return { apiKey: () => authenticate, argillaApiKey: () => authenticate, bearer: () => authenticate }
  })
)
