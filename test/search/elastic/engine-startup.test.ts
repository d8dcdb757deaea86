/** Start-up: the version check, an unreachable cluster, the wrong engine; the typed error and its message. */
import * as net from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Schedule } from "effect"
import type { GlossConfig } from "../../../src/Config.js"
import { elasticsearchEngine, openSearchEngine } from "../../../src/services/search/elastic/engine.js"
import { EngineUnavailable } from "../../../src/services/search/elastic/errors.js"
import type { Flavor } from "../../../src/services/search/elastic/json.js"
import type { SearchEngine } from "../../../src/services/search/SearchEngine.js"
import { configLayer, FLAVORS } from "./engineSupport.js"
import { elasticsearchRoot, fakeCluster, openSearchRoot } from "./fakeCluster.js"

const failure = <E>(layer: Layer.Layer<SearchEngine, E, GlossConfig>, env: Record<string, string> = {}) =>
  Layer.build(layer).pipe(
    Effect.provide(configLayer(env)),
    Effect.scoped,
    Effect.flip,
    Logger.withMinimumLogLevel(LogLevel.None)
  )

const builds = <E>(layer: Layer.Layer<SearchEngine, E, GlossConfig>) =>
  Layer.build(layer).pipe(Effect.provide(configLayer()), Effect.scoped, Effect.orDie, Logger.withMinimumLogLevel(LogLevel.None))

const closedPort = Effect.promise(() =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 1))
    })
  })
)

const MINIMUM: Record<Flavor, readonly [old: string, minimum: string, named: string]> = {
  elasticsearch: ["8.4.3", "8.5.0", "Elasticsearch 8.5.0"],
  opensearch: ["2.3.0", "2.4.0", "OpenSearch 2.4.0"]
}

for (const setup of FLAVORS) {
  const [old, minimum, named] = MINIMUM[setup.flavor]
  describe(`${setup.flavor} start-up`, () => {
    it.live(`accepts ${minimum}`, () => builds(setup.layer(fakeCluster(setup.root(minimum)))))

    it.live(`refuses ${old}, naming the host, the version found and the minimum, never the credentials`, () =>
      Effect.gen(function*() {
        const error = yield* failure(setup.layer(fakeCluster(setup.root(old))))
        expect(error).toBeInstanceOf(EngineUnavailable)
        expect(error.message).toContain(`at search.test:9200 runs version ${old}; Gloss needs ${named} or later`)
        expect(error.message).not.toContain("s3cret")
      }))

    it.live("an unreachable cluster fails the layer with a typed error", () =>
      Effect.gen(function*() {
        const cluster = fakeCluster(setup.root(setup.version))
        cluster.answerRoot(() => "unreachable")
        const error = yield* failure(setup.layer(cluster))
        expect(error).toBeInstanceOf(EngineUnavailable)
        expect(error.message).toMatch(/at search\.test:9200 is unreachable \(.*ECONNREFUSED.*\)/)
      }))

    it.live("a closed port, for real: the typed error, without the credentials", () =>
      Effect.gen(function*() {
        const port = yield* closedPort
        const layer = setup.flavor === "elasticsearch"
          ? elasticsearchEngine({ startupRetry: Schedule.stop })
          : openSearchEngine({ startupRetry: Schedule.stop })
        const error = yield* failure(layer, { GLOSS_ELASTICSEARCH: `http://admin:s3cret-pass@127.0.0.1:${port}` })
        expect(error).toBeInstanceOf(EngineUnavailable)
        expect(error.message).toContain(`at 127.0.0.1:${port} is unreachable`)
        expect(error.message).not.toContain("s3cret")
      }))

    it.live("waits for a cluster that is still starting", () =>
      Effect.gen(function*() {
        const cluster = fakeCluster(setup.root(setup.version))
        let attempts = 0
        cluster.answerRoot(() => (++attempts <= 5 ? "unreachable" : { body: setup.root(setup.version) }))
        yield* builds(setup.layer(cluster, Schedule.spaced("10 millis").pipe(Schedule.intersect(Schedule.recurs(20)))))
        expect(attempts).toBe(6)
      }))

    it.live("does not wait when the cluster refuses the credentials", () =>
      Effect.gen(function*() {
        const cluster = fakeCluster(setup.root(setup.version))
        cluster.answerRoot(() => ({ status: 401, body: { error: { type: "security_exception" } } }))
        const error = yield* failure(setup.layer(cluster, Schedule.spaced("10 millis")))
        expect(error.message).toContain("at search.test:9200 answers HTTP 401 to GET /")
        expect(cluster.requests).toHaveLength(1)
      }))

    it.live("a CA file that cannot be read fails the layer", () =>
      Effect.gen(function*() {
        const error = yield* failure(setup.layer(fakeCluster(setup.root(setup.version))), {
          GLOSS_ELASTICSEARCH_CA_PATH: "/nonexistent/ca.pem"
        })
        expect(error.message).toContain("the CA file /nonexistent/ca.pem (GLOSS_ELASTICSEARCH_CA_PATH) cannot be read")
      }))
  })
}

describe("the wrong engine", () => {
  it.live("the Elasticsearch layer refuses a cluster that is not Elasticsearch", () =>
    Effect.gen(function*() {
      const cluster = fakeCluster(openSearchRoot("2.11.0"), { elasticProduct: false })
      const error = yield* failure(elasticsearchEngine({ Connection: cluster.ElasticConnection, startupRetry: Schedule.stop }))
      expect(error.message).toContain("Elasticsearch at search.test:9200 answers as another product, not Elasticsearch")
    }))

  it.live("the OpenSearch layer refuses Elasticsearch", () =>
    Effect.gen(function*() {
      const cluster = fakeCluster(elasticsearchRoot("8.15.0"))
      const error = yield* failure(openSearchEngine({ Connection: cluster.OpenSearchConnection, startupRetry: Schedule.stop }))
      expect(error.message).toContain("OpenSearch at search.test:9200 answers as Elasticsearch 8.15.0, not OpenSearch")
    }))
})
