import { HttpApiBuilder, HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { GlossConfig } from "../../Config.js"
import { Auth } from "../../services/auth/Auth.js"
import { ServerApi } from "../ServerApi.js"
import { clientAddress } from "./clientAddress.js"

export const AuthLive = HttpApiBuilder.group(ServerApi, "auth", (handlers) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    const { trustProxy } = (yield* GlossConfig).auth.signIn

    const address = clientAddress(trustProxy)

    return handlers.handle("token", ({ payload }) =>
      Effect.flatMap(address, (from) => auth.login(payload.username, payload.password, from)).pipe(
        Effect.tapErrorTag("SignInLimited", (limited) =>
          HttpApp.appendPreResponseHandler((_, response) =>
            Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(limited.retryAfterSeconds)))))
      ))
  }))
