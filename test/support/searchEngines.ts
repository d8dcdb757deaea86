/**
 * The real Elasticsearch and OpenSearch clusters the search tests run against. scripts/engines.sh (run by
 * scripts/services.sh) starts OpenSearch on 9200, the newest Elasticsearch 8.x on 9201 and the oldest we test on
 * 9202; GLOSS_TEST_ELASTICSEARCH_URL / GLOSS_TEST_OPENSEARCH_URL name other clusters instead (comma-separated for
 * several; credentials in the URL; GLOSS_TEST_SEARCH_SSL_VERIFY=false for a self-signed certificate).
 *
 * A default cluster that does not answer is skipped with a printed reason; with CI=true, or when the variable
 * names it, that fails the run instead (like PostgreSQL in databases.ts).
 */
import * as http from "node:http"
import * as https from "node:https"
import { Effect, Layer } from "effect"
import type { Flavor } from "../../src/services/search/elastic/json.js"
import { send } from "./datasets.js"

export interface TestEngine {
  readonly flavor: Flavor
  /** "Elasticsearch 8.19.21" */
  readonly name: string
  readonly version: string
  readonly url: string
}

const ENGINES = [
  {
    flavor: "elasticsearch",
    label: "Elasticsearch",
    variable: "GLOSS_TEST_ELASTICSEARCH_URL",
    defaults: ["http://127.0.0.1:9201", "http://127.0.0.1:9202"]
  },
  { flavor: "opensearch", label: "OpenSearch", variable: "GLOSS_TEST_OPENSEARCH_URL", defaults: ["http://127.0.0.1:9200"] }
] as const

export const sslVerify = process.env.GLOSS_TEST_SEARCH_SSL_VERIFY ?? "true"

/** A request straight to a cluster (past Gloss): its status and parsed body; rejects when nothing answers. */
export const clusterRequest = (base: string, method: string, path: string, timeoutMs = 30_000) =>
  new Promise<{ readonly status: number; readonly body: unknown }>((resolve, reject) => {
    const url = new URL(path, base)
    const auth = url.username === "" ? undefined : `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    const request = (url.protocol === "https:" ? https : http).request(
      url,
      { method, auth, timeout: timeoutMs, rejectUnauthorized: sslVerify !== "false" },
      (response) => {
        let text = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (text += chunk))
        response.on("end", () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: text === "" ? null : JSON.parse(text) })
          } catch {
            reject(new Error(`${method} ${path} does not answer JSON`))
          }
        })
      }
    )
    request.on("timeout", () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)))
    request.on("error", reject)
    request.end()
  })

/** GET / of a cluster: its root document, or why there is none. */
const rootDocument = (url: string): Promise<{ readonly body?: unknown; readonly problem?: string }> =>
  clusterRequest(url, "GET", "/", 3000).then(
    ({ body, status }) => (status === 200 ? { body } : { problem: `GET / answers HTTP ${status}` }),
    (error: Error) => ({ problem: error.message || error.name })
  )

const redacted = (url: string) => url.replace(/\/\/[^@/]*@/, "//***@")

const probe = async (engine: (typeof ENGINES)[number], url: string): Promise<TestEngine | string> => {
  const { body, problem } = await rootDocument(url)
  if (problem !== undefined) return problem
  const version = (body as { version?: { number?: unknown; distribution?: unknown } }).version
  if (typeof version?.number !== "string") return "its root document has no version number"
  const isOpenSearch = version.distribution === "opensearch"
  if (isOpenSearch !== (engine.flavor === "opensearch")) {
    return `it is ${isOpenSearch ? "OpenSearch" : "Elasticsearch"} ${version.number}, not ${engine.label}`
  }
  return { flavor: engine.flavor, name: `${engine.label} ${version.number}`, version: version.number, url }
}

const discover = async (): Promise<ReadonlyArray<TestEngine>> => {
  const found: Array<TestEngine> = []
  for (const engine of ENGINES) {
    const configured = process.env[engine.variable]
    const urls = configured === undefined ? engine.defaults : configured.split(",").map((url) => url.trim()).filter((url) => url !== "")
    for (const url of urls) {
      const result = await probe(engine, url)
      if (typeof result !== "string") {
        found.push(result)
        continue
      }
      const where = `${engine.label} at ${redacted(url)}`
      if (process.env.CI === "true") throw new Error(`${where} is required with CI=true but cannot be used: ${result}`)
      if (configured !== undefined) throw new Error(`${where} (${engine.variable}) cannot be used: ${result}`)
      console.warn(
        `[gloss tests] Skipping the search tests on ${where}: ${result}. ` +
          `Run scripts/engines.sh (or set ${engine.variable}) to include them.`
      )
    }
  }
  return found
}

/** The clusters answering here: Elasticsearch first, then OpenSearch. */
export const testEngines: ReadonlyArray<TestEngine> = await discover()

/** The environment that points a Gloss server at `engine`. */
export const serverEnv = (engine: TestEngine): Record<string, string> => ({
  GLOSS_SEARCH_ENGINE: engine.flavor,
  GLOSS_ELASTICSEARCH: engine.url,
  GLOSS_ELASTICSEARCH_SSL_VERIFY: sslVerify
})

/**
 * Deletes every dataset of the test server when the layer is released, so that a long-lived cluster does not
 * collect one index per test run (a node refuses new shards past 1 000). Provide it on top of TestServerLive.
 */
export const DeleteDatasetsAtEnd = Layer.scopedDiscard(Effect.addFinalizer(() =>
  Effect.gen(function*() {
    const listed = yield* send("GET", "/api/v1/me/datasets")
    const items = (listed.body as { items?: Array<{ id: string }> }).items ?? []
    yield* Effect.forEach(items, ({ id }) => send("DELETE", `/api/v1/datasets/${id}`), { discard: true })
  }).pipe(Effect.orDie)
))
