import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option, Redacted } from "effect"
import { Unauthorized } from "../domain/Errors.js"
import { Auth } from "../services/auth/Auth.js"
import { API_KEY_HEADER, ARGILLA_API_KEY_HEADER, Authentication } from "../contract/Authentication.js"

type Headers = HttpServerRequest.HttpServerRequest["headers"]

/** The API keys sent, in either header (headers arrive lower-cased). */
const keysSent = (headers: Headers) =>
  [headers[API_KEY_HEADER.toLowerCase()], headers[ARGILLA_API_KEY_HEADER.toLowerCase()]].filter(
    (key): key is string => key !== undefined && key !== ""
  )

const bearerSent = (headers: Headers) => {
  const authorization = headers["authorization"] ?? ""
  return authorization.slice(0, 7).toLowerCase() === "bearer " ? authorization.slice(7) : ""
}

/**
 * The middleware tries each scheme in turn and the first that yields a user wins, so on its own a valid key in one
 * header let a wrong one in the other pass, and a key let a token for another user ride along. Here every credential
 * sent must agree: the two key headers must be equal, and a bearer token that is one of ours must name the key's
 * user. A bearer token that is not ours is ignored beside a key: the proxy of a private Hugging Face Space needs
 * `Authorization: Bearer <hub token>` on every request, next to the API key (reference: SDK §4.6).
 */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const auth = yield* Auth

    const byApiKey = (key: Redacted.Redacted) =>
      Effect.gen(function*() {
        const { headers } = yield* HttpServerRequest.HttpServerRequest
        const sent = Redacted.value(key)
        // A missing header arrives as an empty value.
        if (sent === "" || keysSent(headers).some((other) => other !== sent)) {
          return yield* Unauthorized.couldNotValidate()
        }
        const user = yield* auth.byApiKey(sent)
        const token = bearerSent(headers)
        if (token !== "") {
          const tokenUser = yield* Effect.option(auth.byBearerToken(token))
          if (Option.isSome(tokenUser) && tokenUser.value.id !== user.id) return yield* Unauthorized.couldNotValidate()
        }
        return user
      })

    const byBearer = (token: Redacted.Redacted) =>
      Effect.gen(function*() {
        const { headers } = yield* HttpServerRequest.HttpServerRequest
        // With a key sent, the key decided (above); a token must not let a refused key through.
        if (keysSent(headers).length > 0) return yield* Unauthorized.couldNotValidate()
        return yield* auth.byBearerToken(Redacted.value(token))
      })

    return { apiKey: byApiKey, argillaApiKey: byApiKey, bearer: byBearer }
  })
)
