/**
 * `npm run bench [-- suite ... [--option value ...]]`: runs the benchmarks and prints their figures as one JSON
 * document. Benchmarks are not tests: nothing here fails on a slow figure; `meetsTarget` says how a figure compares
 * with its target. Options go to every selected suite (`--records 20000` for `scale`).
 *
 * Each suite's figures are also written to `bench/results/<suite>-<time>.json` with the machine, the commit and the
 * options they came from, so that a figure is never quoted without them (`GLOSS_BENCH_RESULTS_DIR` writes them
 * elsewhere). A run started by a test (vitest sets `VITEST`) writes none: a small smoke run is not a result.
 *
 * `npm run bench -- compare <git ref> [suite ...]` runs the suites on that version and on this tree, pair by pair
 * (bench/compare.ts).
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { agreementSuite } from "./suites/agreement.js"
import { applySuite } from "./suites/apply.js"
import { exportSuite } from "./suites/export.js"
import { ingestSuite } from "./suites/ingest.js"
import { meSuite } from "./suites/me.js"
import { migrateSuite } from "./suites/migrate.js"
import { quantisationSuite } from "./suites/quantisation.js"
import { queueSuite } from "./suites/queue.js"
import { reviewSuite } from "./suites/review.js"
import { scaleSuite } from "./suites/scale.js"
import { searchSuite } from "./suites/search.js"
import { smallSuite } from "./suites/small.js"
import { uiSuite } from "./suites/ui.js"
import { webhooksSuite } from "./suites/webhooks.js"

export type SuiteOptions = Readonly<Record<string, string>>

const suites: Record<string, (options: SuiteOptions) => Promise<unknown>> = {
  me: meSuite,
  ingest: ingestSuite,
  search: searchSuite,
  small: smallSuite,
  ui: uiSuite,
  webhooks: webhooksSuite,
  apply: applySuite,
  scale: scaleSuite,
  quantisation: quantisationSuite,
  export: exportSuite,
  migrate: migrateSuite,
  agreement: agreementSuite,
  review: reviewSuite,
  queue: queueSuite
}

// `scale`, `quantisation`, `export`, `migrate`, `review` and `queue` run only when asked for: at their default sizes they
// load a million (100 000 vector-laden, or 100 000 with 300 000 answers, or 100 000 to assign) records.
const onlyWhenAsked = new Set(["scale", "quantisation", "export", "migrate", "review", "queue"])

const selected: Array<string> = []
const options: Record<string, string> = {}
const args = process.argv.slice(2).filter((arg) => arg !== "--")
// `compare <git ref> [suite ...]`: the suites on another version and on this tree, side by side (bench/compare.ts).
if (args[0] === "compare") {
  const { compare } = await import("./compare.js")
  const known = Object.keys(suites)
  process.exit(await compare(args.slice(1), { known, defaults: known.filter((name) => !onlyWhenAsked.has(name)) }))
}
for (let i = 0; i < args.length; i++) {
  const arg = args[i] ?? ""
  if (!arg.startsWith("--")) selected.push(arg)
  else if (args[i + 1] === undefined || args[i + 1]?.startsWith("--")) {
    console.error(`Option ${arg} needs a value`)
    process.exit(2)
  } else options[arg.slice(2)] = args[++i] ?? ""
}
const unknown = selected.filter((name) => !(name in suites))
if (unknown.length > 0) {
  console.error(`Unknown suite(s): ${unknown.join(", ")}. Known: ${Object.keys(suites).join(", ")}`)
  process.exit(2)
}

const results: Record<string, unknown> = {}
for (const name of selected.length > 0 ? selected : Object.keys(suites).filter((name) => !onlyWhenAsked.has(name))) {
  const suite = suites[name]
  if (suite !== undefined) results[name] = await suite(options)
}

/** The commit the figures came from, `+` marking uncommitted changes; null outside a git checkout. */
const commitOf = (): string | null => {
  const head = spawnSync("git", ["rev-parse", "--short=7", "HEAD"], { cwd: import.meta.dirname, encoding: "utf8" })
  if (head.status !== 0) return null
  const dirty = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: import.meta.dirname, encoding: "utf8" })
  return `${head.stdout.trim()}${dirty.stdout.trim() === "" ? "" : "+"}`
}

const date = new Date().toISOString()
const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version
}
const commit = commitOf()

if (process.env["VITEST"] === undefined) {
  const dir = process.env["GLOSS_BENCH_RESULTS_DIR"] ?? path.join(import.meta.dirname, "results")
  fs.mkdirSync(dir, { recursive: true })
  for (const [suite, figures] of Object.entries(results)) {
    const file = path.join(dir, `${suite}-${date.replaceAll(":", "-").replace(/\.\d+Z$/, "Z")}.json`)
    fs.writeFileSync(file, `${JSON.stringify({ suite, date, commit, machine, options, results: figures }, null, 2)}\n`)
    console.error(`bench: ${suite} written to ${path.relative(process.cwd(), file)}`)
  }
}

console.log(JSON.stringify({ machine, commit, date, results }, null, 2))
