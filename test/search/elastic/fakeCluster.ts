/**
 * A transport-level fake of a cluster, for both official clients: their `Connection` option takes a class, and
 * these classes answer from a script instead of the network. Everything above the socket (serialization, NDJSON,
 * query strings, status handling, retries, the product check) is the real client's.
 */
import { EventEmitter } from "node:events"
import * as http from "node:http"
import * as net from "node:net"
import {
  BaseConnection,
  type ConnectionRequestOptions,
  type ConnectionRequestOptionsAsStream,
  type ConnectionRequestParams,
  type ConnectionRequestResponse,
  type ConnectionRequestResponseAsStream,
  errors
} from "@elastic/elasticsearch"
import { Connection as OpenSearchConnection } from "@opensearch-project/opensearch"

export interface Recorded {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  /** Parsed JSON, or the parsed lines of an NDJSON body. */
  readonly body: unknown
  readonly headers: Readonly<Record<string, unknown>>
}

export type Reply = { readonly status?: number; readonly body: unknown } | "unreachable"
export type Handler = (request: Recorded) => Reply | undefined

export const elasticsearchRoot = (number: string) => ({
  name: "node-1",
  cluster_name: "fake",
  version: { number, build_flavor: "default", lucene_version: "9.11.1" },
  tagline: "You Know, for Search"
})

export const openSearchRoot = (number: string) => ({
  name: "node-1",
  cluster_name: "fake",
  version: { distribution: "opensearch", number, lucene_version: "9.7.0" },
  tagline: "The OpenSearch Project: https://opensearch.org/"
})

const parseBody = (raw: string, contentType: unknown): unknown => {
  if (raw === "") return undefined
  if (String(contentType).includes("ndjson")) {
    return raw.split("\n").filter((line) => line !== "").map((line): unknown => JSON.parse(line))
  }
  return JSON.parse(raw)
}

const record = (method: string, pathAndQuery: string, raw: string, headers: Record<string, unknown>): Recorded => {
  const url = new URL(pathAndQuery, "http://fake")
  return {
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: parseBody(raw, headers["content-type"]),
    headers
  }
}

export interface FakeCluster {
  readonly requests: Array<Recorded>
  /** Answers the requests it recognises (returning a reply), except `GET /`; later handlers take precedence. */
  readonly on: (handler: Handler) => void
  /** How `GET /` (the start-up check, `info`) is answered from now on. */
  readonly answerRoot: (reply: () => Reply) => void
  readonly ElasticConnection: typeof BaseConnection
  readonly OpenSearchConnection: typeof OpenSearchConnection
}

/**
 * `root` answers `GET /`; anything unscripted answers `{acknowledged: true}`. `elasticProduct: false` leaves out
 * the `X-Elastic-Product` header, as a cluster that is not Elasticsearch would.
 */
export const fakeCluster = (root: unknown, options: { readonly elasticProduct?: boolean } = {}): FakeCluster => {
  const requests: Array<Recorded> = []
  const handlers: Array<Handler> = []
  let rootReply = (): Reply => ({ body: root })
  const answer = (request: Recorded): Reply => {
    requests.push(request)
    if (request.method === "GET" && request.path === "/") return rootReply()
    for (const handler of [...handlers].reverse()) {
      const reply = handler(request)
      if (reply !== undefined) return reply
    }
    return { body: { acknowledged: true } }
  }
  const headers = {
    "content-type": "application/json",
    ...(options.elasticProduct === false ? {} : { "x-elastic-product": "Elasticsearch" })
  }

  class ElasticConnection extends BaseConnection {
    override request(params: ConnectionRequestParams, options: ConnectionRequestOptions): Promise<ConnectionRequestResponse>
    override request(
      params: ConnectionRequestParams,
      options: ConnectionRequestOptionsAsStream
    ): Promise<ConnectionRequestResponseAsStream>
    override async request(
      params: ConnectionRequestParams
    ): Promise<ConnectionRequestResponse | ConnectionRequestResponseAsStream> {
      const raw = typeof params.body === "string" || Buffer.isBuffer(params.body) ? params.body.toString() : ""
      const query = params.querystring === undefined || params.querystring === "" ? "" : `?${params.querystring}`
      const all = { ...this.headers, ...params.headers }
      const reply = answer(record(params.method, params.path + query, raw, all))
      if (reply === "unreachable") throw new errors.ConnectionError("connect ECONNREFUSED 10.0.0.1:9200")
      return { statusCode: reply.status ?? 200, headers, body: JSON.stringify(reply.body) }
    }

    override async close() {}
  }

  /** Replaces only the HTTP call: the real Connection builds the request and reads the response. */
  class FakeOpenSearchConnection extends OpenSearchConnection {
    constructor(opts?: ConstructorParameters<typeof OpenSearchConnection>[0]) {
      super(opts)
      this.makeRequest = (params: { method: string; path: string; headers: Record<string, unknown> }) =>
        new FakeRequest((raw) => {
          const reply = answer(record(params.method, params.path, raw, params.headers))
          if (reply === "unreachable") return new Error("connect ECONNREFUSED 10.0.0.1:9200")
          const response = new http.IncomingMessage(new net.Socket())
          response.statusCode = reply.status ?? 200
          response.headers = headers
          response.push(JSON.stringify(reply.body))
          response.push(null)
          return response
        })
    }
  }

  return {
    requests,
    on: (handler) => void handlers.push(handler),
    answerRoot: (reply) => {
      rootReply = reply
    },
    ElasticConnection,
    OpenSearchConnection: FakeOpenSearchConnection
  }
}

/** What the OpenSearch Connection uses of `http.ClientRequest`. */
class FakeRequest extends EventEmitter {
  constructor(private readonly respond: (body: string) => http.IncomingMessage | Error) {
    super()
  }
  setNoDelay() {}
  abort() {
    this.emit("abort")
  }
  end(body?: string | Buffer | null) {
    const result = this.respond(body === undefined || body === null ? "" : body.toString())
    process.nextTick(() => this.emit(result instanceof Error ? "error" : "response", result))
  }
}

