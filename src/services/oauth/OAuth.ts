/**
 * Signing in through an OAuth2 provider, as Argilla's `/oauth2` endpoints do: the redirect to the provider with a
 * one-time `state`, then — back from the provider's callback page — the code exchanged for the user's profile, the user
 * created on first sign-in (member of the allowed workspaces), and a Gloss JWT, as `POST /token` gives.
 */
import * as crypto from "node:crypto"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Effect, Option, Redacted, Schema } from "effect"
import { GlossConfig } from "../../Config.js"
import type { Token } from "../../domain/Auth.js"
import { NotFound, ServiceUnavailable, Unauthorized, Unprocessable } from "../../domain/Errors.js"
import type { User } from "../../domain/User.js"
import { Tokens } from "../auth/Tokens.js"
import { toUser, Users } from "../users/Users.js"
import { Workspaces } from "../workspaces/Workspaces.js"
import { type ConfiguredProvider, loadOAuthSettings } from "./settings.js"

/** The browser's `state` cookie for `provider` (httpOnly, 90 s), compared with the `state` the callback brings back. */
export const stateCookie = (provider: string) => `${provider}_oauth2_state`
export const STATE_COOKIE_SECONDS = 90

/** Query parameters the redirect sets itself; any other parameter of the request is passed on to the provider. */
const RESERVED = new Set(["response_type", "client_id", "redirect_uri", "scope", "state"])

