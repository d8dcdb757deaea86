/**
 * The HTTP server: the API's handlers, its docs and OpenAPI document, mounted under `GLOSS_BASE_URL`, behind the
 * request pipeline. `HttpLive` needs an `HttpServer` (Node's on a port in production, a random port in tests).
 */
import {
  HttpApiBuilder,
  HttpApiSwagger,
  HttpMiddleware,
  HttpRouter,
  HttpServer,
  HttpServerResponse,
  OpenApi
} from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { GlossConfig } from "../Config.js"
import { Api } from "../contract/Api.js"
import { AuthenticationLive } from "./AuthenticationLive.js"
import { ErrorResponsesLive } from "./ErrorResponses.js"
import { AccountLive } from "./handlers/Account.js"
import { AuthLive } from "./handlers/Auth.js"
import { DatasetsLive } from "./handlers/Datasets.js"
import { ExportsLive } from "./handlers/Exports.js"
import { FieldsLive, MetadataPropertiesLive, QuestionsLive, VectorSettingsLive } from "./handlers/DatasetSettings.js"
import { HealthLive } from "./handlers/Health.js"
import { InfoLive } from "./handlers/Info.js"
import { InvitationsLive } from "./handlers/Invitations.js"
import { JobsLive } from "./handlers/Jobs.js"
import { MeLive } from "./handlers/Me.js"
import { OAuth2Live } from "./handlers/OAuth2.js"
import { ProgressLive } from "./handlers/Progress.js"
import { RecordsLive } from "./handlers/Records.js"
import { ResponsesLive } from "./handlers/Responses.js"
import { AssignmentLive } from "./handlers/Assignment.js"
import { ReviewLive } from "./handlers/Review.js"
import { SearchLive } from "./handlers/Search.js"
import { SetupLive } from "./handlers/Setup.js"
import { SuggestionsLive } from "./handlers/Suggestions.js"
import { UsersLive } from "./handlers/Users.js"
import { WebhooksLive } from "./handlers/Webhooks.js"
import { WorkspacesLive } from "./handlers/Workspaces.js"
import { AppModuleLive } from "./AppModule.js"
import { requestPipeline } from "./RequestPipeline.js"
import { ShareProgressLive } from "./ShareProgress.js"
import { StaticUiLive } from "./StaticUi.js"
import { Account } from "../services/account/Account.js"
import { Auth } from "../services/auth/Auth.js"
import { Invitations } from "../services/invitations/Invitations.js"
import { OAuth } from "../services/oauth/OAuth.js"
import { Setup } from "../services/setup/Setup.js"
import { Users } from "../services/users/Users.js"
import { Workspaces } from "../services/workspaces/Workspaces.js"

const GroupsLive = Layer.mergeAll(
  InfoLive,
  HealthLive,
  AuthLive,
  OAuth2Live,
  MeLive,
  UsersLive,
  JobsLive,
  WorkspacesLive,
  DatasetsLive,
  FieldsLive,
  QuestionsLive,
  MetadataPropertiesLive,
  VectorSettingsLive,
  RecordsLive,
  ResponsesLive,
  SuggestionsLive,
  ProgressLive,
  SearchLive,
  WebhooksLive,
  SetupLive,
  InvitationsLive,
  AccountLive,
  ExportsLive,
  ReviewLive,
  AssignmentLive
).pipe(
  Layer.provide(AuthenticationLive),
  Layer.provide([Auth.Default, OAuth.Default, Users.Default, Workspaces.Default, Setup.Default, Invitations.Default, Account.Default])
)

/** The API's routes as the `HttpApi.Api` service the server is built from. */
const ApiLive = Layer.unwrapEffect(Effect.map(GlossConfig, ({ server }) =>
  // With a base URL the app is mounted under it; the docs' "try it out" needs to know.
  HttpApiBuilder.api(server.baseUrl === "" ? Api : Api.annotate(OpenApi.Servers, [{ url: server.baseUrl }])).pipe(
    Layer.provide(GroupsLive)
  )))

/** What sits beside the handlers: docs pages, the OpenAPI document, the web UI, and the mapping of undeclared failures. */
const ExtrasLive = Layer.unwrapEffect(Effect.map(GlossConfig, ({ server }) =>
  Layer.mergeAll(
    ErrorResponsesLive,
    HttpApiSwagger.layer({ path: "/api/v1/docs" }),
    server.docsEnabled ? HttpApiSwagger.layer({ path: "/api/docs" }) : Layer.empty,
    HttpApiBuilder.middlewareOpenApi({ path: "/api/v1/openapi.json" }),
    docsRedirects(server.baseUrl),
    ShareProgressLive,
    AppModuleLive,
    // The web UI answers every GET the API does not route (history fallback); `/api/...` stays a JSON 404.
    StaticUiLive
  )))

/** `GET /docs` and `GET /api` lead to the interactive docs, as Argilla's do. */
const docsRedirects = (baseUrl: string) =>
  HttpApiBuilder.Router.use((router) => {
    const toDocs = HttpServerResponse.redirect(`${baseUrl}/api/v1/docs`, { status: 307 })
    return Effect.zipRight(router.get("/docs", Effect.succeed(toDocs)), router.get("/api", Effect.succeed(toDocs)))
  })

/** Whether a request's query string has a `token` parameter (the set-up page's, an invitation lookup's). */
const carriesToken = (url: string) => /[?&]token=/.test(url)

/** Serves the API on the `HttpServer` in context. */
export const HttpLive = Layer.unwrapEffect(Effect.gen(function*() {
  const config = yield* GlossConfig
  const base = config.server.baseUrl
  const mounted = Effect.map(HttpApiBuilder.httpApp, (app) =>
    base === "" ? app : HttpRouter.empty.pipe(HttpRouter.mountApp(base as `/${string}`, app)))
  const pipeline = requestPipeline(config)
  return Layer.unwrapEffect(Effect.map(mounted, (app) => HttpServer.serve(pipeline(app)))).pipe(
    Layer.provide(ExtrasLive),
    Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]),
    Layer.provide(ApiLive),
    // Per-request tracing spans cost a large share of throughput; they are only worth it when someone collects them.
    // A span records the whole URL: none for the requests that carry a set-up or invitation token in the query.
    HttpMiddleware.withTracerDisabledWhen((request) => Option.isNone(config.tracing) || carriesToken(request.url))
  )
}))
