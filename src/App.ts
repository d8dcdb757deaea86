/**
 * The server process: configuration → database (+ migrations) → owner bootstrap → HTTP on a Node port. Start-up
 * stops with one clear message when configuration is invalid or a dependency cannot be reached.
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { GlossConfig } from "./Config.js"
import { HttpLive } from "./http/Server.js"
import { ensureOwner } from "./Bootstrap.js"
import { Database, SqlLive } from "./services/database/Database.js"
import { ServerJobWorkersLive } from "./Workers.js"
import { SearchEngineLive } from "./services/search/SearchEngineLive.js"
import { SearchIndex } from "./services/records/SearchIndex.js"
import { runMigrations } from "./services/database/migrations.js"
import { Users } from "./services/users/Users.js"
import { OAuth } from "./services/oauth/OAuth.js"
import { OutboxDispatcherLive } from "./services/webhooks/Dispatcher.js"
import { Workspaces } from "./services/workspaces/Workspaces.js"
import { Telemetry } from "./services/Telemetry.js"
import { TracingLive } from "./Tracing.js"
import { createStoppableServer } from "./http/NodeServer.js"

/** Migrations and the owner bootstrap, done before the server accepts requests. */
export const PrepareLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const applied = yield* runMigrations
    if (applied.length > 0) yield* Effect.logInfo(`Applied ${applied.length} database migration(s)`)
    yield* ensureOwner
    yield* (yield* OAuth).ensureAllowedWorkspaces
    yield* (yield* Telemetry).track("server/start")
    if ((yield* GlossConfig).container.reindexDatasets) {
      const counts = yield* (yield* SearchIndex).reindex()
      yield* Effect.logInfo(`REINDEX_DATASETS: rebuilt the search index of ${counts.length} dataset(s)`)
    }
  })
).pipe(Layer.provide([Users.Default, Workspaces.Default, SearchIndex.Default, Telemetry.Default, OAuth.Default]))

/**
 * What the server's layers run on. A function applied to both `ServerLive` and the preparation `NodeServerLive`
 * waits for: the same layer values, so each is built once (layers are memoised by reference within one build).
 */
const withInfrastructure = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  layer.pipe(
    Layer.provide(SearchEngineLive),
    Layer.provide(Database.Default),
    Layer.provideMerge(SqlLive),
    Layer.provide(TracingLive)
  )

/** Everything but the socket: tests provide their own `HttpServer` on a random port. */
export const ServerLive = withInfrastructure(
  Layer.mergeAll(HttpLive, ServerJobWorkersLive, OutboxDispatcherLive).pipe(Layer.provide(PrepareLive))
)

/**
 * The server on its port. The port opens only once the preparation (migrations, owner) is done: a socket that
 * listened earlier accepted connections nobody answered until then, and a client waiting on one could hang.
 * Before, a connection is refused, which clients and load balancers understand as "not up yet".
 */
export const NodeServerLive = Layer.unwrapEffect(Effect.map(GlossConfig, ({ server }) =>
  ServerLive.pipe(
    HttpServer.withLogAddress,
    Layer.provide(
      NodeHttpServer.layer(createStoppableServer, { port: server.port, host: server.host }).pipe(
        Layer.provide(withInfrastructure(PrepareLive))
      )
    )
  )))
