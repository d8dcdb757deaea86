/**
 * `npm run bench -- queue` run small: 1 000 records on SQLite, on a server built from the current sources. Benchmarks
 * are not timed tests: this checks that every step reports what it should (the suite throws when a page, an assignment
 * or the summary does not hold the records it must) and that every figure is reported; never how fast.
 */
import { execFile } from "node:child_process"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { buildCli } from "../cli/support.js"

const ROOT = path.resolve(import.meta.dirname, "../..")

const sampled = expect.objectContaining({
  p50Seconds: expect.any(Number),
  p95Seconds: expect.any(Number),
  cpuSecondsPerCall: expect.any(Number)
})

describe("npm run bench -- queue, small", () => {
  it("assigns, pages every queue and reads the summary, reporting every figure", async () => {
    const server = await buildCli("shipping")
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["bench/run.ts", "queue", "--records", "1000", "--backends", "sqlite"],
      { cwd: ROOT, env: { ...process.env, GLOSS_BENCH_SERVER: server }, maxBuffer: 16 * 2 ** 20, timeout: 240_000 }
    )
    const run = JSON.parse(stdout).results.queue
    expect(run.postgres).toEqual({ skipped: "--backends sqlite" })
    const sqlite = run.sqlite
    expect(sqlite.records).toBe(1000)
    for (const page of ["noAssignments", "halfAssigned", "withQuota", "allAssigned"]) {
      expect(sqlite.queuePage[page], page).toEqual(sampled)
    }
    expect(sqlite.summary).toEqual(sampled)
    expect(sqlite.assignHalfByFilter.assigned).toBe(500)
    expect(sqlite.unassignAll.removed).toBe(500)
    expect(sqlite.assignAllByFilter.assigned).toBe(2000)
    expect(sqlite.peakRssMB).toBeGreaterThan(0)
    expect(typeof run.meetsTarget).toBe("boolean")
  }, 300_000)
})
