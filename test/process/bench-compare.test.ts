/**
 * `npm run bench -- compare <ref>` run small: the `agreement` suite (no server, seconds at 200 records) on a scratch
 * worktree of HEAD, built there, and on this tree, one round. This checks the printed table, the result file's shape
 * and that the worktree is gone afterwards; never how fast either side was. The working tree is not built
 * (`--build base`): its dist/ is shared with the other tests, and `agreement` does not use it.
 *
 * Then `--suite-code work`: the `small` suite, tiny, against a base that lacks it, on the base's server.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureDistServer } from "../support/glossBundle.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const TSX = path.join(ROOT, "node_modules/.bin/tsx")
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-compare-test-"))
afterAll(() => fs.rmSync(resultsDir, { recursive: true, force: true }))
// The working side runs this tree's dist/ as it is (`--build base`): a fresh clone has none until something builds it.
beforeAll(ensureDistServer, 120_000)

const run = (args: ReadonlyArray<string>) =>
  promisify(execFile)(TSX, ["bench/run.ts", "compare", ...args], {
    cwd: ROOT,
    env: { ...process.env, GLOSS_BENCH_RESULTS_DIR: resultsDir },
    maxBuffer: 16 * 2 ** 20,
    timeout: 240_000
  })

const git = async (...args: Array<string>) => (await promisify(execFile)("git", args, { cwd: ROOT })).stdout.trim()

/**
 * A commit of HEAD less `file` (if HEAD has it), made here (a dangling object that git collects later): the history of a
 * shallow clone may not reach back to before a suite was added.
 */
const headLess = async (file: string, message: string) => {
  const index = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-compare-index-")), "index")
  const withIndex = { cwd: ROOT, env: { ...process.env, GIT_INDEX_FILE: index } }
  await promisify(execFile)("git", ["read-tree", "HEAD"], withIndex)
  await promisify(execFile)("git", ["rm", "--cached", "--quiet", "--ignore-unmatch", file], withIndex)
  const tree = (await promisify(execFile)("git", ["write-tree"], withIndex)).stdout.trim()
  fs.rmSync(path.dirname(index), { recursive: true, force: true })
  // Named here: a fresh machine's git may know no user to write a commit as.
  const someone = { GIT_AUTHOR_NAME: "test", GIT_AUTHOR_EMAIL: "test@example.invalid", GIT_COMMITTER_NAME: "test", GIT_COMMITTER_EMAIL: "test@example.invalid" }
  const commit = (await promisify(execFile)("git", ["commit-tree", tree, "-p", "HEAD", "-m", message], {
    cwd: ROOT,
    env: { ...process.env, ...someone }
  })).stdout.trim()
  expect(commit).toMatch(/^[0-9a-f]{40}$/)
  return commit
}

