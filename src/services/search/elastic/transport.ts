/**
 * One narrow doorway to each official client: a request (method, path, query string, JSON or NDJSON body) and its
 * answer. Everything above it is shared by both engines; the clients still bring connection handling, TLS,
 * credentials from the URL, retries and (Elasticsearch) the product check.
 */
import { type BaseConnection, Client as ElasticClient } from "@elastic/elasticsearch"
import { Client as OpenSearchClient, type Connection as OpenSearchConnection } from "@opensearch-project/opensearch"
import { Effect } from "effect"
import type { Document } from "./documents.js"
import type { JsonObject } from "./json.js"

export interface EngineRequest {
  readonly method: "GET" | "PUT" | "POST" | "DELETE"
  readonly path: string
  readonly querystring?: Readonly<Record<string, string>>
  readonly body?: JsonObject
  /** NDJSON lines, for `_bulk`. */
  readonly bulkBody?: ReadonlyArray<Document>
  /** Statuses answered as responses rather than failures. */
  readonly ignore?: ReadonlyArray<number>
  /** The client's own retries (3 by default); the start-up check retries on its own schedule instead. */
  readonly maxRetries?: number
}

export interface EngineResponse {
  readonly statusCode: number
  readonly body: unknown
}

/** Fails with the client's own error (connection, timeout, HTTP status, product check). */
export interface EngineTransport {
  readonly send: (request: EngineRequest) => Effect.Effect<EngineResponse, unknown>
  readonly close: Effect.Effect<void>
}

export interface ClientSettings<C> {
  /** The full URL, credentials included: the client takes them from it. */
  readonly url: string
  readonly sslVerify: boolean
  readonly ca: string | undefined
  /** Tests: a transport-level fake in place of the HTTP connection. */
  readonly Connection?: C | undefined
}

const tls = (settings: ClientSettings<unknown>) => ({
  rejectUnauthorized: settings.sslVerify,
  ...(settings.ca === undefined ? {} : { ca: settings.ca })
})

/** At shutdown a client that does not close cleanly is worth a warning, not a crash. */
const closing = (close: () => Promise<unknown>): Effect.Effect<void> =>
  Effect.tryPromise(close).pipe(
    Effect.catchAll((error) => Effect.logWarning("The search engine client did not close cleanly", error.cause)),
    Effect.asVoid
  )

const options = (request: EngineRequest) => ({
  ignore: [...(request.ignore ?? [])],
  ...(request.maxRetries === undefined ? {} : { maxRetries: request.maxRetries })
})

const params = (request: EngineRequest) => ({
  method: request.method,
  path: request.path,
  ...(request.querystring === undefined ? {} : { querystring: { ...request.querystring } }),
  ...(request.body === undefined ? {} : { body: request.body }),
  ...(request.bulkBody === undefined ? {} : { bulkBody: [...request.bulkBody] })
})

export const elasticsearchTransport = (settings: ClientSettings<typeof BaseConnection>): EngineTransport => {
  const client = new ElasticClient({
    node: settings.url,
    tls: tls(settings),
    ...(settings.Connection === undefined ? {} : { Connection: settings.Connection })
  })
  return {
    send: (request) =>
      Effect.tryPromise({
        try: (signal) =>
          client.transport.request(params(request), { ...options(request), meta: true, signal }),
        catch: (error) => error
      }).pipe(Effect.map((result) => ({ statusCode: result.statusCode, body: result.body }))),
    close: closing(() => client.close())
  }
}

export const openSearchTransport = (settings: ClientSettings<typeof OpenSearchConnection>): EngineTransport => {
  const client = new OpenSearchClient({
    node: settings.url,
    ssl: tls(settings),
    ...(settings.Connection === undefined ? {} : { Connection: settings.Connection })
  })
  return {
    send: (request) =>
      Effect.tryPromise({
        try: (signal) => {
          const pending = client.transport.request(params(request), options(request))
          signal.addEventListener("abort", () => pending.abort())
          return pending
        },
        catch: (error) => error
      }).pipe(Effect.map((result) => ({ statusCode: result.statusCode ?? 0, body: result.body }))),
    close: closing(() => client.close())
  }
}
