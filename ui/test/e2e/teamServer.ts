/**
 * A Gloss on a fresh SQLite database with no owner (no USERNAME and PASSWORD), whose log lines are kept in
 * `serverLog`: the first-start journey reads the set-up link from the line the server writes, as an operator would.
 * Otherwise built as test/support/server.ts builds its servers.
 */
import { createServer } from "node:http"
import { FetchHttpClient, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { ServerLive } from "../../../src/App.js"
import { GlossConfig } from "../../../src/Config.js"
import { freshDatabase } from "../../../test/support/databases.js"
import { AUTH_SECRET, TestServer } from "../../../test/support/server.js"

export const serverLog: Array<string> = []

const text = (message: unknown) => (Array.isArray(message) ? message.map(String).join(" ") : String(message))

const keepLog = Layer.merge(
  Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => void serverLog.push(text(message)))),
  Logger.minimumLogLevel(LogLevel.Warning)
)

export const OwnerlessServerLive = Layer.unwrapScoped(Effect.map(freshDatabase("sqlite"), (database) => {
  const env = { GLOSS_AUTH_SECRET_KEY: AUTH_SECRET, GLOSS_LOG_LEVEL: "warning", HF_HUB_DISABLE_TELEMETRY: "1", ...database.env }
  const server = Layer.effect(
    TestServer,
    Effect.map(HttpServer.HttpServer, (http) => {
      const address = http.address as HttpServer.TcpAddress
      return { dialect: "sqlite" as const, home: env.GLOSS_HOME_PATH, url: `http://127.0.0.1:${address.port}`, env }
    })
  )
  return server.pipe(
    Layer.provideMerge(ServerLive),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(GlossConfig.fromRecord(env)),
    Layer.provide(keepLog),
    Layer.provideMerge(FetchHttpClient.layer)
  )
}))

/** The set-up token from the link in the server's first-start line (`firstOwnerHint` in src/Bootstrap.ts). */
export const setupTokenFromLog = (): string | undefined => {
  for (const line of serverLog) {
    const token = /\/setup\?token=([A-Za-z0-9_-]+)/.exec(line)?.[1]
    if (token !== undefined) return token
  }
  return undefined
}
