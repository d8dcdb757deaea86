/**
 * `npm run bench -- quantisation` run small: 3 000 of the scale benchmark's vectors, both index forms. A benchmark,
 * not a timed test: this checks that every figure is reported, that the one-bit form is the smaller one (what it is
 * measured for), and that rescoring enough candidates finds the exact answer, which fails if the candidates or
 * their rescoring are wrong; never how fast anything was.
 */
import { execFile } from "node:child_process"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const ROOT = path.resolve(import.meta.dirname, "../..")

describe("npm run bench -- quantisation, small", () => {
  it("reports size, build time and recall by candidates for int8 and one bit a dimension", async () => {
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["bench/run.ts", "quantisation", "--records", "3000", "--queries", "10"],
      { cwd: ROOT, maxBuffer: 16 * 2 ** 20, timeout: 120_000 }
    )
    const run = JSON.parse(stdout).results.quantisation
    expect(run.records).toBe(3000)
    expect(run.results.map((result: { form: string }) => result.form)).toEqual([
      "int8 in segments of 250 000 (the server's)",
      "int8, one index",
      "one bit a dimension, one index"
    ])
    const [segmented, int8, bits] = run.results
    expect(segmented.segments).toBe(1)
    expect(int8.segments).toBe(1)
    expect(bits.bytesPerVector).toBeLessThan(int8.bytesPerVector)
    for (const result of run.results) {
      expect(result.buildSeconds).toBeGreaterThan(0)
      expect(result.byCandidates.map((row: { candidates: number }) => row.candidates)).toEqual([100, 200, 500, 1000, 2000])
      for (const row of result.byCandidates) {
        expect(row.recallAt50).toBeGreaterThan(0)
        expect(row.recallAt50).toBeLessThanOrEqual(1)
        expect(row.indexSearchMs.p50).toBeGreaterThan(0)
      }
      // Two thirds of the vectors as candidates, each rescored exactly: the exact top 50 is among them.
      expect(result.byCandidates.at(-1).recallAt50, result.form).toBeGreaterThanOrEqual(0.95)
    }
  }, 180_000)
})
