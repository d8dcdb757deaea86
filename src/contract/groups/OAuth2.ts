import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Token } from "../../domain/Auth.js"
import { NotFound, Unauthorized, Unprocessable } from "../../domain/Errors.js"
import { AccessTokenQuery, OAuthProviders, ProviderPath } from "../../domain/OAuth.js"

/** Sign-in through an OAuth2 provider. No authentication: these are how a browser gets it. */
export class OAuth2Group extends HttpApiGroup.make("oauth2")
  .add(
    HttpApiEndpoint.get("providers", "/oauth2/providers")
      .addSuccess(OAuthProviders)
      .annotate(OpenApi.Description, "The providers users can sign in with; empty when OAuth is not configured")
  )
  .add(
    HttpApiEndpoint.get("authentication", "/oauth2/providers/:provider/authentication")
      .setPath(ProviderPath)
      .addSuccess(HttpApiSchema.Empty(303))
      .addError(NotFound.http)
      .annotate(
        OpenApi.Description,
        "Redirects the browser (303) to the provider's sign-in page and sets the `<provider>_oauth2_state` cookie. " +
          "Query parameters other than the OAuth ones are passed on to the provider."
      )
  )
  .add(
    HttpApiEndpoint.get("accessToken", "/oauth2/providers/:provider/access-token")
      .setPath(ProviderPath)
      .setUrlParams(AccessTokenQuery)
      .addSuccess(Token)
      .addError(NotFound.http)
      .addError(Unprocessable.http)
      .addError(Unauthorized.http)
      .annotate(
        OpenApi.Description,
        "Called by the callback page with the provider's `code` and `state`: checks the state cookie, creates the " +
          "user on first sign-in, and returns a bearer JWT"
      )
  )
  .annotate(OpenApi.Description, "OAuth2 sign-in (active when an OAuth configuration file exists)")
{}
