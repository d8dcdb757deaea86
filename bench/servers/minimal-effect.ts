/**
 * The framework's ceiling: the smallest Effect HttpApi server with what Gloss's `GET /api/v1/me` needs — an API-key
 * security middleware resolving the key in an in-memory Map, and a schema-encoded response. No logging, no tracing.
 */
import { createServer } from "node:http"
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSecurity,
  HttpMiddleware,
  HttpServer
} from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Context, Effect, Layer, Redacted, Schema } from "effect"

const User = Schema.Struct({
  id: Schema.UUID,
  first_name: Schema.String,
  last_name: Schema.NullOr(Schema.String),
  username: Schema.String,
  role: Schema.Literal("owner", "admin", "annotator"),
  api_key: Schema.String,
  inserted_at: Schema.String,
  updated_at: Schema.String
})
class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {}) {}
class CurrentUser extends Context.Tag("CurrentUser")<CurrentUser, typeof User.Type>() {}
class Auth extends HttpApiMiddleware.Tag<Auth>()("Auth", {
  failure: Unauthorized,
  provides: CurrentUser,
  security: { apiKey: HttpApiSecurity.apiKey({ in: "header", key: "X-Gloss-Api-Key" }) }
}) {}

const api = HttpApi.make("minimal").add(
  HttpApiGroup.make("me").add(HttpApiEndpoint.get("me", "/api/v1/me").addSuccess(User)).middleware(Auth)
)

const user: typeof User.Type = {
  id: "3f1d2c8e-4c5b-4f7a-9d2e-1a2b3c4d5e6f",
  first_name: "bench",
  last_name: null,
  username: "bench",
  role: "owner",
  api_key: "bench.api.key.0123456789abcdefghijklmnopqrstuvwxyz",
  inserted_at: "2026-11-22T02:37:02.123",
  updated_at: "2026-11-22T02:37:02.123"
}
const keys = new Map([[user.api_key, user]])

const AuthLive = Layer.succeed(Auth, {
  apiKey: (key) => {
    const found = keys.get(Redacted.value(key))
    return found === undefined ? Effect.fail(new Unauthorized()) : Effect.succeed(found)
  }
})
const MeLive = HttpApiBuilder.group(api, "me", (handlers) => handlers.handle("me", () => CurrentUser))

HttpApiBuilder.serve().pipe(
  Layer.provide(HttpApiBuilder.api(api).pipe(Layer.provide(MeLive), Layer.provide(AuthLive))),
  HttpServer.withLogAddress,
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
  Layer.launch,
  NodeRuntime.runMain
)
