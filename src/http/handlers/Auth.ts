import { HttpApiBuilder, HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { Auth } from "../../services/auth/Auth.js"
import { ServerApi } from "../ServerApi.js"

export const AuthLive = HttpApiBuilder.group(ServerApi, "auth", (handlers) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    return handlers.handle("token", ({ payload }) =>
      Effect.gen(function*() {
        // The socket's peer: behind a reverse proxy, the proxy's address for every client (see README, Security).
        const { remoteAddress } = yield* HttpServerRequest.HttpServerRequest
        return yield* auth.login(payload.username, payload.password, remoteAddress)
      }).pipe(
        Effect.tapErrorTag("SignInLimited", (limited) =>
          HttpApp.appendPreResponseHandler((_, response) =>
            Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(limited.retryAfterSeconds)))))
      ))
  }))
