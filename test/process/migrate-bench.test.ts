/**
 * `npm run bench -- migrate` run small: an Argilla database of 300 records (and of 30) written straight into
 * Argilla's schema, copied by `gloss migrate from-argilla` from the file into SQLite and PostgreSQL and from the REST
 * API of an argilla-server on that file, each twice (the second a re-sync), with a server built from the current
 * sources. Benchmarks are not timed tests: this checks that every way reports every figure and that every run
 * printed its verification's "the same data"; never how fast.
 *
 * Without .venv-argilla-server (scripts/argilla-server.sh), which makes Argilla's schema and serves its API, the
 * test is skipped with a printed reason, except under CI=true, where that is a failure.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { buildCli } from "../cli/support.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const ARGILLA_PYTHON = path.join(ROOT, ".venv-argilla-server/bin/python")

const problem = fs.existsSync(ARGILLA_PYTHON) ? undefined : `no ${path.relative(ROOT, ARGILLA_PYTHON)} (run scripts/argilla-server.sh)`
if (problem !== undefined) {
  if (process.env["CI"] === "true") throw new Error(`the migrate benchmark cannot run: ${problem}`)
  console.warn(`migrate-bench: skipping the migrate benchmark: ${problem}`)
}

const run = expect.objectContaining({
  seconds: expect.any(Number),
  recordsPerSecond: expect.any(Number),
  peakRssMB: expect.any(Number),
  verified: true
})
const twice = { first: run, resync: run }

describe("npm run bench -- migrate, small", () => {
  it.skipIf(problem !== undefined)("copies every way at both sizes, verified, and reports every figure", async () => {
    const server = await buildCli("shipping")
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["bench/run.ts", "migrate", "--records", "300"],
      { cwd: ROOT, env: { ...process.env, GLOSS_BENCH_SERVER: server }, maxBuffer: 16 * 2 ** 20, timeout: 420_000 }
    )
    const result = JSON.parse(stdout).results.migrate
    expect(result.records).toBe(300)
    expect(result.verified).toBe(true)
    expect(typeof result.meetsTarget).toBe("boolean")
    expect(result.sizes.map((size: { records: number }) => size.records)).toEqual([30, 300])
    for (const size of result.sizes) {
      expect(size.argilla).toEqual(expect.objectContaining({ records: size.records, suggestions: size.records, vectors: size.records }))
      const responses = Object.values(size.argilla.responses as Record<string, number>).reduce((a, b) => a + b, 0)
      expect(responses).toBe(size.records * 2)
      expect(size.database.sqlite).toEqual(twice)
      // PostgreSQL follows the benchmark's rule: `{ skipped }` when it cannot be reached.
      if (!("skipped" in size.database.postgres)) expect(size.database.postgres).toEqual(twice)
      expect(size.api, JSON.stringify(size.api)).toEqual(twice)
    }
    for (const way of ["databaseToSqlite", "apiToSqlite"]) {
      expect(result.peakRssMB[way], way).toEqual({ "30": expect.any(Number), "300": expect.any(Number), growth: expect.any(Number) })
    }
  }, 480_000)
})
