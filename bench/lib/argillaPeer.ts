/**
 * The `small` suite's peer: a real Argilla 2.8 server (the venv of scripts/argilla-server.sh, started as the migrate
 * tests start it, by test/support/argillaServer.ts) on OpenSearch, loaded and searched exactly as Gloss is.
 *
 * Argilla 2.8.0 creates its OpenSearch indices with `index.knn: false` and maps vectors as `knn_vector`, which the
 * k-NN plugin of OpenSearch 2.19 refuses, so publishing a dataset with a vector setting fails there. The peer then
 * loads the same dataset without its vector setting, and its vector figures are reported as skipped with that
 * refusal as the reason: its ingest carries no vectors, which Gloss's does.
 */
import type { ArgillaServer } from "../../test/support/argillaServer.js"
import { rssOf } from "./processes.js"
import { argillaApi, createSmallDataset } from "./smallDataset.js"
import { ingest, megabytes, progress, searches, type Sizes } from "./smallMeasure.js"

export const OPENSEARCH_URL = process.env.GLOSS_BENCH_OPENSEARCH_URL ?? "http://127.0.0.1:9200"

/** OpenSearch's version at `url`, or why there is none to use. */
export const openSearchAt = async (url: string): Promise<{ readonly version: string } | { readonly problem: string }> => {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
    const body = (await response.json()) as { version?: { number?: string; distribution?: string } }
    if (body.version?.distribution !== "opensearch") return { problem: `${url} is not OpenSearch` }
    return { version: body.version.number ?? "?" }
  } catch (error) {
    return { problem: `OpenSearch unreachable at ${url} (${error instanceof Error ? error.message : String(error)})` }
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 400)

/**
 * A published dataset on the peer: with the vector setting when Argilla can publish it, else without it (the
 * first attempt deleted, and its index if any).
 */
const publishedDataset = async (server: ArgillaServer, name: string, dimensions: number, engine: string) => {
  const call = argillaApi(server.url, server.ownerApiKey)
  const withVectors = await createSmallDataset(call, name, dimensions)
  try {
    await call("PUT", `/datasets/${withVectors}/publish`)
    return { id: withVectors, vectorsSkipped: undefined }
  } catch (error) {
    // The cluster's own words are deep in Argilla's 500 (a Python repr of OpenSearch's JSON): its first `reason`.
    const reason = /reason\W+([^"\\]+)/.exec(String(error))?.[1] ?? message(error)
    const vectorsSkipped = `Argilla 2.8 could not publish a dataset with a ${dimensions}-dimension vector setting on ${engine} ` +
      `(it maps vectors as knn_vector in an index with index.knn false), so the peer's dataset has no vectors; ` +
      `${engine} answered: ${reason}`
    progress("peer without vectors", vectorsSkipped)
    await call("DELETE", `/datasets/${withVectors}`).catch(() => undefined)
    await fetch(`${OPENSEARCH_URL}/rg.${withVectors}`, { method: "DELETE" }).catch(() => undefined)
    const id = await createSmallDataset(call, `${name}-no-vectors`, undefined)
    await call("PUT", `/datasets/${id}/publish`)
    return { id, vectorsSkipped }
  }
}

/** The peer's figures on `database` (Argilla's SQLite or PostgreSQL), or `{ skipped }` with why it cannot run. */
export const throughArgilla = async (database: "sqlite" | "postgresql", sizes: Sizes) => {
  // Imported only for a run with the peer: test/support/argillaServer.ts probes PostgreSQL when it loads.
  const { argillaServerProblem, startArgillaServer } = await import("../../test/support/argillaServer.js")
  const problem = argillaServerProblem({ sdk: false })
  if (problem !== undefined) return { skipped: `no Argilla server: ${problem}` }
  const cluster = await openSearchAt(OPENSEARCH_URL)
  if ("problem" in cluster) return { skipped: cluster.problem }
  const engine = `OpenSearch ${cluster.version}`
  // As it starts by default (a line a request on stdout, as Gloss writes one too).
  const server = await startArgillaServer({ database, search: { engine: "opensearch", url: OPENSEARCH_URL } })
  try {
    const { id, vectorsSkipped } = await publishedDataset(server, `small-${Date.now()}`, sizes.dimensions, engine)
    const target = { url: server.url, apiKey: server.ownerApiKey, peakRss: () => rssOf(server.serverPid, "VmHWM"), pid: server.serverPid }
    const loaded = progress("argilla ingest", await ingest(target, id, sizes.records, vectorsSkipped === undefined ? sizes.dimensions : undefined))
    return {
      server: `argilla-server 2.8.0 on ${database === "sqlite" ? "SQLite" : "PostgreSQL"} and ${engine}`,
      vectors: vectorsSkipped === undefined,
      ingest: loaded,
      ...(await searches(target, id, sizes, vectorsSkipped)),
      peakRssMB: megabytes(target.peakRss())
    }
  } catch (error) {
    throw new Error(`${message(error)}\n--- argilla-server:\n${server.output().slice(-3000)}`)
  } finally {
    await server.stop()
  }
}
