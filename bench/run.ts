/**
 * `npm run bench [-- suite ...]`: runs the benchmarks and prints their figures as one JSON document. Benchmarks are
 * not tests: nothing here fails on a slow figure; `meetsTarget` says how a figure compares with its target.
 */
import * as os from "node:os"
import { ingestSuite } from "./suites/ingest.js"
import { meSuite } from "./suites/me.js"
import { searchSuite } from "./suites/search.js"
import { uiSuite } from "./suites/ui.js"
import { webhooksSuite } from "./suites/webhooks.js"

const suites: Record<string, () => Promise<unknown>> = {
  me: meSuite,
  ingest: ingestSuite,
  search: searchSuite,
  ui: uiSuite,
  webhooks: webhooksSuite
}

const selected = process.argv.slice(2).filter((name) => name !== "--")
const unknown = selected.filter((name) => !(name in suites))
if (unknown.length > 0) {
  console.error(`Unknown suite(s): ${unknown.join(", ")}. Known: ${Object.keys(suites).join(", ")}`)
  process.exit(2)
}

const results: Record<string, unknown> = {}
for (const name of selected.length > 0 ? selected : Object.keys(suites)) {
  const suite = suites[name]
  if (suite !== undefined) results[name] = await suite()
}

console.log(JSON.stringify(
  {
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    date: new Date().toISOString(),
    results
  },
  null,
  2
))
