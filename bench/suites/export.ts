/**
 * `npm run bench -- export [--records N]`: N records (default 100 000) with two ~300-character text fields,
 * three metadata values, a suggestion, a submitted response and a 384-dimension vector, loaded into Gloss (as
 * `npm start` runs it, on SQLite); then `datasets.toDisk` writes them to a folder in the Argilla SDK's layout and
 * `datasets.fromDisk` reads that folder back into a new dataset, each in a process of its own: records per second
 * each way, each process's peak RSS (the records are streamed: it should not grow with N), the file's size, and
 * the server's peak RSS. The copy's record count is checked. Then the same through the Hugging Face Hub layout:
 * `datasets.toHub` into a repo of the test suite's fake Hub (in this process, on a loopback port) and `datasets.fromHub`
 * back, measured the same way, with the Parquet file's size. Last, the server's own jobs: `POST /datasets/{id}/export`
 * to the same fake Hub, and `POST /datasets/{id}/import` of that Parquet file by a column mapping into a new dataset,
 * each timed from the request to the job's `finished` (the server's peak RSS covers them, it runs them).
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Exit, Scope } from "effect"
import { fakeDatasetHub, HUB_TOKEN } from "../../test/support/fakeDatasetHub.js"
import type { SuiteOptions } from "../run.js"
import { api, benchRecord } from "../lib/http.js"
import { vector } from "../lib/latency.js"
import { BENCH_API_KEY, ROOT, startGloss, tempHome } from "../lib/processes.js"

const DEFAULT_RECORDS = 100_000
const DIMENSIONS = 384
const BATCH = 500
const MB = 2 ** 20

const recordsOf = (options: SuiteOptions) => {
  const asked = Number.parseInt(options["records"] ?? process.env.GLOSS_BENCH_RECORDS ?? "", 10)
  return Number.isFinite(asked) && asked > 0 ? asked : DEFAULT_RECORDS
}

/** A published dataset: the ingest benchmark's settings plus a 384-dimension vector. */
export const transferDataset = async (call: ReturnType<typeof api>, name: string) => {
  const workspaces = await call("GET", "/me/workspaces") as { items: Array<{ id: string; name: string }> }
  const workspace = workspaces.items[0] ?? (await call("POST", "/workspaces", { name: "bench" }) as { id: string; name: string })
  const dataset = await call("POST", "/datasets", { name, workspace_id: workspace.id }) as { id: string }
  const post = (kind: string, body: unknown) => call("POST", `/datasets/${dataset.id}/${kind}`, body)
  await post("fields", { name: "title", title: "Title", required: true, settings: { type: "text" } })
  await post("fields", { name: "body", title: "Body", settings: { type: "text" } })
  await post("questions", {
    name: "sentiment",
    title: "Sentiment",
    required: true,
    settings: { type: "label_selection", options: [{ value: "pos", text: "Positive" }, { value: "neg", text: "Negative" }] }
  })
  await post("metadata-properties", { name: "source", title: "Source", settings: { type: "terms" } })
  await post("metadata-properties", { name: "stars", title: "Stars", settings: { type: "integer", min: 0, max: 5 } })
  await post("metadata-properties", { name: "score", title: "Score", settings: { type: "float" } })
  await post("vectors-settings", { name: "embedding", title: "Embedding", dimensions: DIMENSIONS })
  await call("PUT", `/datasets/${dataset.id}/publish`)
  return { id: dataset.id, workspace: workspace.name }
}

/** Runs one side of the transfer in its own process (bench/lib/transferWorker.ts) and reads its JSON line. */
const worker = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ records: number; seconds: number; peakRss: number }>((resolve, reject) => {
    const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), [path.join(ROOT, "bench/lib/transferWorker.ts"), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, NODE_OPTIONS: "--max-old-space-size=1024" }
    })
    let out = ""
    let err = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
    child.once("exit", (code) => {
      const last = out.trim().split("\n").at(-1) ?? ""
      if (code !== 0) reject(new Error(`transfer worker ${args[0]} exited with ${code}:\n${err}${out}`))
      else resolve(JSON.parse(last))
    })
  })

interface JobAnswer {
  readonly status: string
  readonly progress: { readonly done: number; readonly total: number | null; readonly failed: number; readonly errors: unknown }
}

