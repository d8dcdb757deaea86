/**
 * `npm run bench -- small` run tiny (600 records, 1 s a measurement) through a server built from the current sources:
 * on each database here, with the built-in engine and, when OpenSearch answers, the OpenSearch engine; then with
 * `--peer argilla`, a real Argilla 2.8 on OpenSearch beside Gloss. Benchmarks are not timed tests: this checks that
 * every figure is reported and that every server found the same matches for the same queries (the same work was
 * measured); never how fast anything was.
 *
 * The peer needs .venv-argilla-server (scripts/argilla-server.sh) and OpenSearch: without them its case is skipped
 * with the reason printed, and with CI=true it fails instead.
 */
import { execFile } from "node:child_process"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { buildCli } from "../cli/support.js"
import { argillaServerProblem } from "../support/argillaServer.js"
import { dialects, POSTGRES_URL } from "../support/databases.js"
import { testEngines } from "../support/searchEngines.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const backends = dialects.map((dialect) => (dialect === "sqlite" ? "sqlite" : "postgres"))
// testEngines has printed why a default cluster it could not reach is left out (and failed the run with CI=true).
const openSearch = testEngines.find((engine) => engine.flavor === "opensearch")
const engines = openSearch === undefined ? ["database"] : ["database", "opensearch"]

const peerProblem = argillaServerProblem({ sdk: false }) ?? (openSearch === undefined ? "no OpenSearch answers" : undefined)
if (peerProblem !== undefined) {
  if (process.env.CI === "true") throw new Error(`the small bench's Argilla peer is required with CI=true: ${peerProblem}`)
  console.warn(`[gloss tests] Skipping the small bench's Argilla peer: ${peerProblem}`)
}

const runSmall = async (args: ReadonlyArray<string>) => {
  const server = await buildCli("shipping")
  const { stdout } = await promisify(execFile)(
    path.join(ROOT, "node_modules/.bin/tsx"),
    ["bench/run.ts", "small", "--records", "600", "--seconds", "1", ...args],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        GLOSS_BENCH_SERVER: server,
        GLOSS_TEST_DATABASE_URL: POSTGRES_URL,
        ...(openSearch === undefined ? {} : { GLOSS_BENCH_OPENSEARCH_URL: openSearch.url })
      },
      maxBuffer: 16 * 2 ** 20,
      timeout: 420_000
    }
  )
  const small = JSON.parse(stdout).results.small
  expect(small.records).toBe(600)
  expect(small.loadAverage.atStart).toHaveLength(3)
  expect(small.loadAverage.atEnd).toHaveLength(3)
  return small
}

const latency = expect.objectContaining({
  requests: expect.any(Number),
  requestsPerSecond: expect.any(Number),
  latencyMs: { p50: expect.any(Number), p95: expect.any(Number), p99: expect.any(Number) }
})

/** Every figure of one server's run; `vectors: false` for a peer whose dataset has no vector setting. */
const expectEveryFigure = (run: Record<string, any>, what: string, vectors = true) => {
  expect(run, what).toBeDefined()
  expect(run.skipped, what).toBeUndefined()
  expect(run.ingest.recordsPerSecond, what).toBeGreaterThan(0)
  expect(run.ingest.seconds, what).toBeGreaterThan(0)
  expect(run.ingest.peakRssMB, what).toBeGreaterThan(0)
  expect(run.textAndRange.oneClient, what).toEqual(latency)
  expect(run.textAndRange.eightClients, what).toEqual(latency)
  expect(run.textOnly.oneClient, what).toEqual(latency)
  if (vectors) {
    expect(run.vector.oneClient, what).toEqual(latency)
    expect(run.firstVectorSearchSeconds, what).toEqual(expect.any(Number))
  } else {
    expect(run.vector, what).toEqual({ skipped: expect.stringContaining("could not publish a dataset with a 4-dimension vector setting") })
  }
  // Some of the 600 records match; a range leaves out some of what the word alone finds.
  expect(run.matches.textAndRange, what).toBeGreaterThan(0)
  expect(run.matches.textOnly, what).toBeGreaterThan(run.matches.textAndRange)
  expect(run.peakRssMB, what).toBeGreaterThanOrEqual(run.ingest.peakRssMB)
}

describe("npm run bench -- small, tiny", () => {
  it(`runs on ${backends.join(", ")} with the ${engines.join(" and ")} engine${engines.length > 1 ? "s" : ""} and reports every figure`, async () => {
    const small = await runSmall(["--backends", backends.join(","), "--engines", engines.join(",")])
    for (const backend of backends) {
      for (const engine of engines) expectEveryFigure(small[backend]?.[engine], `${backend}, ${engine}`)
      // The same dataset and queries: the same matches on every engine.
      expect(small[backend].opensearch?.matches ?? small[backend].database.matches).toEqual(small[backend].database.matches)
      expect(small[backend].argilla).toBeUndefined()
    }
  }, 600_000)

  it.skipIf(peerProblem !== undefined)("with --peer argilla, reports Argilla's figures and the ratios beside Gloss's", async () => {
    const small = await runSmall(["--backends", "sqlite", "--engines", "database", "--peer", "argilla"])
    expectEveryFigure(small.sqlite.database, "gloss")
    // Argilla 2.8 cannot publish a vector setting on OpenSearch 2.19; a peer that could would report its vectors.
    expectEveryFigure(small.sqlite.argilla, "argilla", small.sqlite.argilla.vectors === true)
    expect(small.sqlite.argilla.server).toMatch(/^argilla-server 2\.8\.0 on SQLite and OpenSearch /)
    expect(small.sqlite.argilla.matches).toEqual(small.sqlite.database.matches)
    expect(small.sqlite.glossOverArgilla).toEqual({
      database: { textAndRangeP50: expect.any(Number), textAndRangeP99: expect.any(Number) }
    })
    const { p50 } = small.sqlite.database.textAndRange.oneClient.latencyMs
    expect(small.sqlite.glossOverArgilla.database.textAndRangeP50)
      .toBeCloseTo(p50 / small.sqlite.argilla.textAndRange.oneClient.latencyMs.p50, 2)
  }, 600_000)
})
