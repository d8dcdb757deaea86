/**
 * `npm run bench -- scale` run small (its `--records N` option exists so that CI can run it): 3 000 records
 * through a server built from the current sources, on each database here, with the ANN index switched on from 500
 * vectors so that every vector figure goes through it. Benchmarks are not timed tests: this checks that the run
 * completes and reports every figure, that recall@50 holds, and that filtered vector search returns `limit` whenever
 * that many records match; never how fast anything was.
 */
import { execFile } from "node:child_process"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { buildCli } from "../cli/support.js"
import { dialects, POSTGRES_URL } from "../support/databases.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const backends = dialects.map((dialect) => (dialect === "sqlite" ? "sqlite" : "postgres")).join(",")

const latency = expect.objectContaining({ p50: expect.any(Number), p95: expect.any(Number), p99: expect.any(Number) })

describe("npm run bench -- scale, small", () => {
  it(`runs on ${backends} and reports every figure`, async () => {
    const server = await buildCli("shipping")
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["bench/run.ts", "scale", "--records", "3000", "--seconds", "1", "--backends", backends],
      {
        cwd: ROOT,
        env: { ...process.env, GLOSS_BENCH_SERVER: server, GLOSS_VECTOR_ANN_FROM: "500", GLOSS_TEST_DATABASE_URL: POSTGRES_URL },
        maxBuffer: 16 * 2 ** 20,
        timeout: 240_000
      }
    )
    const scale = JSON.parse(stdout).results.scale
    for (const backend of backends.split(",")) {
      const run = scale[backend]
      expect(run, backend).toBeDefined()
      expect(run.ingest.segments).toHaveLength(10)
      expect(run.ingest.segments.at(-1).upTo).toBe(3000)
      expect(typeof run.ingest.drift).toBe("number")
      expect(run.textAndTwoFilters.latencyMs).toEqual(latency)
      expect(run.vector.oneClient).toEqual(latency)
      expect(run.vector.eightClients).toEqual(latency)
      expect(run.vector.recallAt50, `${backend} recall@50`).toBeGreaterThanOrEqual(0.95)
      expect(run.vector.queriesAnsweringFewerThanMatch).toBe(0)
      expect(run.filteredVector).toHaveLength(2)
      for (const filtered of run.filteredVector) {
        expect(filtered.queriesAnsweringFewerThanMatch, `${backend} ${filtered.filter}`).toBe(0)
        expect(filtered.latencyMs).toEqual(latency)
      }
      expect(run.metadataMetrics.terms).toEqual(latency)
      expect(run.metadataMetrics.integer).toEqual(latency)
      expect(run.peakRssMB).toBeGreaterThan(0)
      expect(run.peakRssAnonMB).toBeGreaterThan(0)
      expect(run.peakRssAnonMB).toBeLessThanOrEqual(run.peakRssMB)
    }
  }, 300_000)
})