describe("npm run bench -- compare, small", () => {
  it("runs a suite on HEAD's worktree and on this tree, prints the table and writes its file", async () => {
    const head = await git("rev-parse", "HEAD")
    const { stdout, stderr } = await run(["HEAD", "agreement", "--records", "200", "--rounds", "1", "--build", "base"])

    expect(stdout).toContain(`agreement: base HEAD (${head.slice(0, 7)}) against the working tree (${head.slice(0, 7)}`)
    const lines = stdout.split("\n")
    const header = lines.find((line) => line.startsWith("metric"))
    expect(header?.split(/\s{2,}/)).toEqual(["metric", "better", "base 1", "work 1", "ratio 1", "median ratio"])
    const cells = (metric: string) => lines.find((line) => line.startsWith(`${metric} `))?.trim().split(/\s+/)
    // The same options on both sides: the same data, so the same count, ratio 1.
    expect(cells("records")).toEqual(["records", "200", "200", "1", "1"])
    expect(cells("questions.label_selection.questionAgreement.cpuSeconds")?.[1]).toBe("lower")
    expect(cells("questions.label_selection.recordsPerCpuSecond")?.[1]).toBe("higher")
    expect(cells("heapUsedMB")?.length).toBe(5)

    const files = fs.readdirSync(resultsDir)
    expect(files).toEqual([expect.stringMatching(/^compare-agreement-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.json$/)])
    const result = JSON.parse(fs.readFileSync(path.join(resultsDir, files[0] ?? ""), "utf8"))
    expect(result).toMatchObject({
      suite: "agreement",
      date: expect.any(String),
      base: { ref: "HEAD", commit: head },
      head: { commit: head, dirty: expect.any(Boolean) },
      machine: { cpus: expect.any(Number), node: process.version },
      options: { records: "200" },
      rounds: 1
    })
    expect(result.table.length).toBeGreaterThan(30)
    // A figure a run did not report (a statistic that is undefined on that run's small random data) is null on its
    // side; nearly every figure is on both.
    const numberOrNull = expect.toBeOneOf([expect.any(Number), null])
    for (const row of result.table) {
      expect(row).toEqual({
        metric: expect.any(String),
        better: expect.toBeOneOf(["lower", "higher", null]),
        base: [numberOrNull],
        head: [numberOrNull],
        ratios: [numberOrNull],
        medianRatio: numberOrNull
      })
    }
    const both = result.table.filter((row: { base: Array<unknown>; head: Array<unknown> }) =>
      typeof row.base[0] === "number" && typeof row.head[0] === "number")
    expect(both.length).toBeGreaterThan(result.table.length * 0.9)
    expect(result.table.find((row: { metric: string }) => row.metric === "records")).toMatchObject({ base: [200], head: [200], ratios: [1] })

    // The base was built in its worktree, and the worktree removed at the end.
    expect(stderr).toContain("compare: building HEAD (npm run build:server, npm run build:client)")
    const tree = /checked out in (\S+)/.exec(stderr)?.[1]
    expect(tree).toBeDefined()
    expect(fs.existsSync(path.dirname(tree ?? ""))).toBe(false)
    expect(await git("worktree", "list", "--porcelain")).not.toContain(tree)
  }, 240_000)

  it("reports a suite missing at the base plainly and skips it", async () => {
    const before = await headLess("bench/suites/queue.ts", "the tree without the queue suite")
    const failed = await run([before, "queue", "--build", "none"]).then(() => undefined, (error: { code: number; stdout: string; stderr: string }) => error)
    expect(failed?.code).toBe(1)
    expect(failed?.stderr).toContain(`compare: queue: not in ${before} (`)
    expect(failed?.stderr).toContain("has no bench/suites/queue.ts); skipped")
    expect(failed?.stderr).not.toContain("checked out in")
    expect(failed?.stdout).toBe("")
  }, 60_000)

  it("with --suite-code work, runs this tree's suite on both sides, the base's on the base's server", async () => {
    const before = await headLess("bench/suites/small.ts", "the tree without the small suite")
    const { stdout, stderr } = await run([
      before, "small", "--suite-code", "work", "--records", "300", "--seconds", "0.5", "--rounds", "1", "--build", "base"
    ])

    expect(stderr).not.toContain("skipped")
    const tree = /checked out in (\S+)/.exec(stderr)?.[1] ?? ""
    expect(tree).not.toBe("")
    expect(stderr).toContain(`compare: this tree's suite code on both sides; the base's server is ${path.join(tree, "dist/gloss.mjs")}`)
    expect(stderr).toContain(`compare: building ${before} (npm run build:server, npm run build:client)`)
    expect(stdout).toContain("the working tree's suite code on both sides; ratio = working / base")
    const cells = (metric: string) => stdout.split("\n").find((line) => line.startsWith(`${metric} `))?.trim().split(/\s+/)
    expect(cells("records")).toEqual(["records", "300", "300", "1", "1"])
    // The same dataset on both servers: the same matches.
    const matches = cells("sqlite.database.matches.textAndRange")
    expect(matches?.[1]).toBe(matches?.[2])
    for (const metric of ["sqlite.database.ingest.recordsPerSecond", "sqlite.database.textAndRange.oneClient.latencyMs.p50"]) {
      const row = cells(metric)
      expect(row?.length, metric).toBe(6)
      expect(Number(row?.[2]), metric).toBeGreaterThan(0)
      expect(Number(row?.[3]), metric).toBeGreaterThan(0)
    }

    const file = fs.readdirSync(resultsDir).find((name) => name.startsWith("compare-small-")) ?? ""
    const result = JSON.parse(fs.readFileSync(path.join(resultsDir, file), "utf8"))
    expect(result).toMatchObject({ suite: "small", suiteCode: "work", base: { commit: before }, rounds: 1 })
    expect(result.options).toEqual({ records: "300", seconds: "0.5" })
    expect(fs.existsSync(path.dirname(tree))).toBe(false)
  }, 240_000)

  it("refuses a ref that is no commit", async () => {
    const failed = await run(["no-such-ref-anywhere", "agreement"]).then(() => undefined, (error: { code: number; stderr: string }) => error)
    expect(failed?.code).toBe(2)
    expect(failed?.stderr).toContain("compare: no-such-ref-anywhere is not a commit of this repository")
  }, 60_000)
})
