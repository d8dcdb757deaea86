import { Schema } from "effect"

/** `GET /oauth2/providers`: the providers a user may sign in with (empty when OAuth is not configured). */
export const OAuthProvider = Schema.Struct({ name: Schema.String }).annotations({ identifier: "OAuthProvider" })

export const OAuthProviders = Schema.Struct({ items: Schema.Array(OAuthProvider) }).annotations({
  identifier: "OAuthProviders"
})

export const ProviderPath = Schema.Struct({ provider: Schema.String })

/**
 * `GET /oauth2/providers/{provider}/access-token`: what the provider sent to the callback page. Both are optional
 * on the wire so that a missing one gets the contract's `{"detail": …}` 422 rather than a schema error.
 */
export const AccessTokenQuery = Schema.Struct({
  code: Schema.optional(Schema.String),
  state: Schema.optional(Schema.String)
})