/** Starts a job with `POST path` and polls `GET /jobs/{id}` until it ends: how long it took, and what it reported. */
const timedJob = async (call: ReturnType<typeof api>, jobPath: string, body: unknown) => {
  const started = performance.now()
  const { id } = await call("POST", jobPath, body) as { id: string }
  for (;;) {
    const job = await call("GET", `/jobs/${id}`) as JobAnswer
    if (job.status === "failed") throw new Error(`job ${jobPath} failed: ${JSON.stringify(job.progress)}`)
    if (job.status === "finished") return { seconds: Number(((performance.now() - started) / 1000).toFixed(1)), progress: job.progress }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

export const exportSuite = async (options: SuiteOptions) => {
  const total = recordsOf(options)
  const hubScope = await Effect.runPromise(Scope.make())
  // The fake Hub first: the server's export and import jobs talk to it.
  const hub = await Effect.runPromise(Scope.extend(fakeDatasetHub(), hubScope))
  const hubEnv = { HF_ENDPOINT: hub.url, HF_TOKEN: HUB_TOKEN }
  const server = await startGloss(hubEnv)
  const work = tempHome()
  try {
    const call = api(server.url, BENCH_API_KEY)
    const me = await call("GET", "/me") as { id: string }
    const source = await transferDataset(call, `export-${Date.now()}`)
    for (let from = 0; from < total; from += BATCH) {
      const items = Array.from({ length: Math.min(BATCH, total - from) }, (_, k) => {
        const i = from + k
        const label = i % 2 === 0 ? "pos" : "neg"
        return {
          ...benchRecord(i),
          vectors: { embedding: vector(i, DIMENSIONS) },
          suggestions: [{ question_name: "sentiment", value: label, score: (i % 100) / 100, agent: "bench-model" }],
          responses: [{ user_id: me.id, status: "submitted", values: { sentiment: { value: label } } }]
        }
      })
      await call("PUT", `/datasets/${source.id}/records/bulk`, { items })
    }

    const dir = path.join(work, "export")
    const out = await worker(["to", server.url, BENCH_API_KEY, source.id, dir])
    const fileBytes = fs.statSync(path.join(dir, "records.json")).size
    const name = `import-${Date.now()}`
    const back = await worker(["from", server.url, BENCH_API_KEY, dir, source.workspace, name])
    const copies = await call("GET", "/me/datasets") as { items: Array<{ id: string; name: string }> }
    const copy = copies.items.find((dataset) => dataset.name === name)
    const stored = await call("GET", `/datasets/${copy?.id}/records?limit=1`) as { total: number }
    if (out.records !== total || back.records !== total || stored.total !== total) {
      throw new Error(`expected ${total} records each way, exported ${out.records}, imported ${back.records}, stored ${stored.total}`)
    }
    // The Hub: records as Parquet through the fake Hub's LFS flow, and back.
    const pushed = await worker(["to-hub", server.url, BENCH_API_KEY, source.id, "bench/export"], hubEnv)
    const parquet = hub.repos.get("bench/export")?.files.get("data/train-00000-of-00001.parquet")
    const hubName = `import-hub-${Date.now()}`
    const pulled = await worker(["from-hub", server.url, BENCH_API_KEY, "bench/export", source.workspace, hubName], hubEnv)
    const hubCopies = await call("GET", "/me/datasets") as { items: Array<{ id: string; name: string }> }
    const hubCopy = hubCopies.items.find((dataset) => dataset.name === hubName)
    const hubStored = await call("GET", `/datasets/${hubCopy?.id}/records?limit=1`) as { total: number }
    if (pushed.records !== total || pulled.records !== total || hubStored.total !== total) {
      throw new Error(`expected ${total} records each way through the Hub, pushed ${pushed.records}, pulled ${pulled.records}, stored ${hubStored.total}`)
    }
    // The server's jobs: the export to the Hub, and the import of its Parquet file by a mapping.
    const serverExport = await timedJob(call, `/datasets/${source.id}/export`, { name: "bench/server-export", token: HUB_TOKEN })
    const target = await transferDataset(call, `import-job-${Date.now()}`)
    const serverImport = await timedJob(call, `/datasets/${target.id}/import`, {
      name: "bench/server-export",
      subset: "default",
      split: "train",
      mapping: {
        fields: [{ source: "title", target: "title" }, { source: "body", target: "body" }],
        metadata: [{ source: "source", target: "source" }, { source: "stars", target: "stars" }, { source: "score", target: "score" }],
        suggestions: [{ source: "sentiment.suggestion", target: "sentiment" }],
        external_id: "id"
      }
    })
    const jobStored = await call("GET", `/datasets/${target.id}/records?limit=1`) as { total: number }
    if (serverExport.progress.done !== total || serverImport.progress.done !== total || serverImport.progress.failed !== 0 || jobStored.total !== total) {
      throw new Error(`expected ${total} records each way through the server's jobs, got ${JSON.stringify({ serverExport, serverImport, stored: jobStored.total })}`)
    }
    const side = (run: typeof out) => ({
      seconds: Number(run.seconds.toFixed(1)),
      recordsPerSecond: Math.round(total / run.seconds),
      peakRssMB: Math.round(run.peakRss / MB)
    })
    return {
      records: total,
      vectorDimensions: DIMENSIONS,
      recordsFileMB: Math.round(fileBytes / MB),
      toDisk: side(out),
      fromDisk: side(back),
      parquetMB: Number(((parquet?.length ?? 0) / MB).toFixed(1)),
      toHub: side(pushed),
      fromHub: side(pulled),
      exportJob: { seconds: serverExport.seconds, recordsPerSecond: Math.round(total / serverExport.seconds) },
      importJob: { seconds: serverImport.seconds, recordsPerSecond: Math.round(total / serverImport.seconds) },
      serverPeakRssMB: Math.round(server.peakRss() / MB)
    }
  } finally {
    await server.stop()
    await Effect.runPromise(Scope.close(hubScope, Exit.void))
    fs.rmSync(work, { recursive: true, force: true })
  }
}
