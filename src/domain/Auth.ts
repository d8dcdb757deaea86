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
