import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** `POST /api/v1/token` takes a form (`application/x-www-form-urlencoded`), as OAuth2's password flow does. */
export const TokenRequest = Schema.Struct({
  username: Schema.String.pipe(Schema.minLength(1)),
  password: Schema.String.pipe(Schema.minLength(1))
}).annotations({ identifier: "TokenRequest" })

export const Token = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("bearer")
}).annotations({ identifier: "Token" })
export type Token = typeof Token.Type

/**
 * Too many failed sign-ins for the username or the client address (`POST /token`): refused, the right password
 * included, until `retryAfterSeconds` have passed (also sent as `Retry-After`). Argilla has no such answer; the
 * body has the contract's `{"detail": "<message>"}` shape.
 */
export class SignInLimited extends Schema.TaggedError<SignInLimited>()("SignInLimited", {
  detail: Schema.String,
  retryAfterSeconds: Schema.Int
}) {
  static readonly after = (retryAfterSeconds: number) =>
    new SignInLimited({
      detail: `Too many failed sign-in attempts for this username or from this address: try again in ${retryAfterSeconds} seconds`,
      retryAfterSeconds
    })
  static readonly http: Schema.Schema<SignInLimited, { readonly detail: string }> = Schema.transform(
    Schema.Struct({ detail: Schema.String }),
    Schema.instanceOf(SignInLimited),
    {
      strict: true,
      // The client reads the wait from `Retry-After`; the body keeps the contract's shape.
      decode: ({ detail }) => new SignInLimited({ detail, retryAfterSeconds: Number(/(\d+) seconds/.exec(detail)?.[1] ?? 1) }),
      encode: (error) => ({ detail: error.detail })
    }
  ).annotations(HttpApiSchema.annotations({ status: 429 }))
}
