/**
 * What the `small` suite measures on one server, Gloss or Argilla alike (both speak Argilla's API): the load of the
 * dataset through `PUT …/records/bulk`, then the searches of bench/lib/smallDataset.ts through
 * `POST /api/v1/me/datasets/{id}/records/search?limit=50`, each warmed up before it is timed.
 */
import { fetchRetrying } from "./http.js"
import { type LatencyResult, measureLatency } from "./latency.js"
import { cpuSecondsOf } from "./processes.js"
import { sendBulk } from "./searchDataset.js"
import { ARGILLA_KEY_HEADER, smallBulkBodies, textAndRangeBody, textOnlyBody, vectorBody } from "./smallDataset.js"

/**
 * A server under test: its base URL, the owner's key, its peak RSS so far in bytes, and the process whose CPU time
 * is the server's (every thread of it counted).
 */
export interface Target {
  readonly url: string
  readonly apiKey: string
  readonly peakRss: () => number
  readonly pid: number | undefined
}

export interface Sizes {
  readonly records: number
  readonly dimensions: number
  /** How long each latency is measured. */
  readonly seconds: number
}

export const LIMIT = 50
/** Each kind of search is sent this long, from one client, before it is timed: caches, JIT, a search index's refresh. */
export const warmUpSeconds = (sizes: Sizes) => Math.min(2, sizes.seconds)

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
export const megabytes = (bytes: number) => Math.round(bytes / 2 ** 20)

/** Each figure as soon as it is measured, on stderr: what a run got before it failed is not lost. */
export const progress = <A>(step: string, value: A): A => {
  console.error(`small: ${step} ${JSON.stringify(value)}`)
  return value
}

/** The whole load, 500 records a request from 4 senders (the bodies are built before the clock starts). */
export const ingest = async (target: Target, datasetId: string, records: number, dimensions: number | undefined) => {
  const bodies = smallBulkBodies(records, dimensions)
  const seconds = await sendBulk(target.url, datasetId, bodies, 4, { [ARGILLA_KEY_HEADER]: target.apiKey })
  return { seconds: round(seconds, 2), recordsPerSecond: Math.round(records / seconds), peakRssMB: megabytes(target.peakRss()) }
}

const searcher = (target: Target, datasetId: string) => async (body: unknown): Promise<number> => {
  const response = await fetchRetrying(`${target.url}/api/v1/me/datasets/${datasetId}/records/search?limit=${LIMIT}`, {
    method: "POST",
    headers: { "content-type": "application/json", [ARGILLA_KEY_HEADER]: target.apiKey },
    body: JSON.stringify(body)
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`search answered ${response.status}: ${text.slice(0, 300)}`)
  return (JSON.parse(text) as { total: number }).total
}

export interface SearchFigures {
  /** Seconds of the first vector search after the load (an engine may still be indexing); absent without vectors. */
  readonly firstVectorSearchSeconds?: number
  /**
   * The totals the server reported for the first five queries of each kind, summed: the same on every server that
   * did the same work, and on every version. Gloss's built-in engine counts exactly only up to
   * GLOSS_SEARCH_TRACK_TOTAL_HITS (10 000 by default) and reports that bound past it, so from 100 000 records its
   * `textOnly` is lower than an engine's that counts every match.
   */
  readonly matches: { readonly textAndRange: number; readonly textOnly: number }
  readonly textAndRange: { readonly oneClient: Measured; readonly eightClients: Measured }
  readonly vector: { readonly oneClient: Measured } | { readonly skipped: string }
  readonly textOnly: { readonly oneClient: Measured }
}

/** Latencies and the server's CPU time per request: on a machine other work loads, the latter moves less. */
export type Measured = LatencyResult & { readonly serverCpuMsPerRequest: number }

/** `measureLatency`, with what the server's process spent meanwhile divided by the requests. */
const measured = async (target: Target, clients: number, seconds: number, send: (i: number) => Promise<void>): Promise<Measured> => {
  const before = cpuSecondsOf(target.pid)
  const result = await measureLatency(clients, seconds, send)
  const cpu = cpuSecondsOf(target.pid) - before
  return { ...result, serverCpuMsPerRequest: result.requests === 0 ? 0 : round((cpu * 1000) / result.requests, 2) }
}

/** The searches, one kind after another; `vectorsSkipped` says why the dataset has no vector setting. */
export const searches = async (target: Target, datasetId: string, sizes: Sizes, vectorsSkipped?: string): Promise<SearchFigures> => {
  const search = searcher(target, datasetId)
  const byTextAndRange = (i: number) => search(textAndRangeBody(i)).then(() => undefined)
  const byText = (i: number) => search(textOnlyBody(i)).then(() => undefined)
  const byVector = (i: number) => search(vectorBody(i, sizes.records, sizes.dimensions)).then(() => undefined)
  const warmUp = warmUpSeconds(sizes)

  let firstVectorSearchSeconds: number | undefined
  if (vectorsSkipped === undefined) {
    const started = performance.now()
    await byVector(0)
    firstVectorSearchSeconds = progress("first vector search (s)", round((performance.now() - started) / 1000, 2))
  }
  await measureLatency(1, warmUp, byTextAndRange)
  let textAndRange = 0
  let textOnly = 0
  for (let i = 0; i < 5; i++) {
    textAndRange += await search(textAndRangeBody(i))
    textOnly += await search(textOnlyBody(i))
  }
  const matches = progress("matches of the first five queries", { textAndRange, textOnly })
  const oneClient = progress("text + range, 1 client", await measured(target, 1, sizes.seconds, byTextAndRange))
  const eightClients = progress("text + range, 8 clients", await measured(target, 8, sizes.seconds, byTextAndRange))
  let vector: SearchFigures["vector"] = { skipped: vectorsSkipped ?? "" }
  if (vectorsSkipped === undefined) {
    await measureLatency(1, warmUp, byVector)
    vector = { oneClient: progress("vector top 50, 1 client", await measured(target, 1, sizes.seconds, byVector)) }
  }
  await measureLatency(1, warmUp, byText)
  const text = progress("text only, 1 client", await measured(target, 1, sizes.seconds, byText))
  return {
    ...(firstVectorSearchSeconds === undefined ? {} : { firstVectorSearchSeconds }),
    matches,
    textAndRange: { oneClient, eightClients },
    vector,
    textOnly: { oneClient: text }
  }
}
