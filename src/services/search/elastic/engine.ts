/**
 * The Elasticsearch and OpenSearch `SearchEngine` layers. At construction each one reads the cluster's root
 * document, waiting up to about a minute for a cluster that is still starting, and refuses a cluster that is not
 * the configured engine or is older than it supports (Elasticsearch 8.5.0, OpenSearch 2.4.0).
 */
import * as fs from "node:fs/promises"
import type { BaseConnection } from "@elastic/elasticsearch"
import type { Connection as OpenSearchConnection } from "@opensearch-project/opensearch"
import { Effect, Either, Layer, Option, Redacted, Schedule } from "effect"
import { GlossConfig } from "../../../Config.js"
import { SearchEngine } from "../SearchEngine.js"
import { type EngineName, EngineUnavailable } from "./errors.js"
import type { Flavor } from "./json.js"
import { makeEngine } from "./operations.js"
import { decode, RootVersion } from "./responses.js"
import {
  type ClientSettings,
  elasticsearchTransport,
  type EngineTransport,
  openSearchTransport
} from "./transport.js"
import { checkVersion, ENGINE_NAME } from "./version.js"

export interface EngineLayerOptions<C> {
  /** Tests: a transport-level fake in place of the HTTP connection. */
  readonly Connection?: C
  /** How long to wait for an unreachable cluster at start-up; by default about a minute. */
  readonly startupRetry?: Schedule.Schedule<unknown, unknown>
}

const STARTUP_RETRY = Schedule.exponential("500 millis").pipe(
  Schedule.union(Schedule.spaced("5 seconds")),
  Schedule.upTo("60 seconds")
)

const statusOf = (error: unknown): number | undefined =>
  typeof error === "object" && error !== null && "statusCode" in error && typeof error.statusCode === "number"
    ? error.statusCode
    : undefined

/** Worth waiting for: no answer yet, or a proxy saying the cluster behind it is not ready. */
const isTransient = (error: unknown): boolean => {
  const status = statusOf(error)
  if (status !== undefined) return status === 502 || status === 503 || status === 504
  return error instanceof Error && ["ConnectionError", "TimeoutError", "NoLivingConnectionsError"].includes(error.name)
}

const startupCheck = (
  flavor: Flavor,
  transport: EngineTransport,
  url: URL,
  retry: Schedule.Schedule<unknown, unknown>
) => {
  const engine = ENGINE_NAME[flavor]
  const secrets = [decodeURIComponent(url.password), url.password]
  const failure = (error: unknown): EngineUnavailable => {
    if (error instanceof Error && error.name === "ProductNotSupportedError") {
      return EngineUnavailable.notThisEngine(engine, url.host, "another product")
    }
    const status = statusOf(error)
    if (status === undefined) return EngineUnavailable.unreachable(engine, url.host, error, secrets)
    return EngineUnavailable.unusable(engine, url.host, `answers HTTP ${status} to GET /`, error)
  }
  return transport.send({ method: "GET", path: "/", maxRetries: 0 }).pipe(
    Effect.tapError((error) =>
      isTransient(error)
        ? Effect.logWarning(`${engine} at ${url.host} ${failure(error).problem}; waiting for it`)
        : Effect.void
    ),
    Effect.retry({ schedule: retry, while: isTransient }),
    Effect.mapError(failure),
    Effect.flatMap(({ body }) => decode(RootVersion, "root document")(body)),
    Effect.flatMap(({ version }) => Either.map(checkVersion(flavor, url.host, version), () => version.number)),
    Effect.tap((version) => Effect.logInfo(`Search engine: ${engine} ${version} at ${url.host}`))
  )
}

const readCa = (engine: EngineName, host: string, caPath: Option.Option<string>) =>
  Option.match(caPath, {
    onNone: () => Effect.succeed(undefined),
    onSome: (path) =>
      Effect.tryPromise({
        try: () => fs.readFile(path, "utf8"),
        catch: (cause) =>
          EngineUnavailable.unusable(
            engine,
            host,
            `cannot be trusted: the CA file ${path} (GLOSS_ELASTICSEARCH_CA_PATH) cannot be read`,
            cause
          )
      })
  })

const engineLayer = <C>(
  flavor: Flavor,
  connect: (settings: ClientSettings<C>) => EngineTransport,
  options: EngineLayerOptions<C>
): Layer.Layer<SearchEngine, EngineUnavailable, GlossConfig> =>
  Layer.scoped(
    SearchEngine,
    Effect.gen(function*() {
      const { search } = yield* GlossConfig
      const engine = ENGINE_NAME[flavor]
      const url = new URL(Redacted.value(search.url))
      const ca = yield* readCa(engine, url.host, search.caPath)
      const transport = yield* Effect.acquireRelease(
        Effect.try({
          try: () => connect({ url: url.href, sslVerify: search.sslVerify, ca, Connection: options.Connection }),
          catch: (cause) => EngineUnavailable.unusable(engine, url.host, "cannot be used with this URL", cause)
        }),
        (transport) => transport.close
      )
      yield* startupCheck(flavor, transport, url, options.startupRetry ?? STARTUP_RETRY)
      return makeEngine(flavor, transport, search)
    })
  )

export const elasticsearchEngine = (options: EngineLayerOptions<typeof BaseConnection> = {}) =>
  engineLayer("elasticsearch", elasticsearchTransport, options)

export const openSearchEngine = (options: EngineLayerOptions<typeof OpenSearchConnection> = {}) =>
  engineLayer("opensearch", openSearchTransport, options)

export const ElasticsearchEngineLive: Layer.Layer<SearchEngine, EngineUnavailable, GlossConfig> = elasticsearchEngine()

export const OpenSearchEngineLive: Layer.Layer<SearchEngine, EngineUnavailable, GlossConfig> = openSearchEngine()
