/**
 * `npm run bench -- export` run small: 2 000 records out and back in through a folder, the (fake) Hub from
 * the client, and the server's own export and import jobs, on a server built from the current sources. Benchmarks
 * are not timed tests: this checks that every way completes with every record (the suite throws otherwise) and that
 * every figure is reported; never how fast.
 */
import { execFile } from "node:child_process"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { buildCli } from "../cli/support.js"

const ROOT = path.resolve(import.meta.dirname, "../..")

const side = expect.objectContaining({ seconds: expect.any(Number), recordsPerSecond: expect.any(Number) })

describe("npm run bench -- export, small", () => {
  it("moves every record each way and reports every figure", async () => {
    const server = await buildCli("shipping")
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["bench/run.ts", "export", "--records", "2000"],
      { cwd: ROOT, env: { ...process.env, GLOSS_BENCH_SERVER: server }, maxBuffer: 16 * 2 ** 20, timeout: 240_000 }
    )
    const run = JSON.parse(stdout).results.export
    expect(run.records).toBe(2000)
    for (const way of ["toDisk", "fromDisk", "toHub", "fromHub"]) {
      expect(run[way], way).toEqual(side)
      expect(run[way].peakRssMB, way).toBeGreaterThan(0)
    }
    expect(run.exportJob).toEqual(side)
    expect(run.importJob).toEqual(side)
    expect(run.parquetMB).toBeGreaterThan(0)
    expect(run.serverPeakRssMB).toBeGreaterThan(0)
  }, 300_000)
})
