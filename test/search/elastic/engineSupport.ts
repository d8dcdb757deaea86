/** The two engines' layers over a fake cluster, and scripted answers shared by the adapter tests. */
import { Effect, Layer, Logger, LogLevel, Schedule } from "effect"
import { GlossConfig } from "../../../src/Config.js"
import { elasticsearchEngine, openSearchEngine } from "../../../src/services/search/elastic/engine.js"
import type { EngineUnavailable } from "../../../src/services/search/elastic/errors.js"
import type { Flavor } from "../../../src/services/search/elastic/json.js"
import { SearchEngine, type SearchEngineShape } from "../../../src/services/search/SearchEngine.js"
import { elasticsearchRoot, type FakeCluster, fakeCluster, openSearchRoot, type Recorded, type Reply } from "./fakeCluster.js"

export const CLUSTER_URL = "http://elastic:s3cret-pass@search.test:9200"

export const configLayer = (env: Record<string, string> = {}) =>
  GlossConfig.fromRecord({
    GLOSS_ELASTICSEARCH: CLUSTER_URL,
    GLOSS_ES_RECORDS_INDEX_SHARDS: "2",
    GLOSS_ES_RECORDS_INDEX_REPLICAS: "1",
    ...env
  })

export interface FlavorSetup {
  readonly flavor: Flavor
  readonly root: (version: string) => unknown
  readonly version: string
  readonly refresh: string
  readonly layer: (
    cluster: FakeCluster,
    retry?: Schedule.Schedule<unknown, unknown>
  ) => Layer.Layer<SearchEngine, EngineUnavailable, GlossConfig>
}

export const FLAVORS: ReadonlyArray<FlavorSetup> = [
  {
    flavor: "elasticsearch",
    root: elasticsearchRoot,
    version: "8.15.0",
    refresh: "wait_for",
    layer: (cluster, retry = Schedule.stop) =>
      elasticsearchEngine({ Connection: cluster.ElasticConnection, startupRetry: retry })
  },
  {
    flavor: "opensearch",
    root: openSearchRoot,
    version: "2.11.0",
    refresh: "true",
    layer: (cluster, retry = Schedule.stop) =>
      openSearchEngine({ Connection: cluster.OpenSearchConnection, startupRetry: retry })
  }
]

/** Runs `use` with the engine of `setup` over a fresh fake cluster, which it also passes. */
export const withEngine = <A>(
  setup: FlavorSetup,
  use: (engine: SearchEngineShape, cluster: FakeCluster) => Effect.Effect<A>,
  script: (cluster: FakeCluster) => void = () => {}
) => {
  const cluster = fakeCluster(setup.root(setup.version))
  script(cluster)
  return Effect.flatMap(SearchEngine, (engine) => use(engine, cluster)).pipe(
    Effect.provide(setup.layer(cluster).pipe(Layer.provide(configLayer()))),
    Effect.orDie,
    Logger.withMinimumLogLevel(LogLevel.Warning)
  )
}

/** Requests after the start-up check. */
export const calls = (cluster: FakeCluster): ReadonlyArray<Recorded> => cluster.requests.slice(1)

const isLines = (body: unknown): body is ReadonlyArray<Record<string, { readonly _id?: string }>> => Array.isArray(body)

/** A `_bulk` answer with one successful item per action line of the request. */
export const bulkOk = (request: Recorded): Reply | undefined => {
  if (!request.path.endsWith("/_bulk") || !isLines(request.body)) return undefined
  const items = request.body.flatMap((line) => {
    const [action, meta] = Object.entries(line)[0] ?? []
    return action === "index" || action === "delete"
      ? [{ [action]: { _id: meta?._id, status: action === "index" ? 201 : 200, result: "ok" } }]
      : []
  })
  return { body: { took: 1, errors: false, items } }
}
