/**
 * `npm run bench -- small [--records N] [--dimensions D] [--seconds S] [--backends sqlite,postgres]
 * [--engines database,opensearch] [--peer argilla]`: a small dataset (20 000 records by default: a short and a longer
 * Zipf text, an integer `year`, a 4-dimension vector; bench/lib/smallDataset.ts) on each backend × search engine:
 * the load's records/s, then text + `year` range at 1 and 8 clients, vector top 50 and text alone at 1 client.
 *
 * The suites at 100 000 records and more say nothing of a small dataset, where a fixed cost a request (parsing,
 * planning, a round trip to the engine) is most of the time: a regression there once went unseen. The figures have
 * no target of their own; they are read against another version (`compare <ref> small --suite-code work`) and, with
 * `--peer argilla`, against Argilla 2.8 answering the same requests on OpenSearch in the same run (`argilla` beside
 * Gloss's engines, and `glossOverArgilla`, the ratios of text + range p50 and p99).
 */
import * as os from "node:os"
import type { SuiteOptions } from "../run.js"
import { OPENSEARCH_URL, openSearchAt, throughArgilla } from "../lib/argillaPeer.js"
import { BENCH_API_KEY, startGloss } from "../lib/processes.js"
import { argillaApi, createSmallDataset } from "../lib/smallDataset.js"
import { ingest, LIMIT, megabytes, progress, searches, type SearchFigures, type Sizes, warmUpSeconds } from "../lib/smallMeasure.js"
import { QUERY_WORDS } from "../lib/corpus.js"
import { withPostgres } from "./ingest.js"

const BACKENDS = ["sqlite", "postgres"] as const
const ENGINES = ["database", "opensearch"] as const
type Backend = (typeof BACKENDS)[number]
type Engine = (typeof ENGINES)[number]

const listOption = <A extends string>(name: string, given: string | undefined, fallback: A, known: ReadonlyArray<A>): Array<A> => {
  const items = (given ?? fallback).split(",").map((item) => item.trim())
  const unknown = items.filter((item) => !known.includes(item as A))
  if (unknown.length > 0) throw new Error(`--${name}: unknown ${unknown.join(", ")} (known: ${known.join(", ")})`)
  return items as Array<A>
}

const numberOption = (name: string, given: string | undefined, fallback: number, valid: (n: number) => boolean, what: string) => {
  const value = given === undefined ? fallback : Number(given)
  if (!valid(value)) throw new Error(`--${name} must be ${what}, got ${given}`)
  return value
}

/** Gloss on one backend (its environment) and one engine: a fresh server and dataset, loaded and searched. */
const throughGloss = async (backendEnv: Record<string, string>, engine: Engine, sizes: Sizes) => {
  const engineEnv = engine === "database"
    ? { GLOSS_SEARCH_ENGINE: "database" }
    : { GLOSS_SEARCH_ENGINE: "opensearch", GLOSS_ELASTICSEARCH: OPENSEARCH_URL }
  if (engine === "opensearch") {
    const cluster = await openSearchAt(OPENSEARCH_URL)
    if ("problem" in cluster) return { skipped: cluster.problem }
  }
  const server = await startGloss({ ...backendEnv, ...engineEnv })
  let datasetId: string | undefined
  try {
    const call = argillaApi(server.url, BENCH_API_KEY)
    datasetId = await createSmallDataset(call, `small-${Date.now()}`, sizes.dimensions)
    await call("PUT", `/datasets/${datasetId}/publish`)
    const target = { url: server.url, apiKey: BENCH_API_KEY, peakRss: server.peakRss, pid: server.child.pid }
    const loaded = progress(`${engine} ingest`, await ingest(target, datasetId, sizes.records, sizes.dimensions))
    return { ingest: loaded, ...(await searches(target, datasetId, sizes)), peakRssMB: megabytes(server.peakRss()) }
  } catch (error) {
    // A refused connection says only that the server is gone; its exit says how.
    const { exitCode, signalCode } = server.child
    if (exitCode === null && signalCode === null) throw error
    throw new Error(
      `Gloss (${engine} engine) exited with ${exitCode ?? signalCode} during the run, peak RSS ${megabytes(server.peakRss())} MB ` +
        "(GLOSS_BENCH_SERVER_LOG=<file> keeps what it printed)",
      { cause: error }
    )
  } finally {
    await server.stop()
    // Gloss names a dataset's index `gloss.<id>`; the cluster is shared, so the index goes with the run.
    if (engine === "opensearch" && datasetId !== undefined) {
      await fetch(`${OPENSEARCH_URL}/gloss.${datasetId}`, { method: "DELETE" }).catch(() => undefined)
    }
  }
}

