import { Effect, Layer, Redacted } from "effect"
import { Auth } from "../services/auth/Auth.js"
import { Authentication } from "./Authentication.js"

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const auth = yield* Auth
    // A missing header arrives as an empty value; `Auth` rejects it.
    const byApiKey = (key: Redacted.Redacted) => auth.byApiKey(Redacted.value(key))
    return {
      apiKey: byApiKey,
      argillaApiKey: byApiKey,
      bearer: (token) => auth.byBearerToken(Redacted.value(token))
    }
  })
)
