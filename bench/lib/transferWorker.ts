/**
 * One side of the `export` benchmark in a process of its own, so that its peak memory is its own: `toDisk` of a
 * dataset into a folder, or `fromDisk` of a folder into a new dataset, through Gloss's client (the Effect face).
 * Samples its RSS every 20 ms and prints one JSON line: records, seconds, peak RSS in bytes.
 *
 *   tsx bench/lib/transferWorker.ts to <apiUrl> <apiKey> <datasetId> <dir>
 *   tsx bench/lib/transferWorker.ts from <apiUrl> <apiKey> <dir> <workspace> <name>
 *   tsx bench/lib/transferWorker.ts to-hub <apiUrl> <apiKey> <datasetId> <repoId>       (HF_ENDPOINT, HF_TOKEN)
 *   tsx bench/lib/transferWorker.ts from-hub <apiUrl> <apiKey> <repoId> <workspace> <name>
 */
import { Effect, Option } from "effect"
import { GlossClient } from "../../src/client/index.js"

const [mode, apiUrl, apiKey, a, b, c] = process.argv.slice(2)
if (apiUrl === undefined || apiKey === undefined || a === undefined || b === undefined) {
  console.error("usage: transferWorker.ts to|from <apiUrl> <apiKey> ...")
  process.exit(2)
}

let peak = process.memoryUsage().rss
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)

const run = Effect.gen(function*() {
  const client = yield* GlossClient.make({ apiUrl, apiKey, timeout: 600 })
  const started = performance.now()
  if (mode === "to-hub") {
    const dataset = yield* client.datasets.get({ id: a })
    if (Option.isNone(dataset)) return yield* Effect.dieMessage(`no dataset ${a}`)
    const { records } = yield* client.datasets.toHub(dataset.value, b)
    return { records, seconds: (performance.now() - started) / 1000 }
  }
  if (mode === "from-hub") {
    const { records } = yield* client.datasets.fromHub(a, { workspace: b, name: c })
    return { records, seconds: (performance.now() - started) / 1000 }
  }
  if (mode === "to") {
    const dataset = yield* client.datasets.get({ id: a })
    if (Option.isNone(dataset)) return yield* Effect.dieMessage(`no dataset ${a}`)
    const { records } = yield* client.datasets.toDisk(dataset.value, b)
    return { records, seconds: (performance.now() - started) / 1000 }
  }
  const { records } = yield* client.datasets.fromDisk(a, { workspace: b, name: c })
  return { records, seconds: (performance.now() - started) / 1000 }
}).pipe(Effect.scoped)

const result = await Effect.runPromise(run)
clearInterval(sampler)
peak = Math.max(peak, process.memoryUsage().rss)
console.log(JSON.stringify({ ...result, peakRss: peak }))