const isFigures = (run: unknown): run is SearchFigures => typeof run === "object" && run !== null && "textAndRange" in run
const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1000) / 1000)

/** Gloss / Argilla for text + range at 1 client, each engine measured in this run against the peer. */
const glossOverArgilla = (runs: Record<string, unknown>, peer: unknown) => {
  if (!isFigures(peer)) return undefined
  const ratios: Record<string, { textAndRangeP50: number | null; textAndRangeP99: number | null }> = {}
  for (const engine of ENGINES) {
    const run = runs[engine]
    if (!isFigures(run)) continue
    const [gloss, argilla] = [run.textAndRange.oneClient.latencyMs, peer.textAndRange.oneClient.latencyMs]
    ratios[engine] = { textAndRangeP50: ratio(gloss.p50, argilla.p50), textAndRangeP99: ratio(gloss.p99, argilla.p99) }
  }
  return ratios
}

const onBackend = async (backend: Backend, engines: ReadonlyArray<Engine>, peer: boolean, sizes: Sizes) => {
  const runs: Record<string, unknown> = {}
  for (const engine of engines) {
    progress("run", `${backend}, ${engine} engine`)
    runs[engine] = backend === "sqlite"
      ? await throughGloss({}, engine, sizes)
      : await withPostgres((url) => throughGloss({ GLOSS_DATABASE_URL: url }, engine, sizes))
  }
  if (peer) {
    progress("run", `${backend}, Argilla on OpenSearch`)
    runs.argilla = await throughArgilla(backend === "sqlite" ? "sqlite" : "postgresql", sizes)
    const ratios = glossOverArgilla(runs, runs.argilla)
    if (ratios !== undefined) runs.glossOverArgilla = ratios
  }
  return runs
}

const loadAverage = () => os.loadavg().map((load) => Number(load.toFixed(2)))

export const smallSuite = async (options: SuiteOptions) => {
  const records = numberOption("records", options.records, 20_000, (n) => Number.isInteger(n) && n >= 100, "an integer ≥ 100")
  const dimensions = numberOption("dimensions", options.dimensions, 4, (n) => Number.isInteger(n) && n >= 1 && n <= 4096, "an integer from 1 to 4096")
  const seconds = numberOption("seconds", options.seconds, 10, (n) => n > 0, "a positive number")
  const backends = listOption("backends", options.backends, "sqlite", BACKENDS)
  const engines = listOption("engines", options.engines, "database", ENGINES)
  if (options.peer !== undefined && options.peer !== "argilla") throw new Error(`--peer is argilla, got ${options.peer}`)
  const sizes: Sizes = { records, dimensions, seconds }
  const atStart = loadAverage()
  const results: Record<string, unknown> = {}
  for (const backend of backends) results[backend] = await onBackend(backend, engines, options.peer === "argilla", sizes)
  return {
    name: `small: ${records} records (a ~60- and a ~300-character Zipf text, an integer year over 1900–2025, a ` +
      `${dimensions}-dimension vector), POST /api/v1/me/datasets/{id}/records/search?limit=${LIMIT}`,
    records,
    dimensions,
    // A sentence, not numbers: compare's table would read a number named for seconds as a figure to lower.
    timing: `each latency measured for ${seconds} s, after ${warmUpSeconds(sizes)} s of warm-up for each kind of search`,
    queries: {
      words: QUERY_WORDS,
      textAndRange: "a word of each of five frequency bands in turn, with year in a range of 10, 30 or 60 years in turn",
      vector: "top 50 by cosine similarity to a vector no record has",
      textOnly: "the same words without the range"
    },
    // The machine is shared: how busy it was around the run says how far to trust a figure.
    loadAverage: { atStart, atEnd: loadAverage() },
    ...results
  }
}
