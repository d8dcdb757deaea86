import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { OAuth, STATE_COOKIE_SECONDS, stateCookie } from "../../services/oauth/OAuth.js"
import { ServerApi } from "../ServerApi.js"

/**
 * This server's origin as the browser sees it: behind a proxy (a Space, a load balancer) the forwarded headers
 * tell the scheme and host the provider must send the browser back to.
 */
const originOf = (request: HttpServerRequest.HttpServerRequest) => {
  const first = (name: string) => request.headers[name]?.split(",")[0]?.trim() || undefined
  const scheme = first("x-forwarded-proto") ?? "http"
  const host = first("x-forwarded-host") ?? request.headers.host ?? "localhost"
  return `${scheme}://${host}`
}

export const OAuth2Live = HttpApiBuilder.group(ServerApi, "oauth2", (handlers) =>
  Effect.gen(function*() {
    const oauth = yield* OAuth
    return handlers
      .handle("providers", () => Effect.succeed({ items: oauth.providers }))
      .handleRaw("authentication", ({ path, request }) =>
        Effect.gen(function*() {
          const query = Object.fromEntries(new URL(request.url, "http://gloss").searchParams)
          const { location, state } = yield* oauth.authorization(path.provider, originOf(request), query)
          return yield* HttpServerResponse.empty({ status: 303, headers: { location } }).pipe(
            HttpServerResponse.setCookie(stateCookie(path.provider), state, {
              httpOnly: true,
              secure: true,
              sameSite: "none",
              path: "/",
              maxAge: `${STATE_COOKIE_SECONDS} seconds`
            }),
            Effect.orDie
          )
        }))
      .handle("accessToken", ({ path, request, urlParams }) =>
        oauth.signIn(
          path.provider,
          urlParams,
          Option.fromNullable(request.cookies[stateCookie(path.provider)]),
          originOf(request)
        ))
  }))