const TokenResponse = Schema.Struct({ access_token: Schema.String.pipe(Schema.minLength(1)) })
const Userinfo = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export class OAuth extends Effect.Service<OAuth>()("Gloss/OAuth", {
  effect: Effect.gen(function*() {
    const settings = yield* loadOAuthSettings
    const config = yield* GlossConfig
    const users = yield* Users
    const workspaces = yield* Workspaces
    const tokens = yield* Tokens
    const http = yield* HttpClient.HttpClient

    const providerNamed = (name: string) =>
      Option.match(Option.fromNullable(settings.providers.get(name)), {
        onNone: () => Effect.fail(new NotFound({ detail: `OAuth Provider '${name}' not found` })),
        onSome: Effect.succeed
      })

    /** Where the provider sends the browser back: configured, or the UI's callback route on this server. */
    const redirectUriFor = (provider: ConfiguredProvider, origin: string) => {
      const uri = Option.getOrElse(provider.redirectUri, () => `${origin}${config.server.baseUrl}/oauth/${provider.name}/callback`)
      return settings.allowHttpRedirect ? uri : uri.replace(/^http:/, "https:")
    }

    const providers = settings.providers.size === 0
      ? []
      : [...settings.providers.keys()].map((name) => ({ name }))

    /** The provider's authorize URL for this browser, and the `state` to keep in its cookie. */
    const authorization = Effect.fn("OAuth.authorization")(function*(
      name: string,
      origin: string,
      passThrough: Readonly<Record<string, string>>
    ) {
      const provider = yield* providerNamed(name)
      const state = crypto.randomBytes(24).toString("base64url")
      const url = new URL(provider.endpoints.authorize)
      for (const [key, value] of Object.entries(passThrough)) if (!RESERVED.has(key)) url.searchParams.set(key, value)
      url.searchParams.set("response_type", "code")
      url.searchParams.set("client_id", provider.clientId)
      url.searchParams.set("redirect_uri", redirectUriFor(provider, origin))
      url.searchParams.set("scope", provider.scope)
      url.searchParams.set("state", state)
      return { location: url.href, state }
    })

    /** A provider call: its refusal is the user's failed sign-in (401); no answer at all is a 503. */
    const providerCall = <A, I>(provider: ConfiguredProvider, request: HttpClientRequest.HttpClientRequest, schema: Schema.Schema<A, I>) =>
      http.execute(HttpClientRequest.acceptJson(request)).pipe(
        Effect.flatMap(HttpClientResponse.filterStatusOk),
        Effect.flatMap(HttpClientResponse.schemaBodyJson(schema)),
        Effect.scoped,
        Effect.timeoutFail({
          duration: "15 seconds",
          onTimeout: () => new ServiceUnavailable({ detail: `OAuth provider '${provider.name}' did not answer in time` })
        }),
        Effect.catchTags({
          RequestError: () =>
            Effect.fail(new ServiceUnavailable({ detail: `OAuth provider '${provider.name}' is unreachable` })),
          ResponseError: (error) =>
            Effect.fail(new Unauthorized({
              detail: `OAuth provider '${provider.name}' refused the sign-in (${error.response.status})`
            })),
          ParseError: () =>
            Effect.fail(new Unauthorized({ detail: `OAuth provider '${provider.name}' sent an unexpected answer` }))
        })
      )

    const exchange = (provider: ConfiguredProvider, code: string, origin: string) =>
      Effect.gen(function*() {
        const request = HttpClientRequest.post(provider.endpoints.token).pipe(
          HttpClientRequest.bodyUrlParams({
            grant_type: "authorization_code",
            code,
            redirect_uri: redirectUriFor(provider, origin),
            client_id: provider.clientId
          }),
          (r) =>
            Option.match(provider.clientSecret, {
              onNone: () => r,
              onSome: (secret) => HttpClientRequest.basicAuth(r, provider.clientId, Redacted.value(secret))
            })
        )
        const { access_token } = yield* providerCall(provider, request, TokenResponse)
        return yield* providerCall(
          provider,
          HttpClientRequest.get(provider.endpoints.userinfo).pipe(HttpClientRequest.bearerToken(access_token)),
          Userinfo
        )
      })

    /** A first sign-in creates the user, in every allowed workspace; all of them must exist (else 422, nobody made). */
    const userFor = (username: string, firstName: string, role: User["role"]) =>
      Effect.gen(function*() {
        const existing = yield* users.findByUsername(username)
        if (Option.isSome(existing)) return toUser(existing.value)
        const joined = []
        for (const name of settings.allowedWorkspaces) {
          const workspace = yield* workspaces.findByName(name)
          if (Option.isNone(workspace)) return yield* new Unprocessable({ detail: `Workspace '${name}' not found` })
          joined.push(workspace.value)
        }
        const created = yield* users.createTrusted({
          username,
          first_name: firstName,
          role,
          // Never used: this user signs in through the provider (an owner may set a password later).
          password: crypto.randomBytes(32).toString("base64url")
        }).pipe(
          // Two first sign-ins at once: the other one created the user.
          Effect.catchTag("Conflict", (conflict) =>
            Effect.flatMap(users.findByUsername(username), Option.match({
              onNone: () => Effect.die(conflict),
              onSome: (row) => Effect.succeed(toUser(row))
            })))
        )
        for (const workspace of joined) {
          yield* workspaces.addUserTrusted(workspace.id, created.id).pipe(Effect.catchTag("Conflict", () => Effect.void))
        }
        yield* Effect.logInfo(`OAuth: created the ${created.role} '${created.username}'`)
        return created
      })

    /** The callback's `code` and `state`, checked against the `state` cookie, turned into a Gloss token. */
    const signIn = Effect.fn("OAuth.signIn")(function*(
      name: string,
      query: { readonly code?: string | undefined; readonly state?: string | undefined },
      cookieState: Option.Option<string>,
      origin: string
    ) {
      const provider = yield* providerNamed(name)
      if (query.code === undefined || query.code === "") {
        return yield* new Unprocessable({ detail: "'code' parameter was not found in callback request" })
      }
      if (query.state === undefined || query.state === "") {
        return yield* new Unprocessable({ detail: "'state' parameter was not found in callback request" })
      }
      if (Option.isNone(cookieState) || !timingSafeEqual(cookieState.value, query.state)) {
        return yield* new Unprocessable({ detail: "'state' parameter does not match" })
      }
      const userinfo = yield* exchange(provider, query.code, origin)
      const profile = provider.definition.profile(userinfo, config)
      if (Option.isNone(profile)) {
        return yield* new Unprocessable({ detail: `OAuth provider '${name}' returned no username for this account` })
      }
      const { firstName, role, username } = profile.value
      const user = yield* userFor(username, firstName, Option.getOrElse(role, () => "annotator" as const))
      const token: Token = { access_token: yield* tokens.issue(user), token_type: "bearer" }
      return token
    })

    /** At start: the allowed workspaces exist, so the first sign-in can join them. */
    const ensureAllowedWorkspaces = Effect.gen(function*() {
      for (const name of settings.allowedWorkspaces) {
        if (Option.isNone(yield* workspaces.findByName(name))) {
          // Another server starting at the same moment may create it first: that is as good.
          yield* workspaces.createTrusted({ name }).pipe(
            Effect.zipRight(Effect.logInfo(`OAuth: created the allowed workspace '${name}'`)),
            Effect.catchTag("Conflict", () => Effect.void)
          )
        }
      }
    })

    return {
      enabled: settings.providers.size > 0,
      providers,
      authorization,
      signIn,
      ensureAllowedWorkspaces
    } as const
  }),
  dependencies: [Users.Default, Workspaces.Default, Tokens.Default, FetchHttpClient.layer]
}) {}

const timingSafeEqual = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && crypto.timingSafeEqual(left, right)
}
