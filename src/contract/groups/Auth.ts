import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { SignInLimited, Token, TokenRequest } from "../../domain/Auth.js"
import { Unauthorized } from "../../domain/Errors.js"

export class AuthGroup extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("token", "/token")
      .setPayload(TokenRequest.pipe(HttpApiSchema.withEncoding({ kind: "UrlParams" })))
      .addSuccess(Token, { status: 201 })
      .addError(Unauthorized.http)
      .addError(SignInLimited.http)
      .annotate(OpenApi.Description, "Exchange a username and password (form fields) for a bearer JWT")
  )
{}
