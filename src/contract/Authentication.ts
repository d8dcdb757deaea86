/**
 * The security middleware's contract: which credentials an endpoint accepts and what it provides. Shared with the
 * client (it only describes headers); the implementation lives in `http/AuthenticationLive.ts`.
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context } from "effect"
import { Unauthorized } from "../domain/Errors.js"
import type { User } from "../domain/User.js"

export const API_KEY_HEADER = "X-Gloss-Api-Key"
/** Accepted so that Argilla clients work unchanged. */
export const ARGILLA_API_KEY_HEADER = "X-Argilla-Api-Key"

/** The authenticated caller of the current request. */
export class CurrentUser extends Context.Tag("Gloss/CurrentUser")<CurrentUser, User>() {}

/** Tried in declaration order: the first scheme that yields a user wins; when all fail, the last one's error is sent. */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Gloss/Authentication", {
  failure: Unauthorized.http,
  provides: CurrentUser,
  security: {
    apiKey: HttpApiSecurity.apiKey({ in: "header", key: API_KEY_HEADER }),
    argillaApiKey: HttpApiSecurity.apiKey({ in: "header", key: ARGILLA_API_KEY_HEADER }),
    bearer: HttpApiSecurity.bearer
  }
}) {}
