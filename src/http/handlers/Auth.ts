import { HttpApiBuilder, HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import { Auth } from "../../services/auth/Auth.js"
import { ServerApi } from "../ServerApi.js"

/**
 * The last address of `X-Forwarded-For`: the one the proxy in front of us appended, the only one not written by the
 * client (who may send any addresses in the header themselves).
 */
const lastForwarded = (header: string | undefined): Option.Option<string> =>
  Option.fromNullable(header?.split(",").map((part) => part.trim()).filter((part) => part !== "").at(-1))

export const AuthLive = HttpApiBuilder.group(ServerApi, "auth", (handlers) =>
  Effect.gen(function*() {
    const auth = yield* Auth
    const { trustProxy } = (yield* GlossConfig).auth.signIn

    /**
     * Who failed sign-ins are counted against besides the username: the socket's peer, so behind a reverse proxy
     * every client shares the proxy's address unless GLOSS_TRUST_PROXY says to read X-Forwarded-For.
     */
    const clientAddress = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
      trustProxy
        ? Option.orElse(lastForwarded(request.headers["x-forwarded-for"]), () => request.remoteAddress)
        : request.remoteAddress)

    return handlers.handle("token", ({ payload }) =>
      Effect.flatMap(clientAddress, (address) => auth.login(payload.username, payload.password, address)).pipe(
        Effect.tapErrorTag("SignInLimited", (limited) =>
          HttpApp.appendPreResponseHandler((_, response) =>
            Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(limited.retryAfterSeconds)))))
      ))
  }))
