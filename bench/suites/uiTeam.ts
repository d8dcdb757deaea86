/**
 * The `ui` suite's team figures:
 * - the People page (`/users`) with `--users` N users (default 1 000) spread over five workspaces: an owner opens it,
 *   each time in a new browser context (cold cache, signed in), timed in the page from navigation start to the first
 *   frame that shows the table's first page with every user's workspaces filled in;
 * - a file export of `--export-records` N records (default 100 000; each with two ~300-character texts, three
 *   metadata values, a suggestion and a submitted response), started as the Export dialog starts it
 *   (`POST /api/gloss/datasets/{id}/exports`), followed on `GET /api/v1/jobs/{id}` until it finished, then downloaded:
 *   per format the job's seconds, the download's seconds and size, and the server's peak RSS before and after it
 *   (the server runs the export job itself, as `npm start` does).
 */
import type { Browser } from "playwright-core"
import { api, benchRecord } from "../lib/http.js"
import { percentile } from "../lib/latency.js"
import type { SuiteOptions } from "../run.js"
import { transferDataset } from "./export.js"
import { signedInState } from "./uiSettings.js"

const DEFAULT_USERS = 1_000
const DEFAULT_EXPORT_RECORDS = 100_000
const WORKSPACES = 5
const BATCH = 500
const MB = 2 ** 20
const FORMATS = ["jsonl", "csv", "parquet", "argilla-disk"] as const

const round = (ms: number) => Math.round(ms * 10) / 10
const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2))

const countOf = (options: SuiteOptions, name: string, fallback: number) => {
  const asked = Number.parseInt(options[name] ?? "", 10)
  return Number.isFinite(asked) && asked > 0 ? asked : fallback
}

/** `--users N` (default 1 000). */
export const usersOf = (options: SuiteOptions) => countOf(options, "users", DEFAULT_USERS)
/** `--export-records N` (default 100 000). */
export const exportRecordsOf = (options: SuiteOptions) => countOf(options, "export-records", DEFAULT_EXPORT_RECORDS)

/** Runs `work` over `items`, `width` at a time. */
const inParallel = async <A>(items: ReadonlyArray<A>, width: number, work: (item: A) => Promise<unknown>) => {
  let next = 0
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]!)
  }))
}

/** In the page from its first script: when the first page of users is painted with every workspaces cell filled. */
const tableShownAt = `(() => {
  const look = () => {
    const cells = document.querySelectorAll(".people-table td[data-label='Workspaces']")
    return cells.length > 0 && [...cells].every((cell) => cell.textContent !== "…")
      ? setTimeout(() => { window.__tableShown = performance.now() }, 0)
      : requestAnimationFrame(look)
  }
  requestAnimationFrame(look)
})()`

export const peoplePageMs = async (
  browser: Browser,
  url: string,
  owner: { readonly username: string; readonly password: string; readonly apiKey: string },
  users: number,
  opens = 5
) => {
  const call = api(url, owner.apiKey)
  const stamp = Date.now()
  const workspaces = [] as Array<{ id: string }>
  for (let w = 0; w < WORKSPACES; w++) workspaces.push(await call("POST", "/workspaces", { name: `people-${stamp}-${w}` }) as { id: string })
  const seedStarted = performance.now()
  // Each create hashes a password (bcrypt): four at a time keeps both cores busy.
  await inParallel(Array.from({ length: users }, (_, i) => i), 4, async (i) => {
    const user = await call("POST", "/users", {
      username: `person-${stamp}-${i}`,
      first_name: `Person ${i}`,
      role: i % 10 === 0 ? "admin" : "annotator",
      password: "person-password"
    }) as { id: string }
    await call("POST", `/workspaces/${workspaces[i % WORKSPACES]!.id}/users`, { user_id: user.id })
  })
  const seedSeconds = seconds(seedStarted)

  const viewport = { width: 1440, height: 960 }
  const storageState = await signedInState(browser, url, owner, viewport)
  const samples: Array<number> = []
  const pageErrors: Array<string> = []
  for (let i = 0; i < opens; i++) {
    const fresh = await browser.newContext({ viewport, storageState })
    await fresh.addInitScript({ content: tableShownAt })
    const cold = await fresh.newPage()
    cold.on("pageerror", (e) => pageErrors.push(e.message))
    await cold.goto(`${url}/users`)
    const shown = await cold.waitForFunction(() => (globalThis as { __tableShown?: number }).__tableShown, undefined, { timeout: 30_000 })
    samples.push(Number(await shown.jsonValue()))
    await fresh.close()
  }
  const sorted = samples.toSorted((a, b) => a - b)
  return {
    users,
    workspaces: WORKSPACES,
    seedSeconds,
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? 0),
    pageErrors
  }
}

interface JobAnswer {
  readonly status: string
  readonly progress: unknown
}

export const fileExportFigures = async (
  url: string,
  apiKey: string,
  records: number,
  serverPeakRss: () => number
) => {
  const call = api(url, apiKey)
  const me = await call("GET", "/me") as { id: string }
  // The export suite's dataset: two texts, a label question, three metadata properties (and a vector setting).
  const dataset = await transferDataset(call, `ui-export-${Date.now()}`)
  const loadStarted = performance.now()
  for (let from = 0; from < records; from += BATCH) {
    const items = Array.from({ length: Math.min(BATCH, records - from) }, (_, k) => {
      const i = from + k
      const label = i % 2 === 0 ? "pos" : "neg"
      return {
        ...benchRecord(i),
        suggestions: [{ question_name: "sentiment", value: label, score: (i % 100) / 100, agent: "bench-model" }],
        responses: [{ user_id: me.id, status: "submitted", values: { sentiment: { value: label } } }]
      }
    })
    await call("PUT", `/datasets/${dataset.id}/records/bulk`, { items })
  }
  const loadSeconds = seconds(loadStarted)

  const formats: Record<string, unknown> = {}
  for (const format of FORMATS) {
    const rssBefore = serverPeakRss()
    const started = performance.now()
    const answer = await fetch(`${url}/api/gloss/datasets/${dataset.id}/exports`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-gloss-api-key": apiKey },
      body: JSON.stringify({ format })
    })
    if (answer.status !== 202) throw new Error(`ui bench: export ${format} → ${answer.status}: ${await answer.text()}`)
    const { id } = await answer.json() as { id: string }
    for (;;) {
      const job = await call("GET", `/jobs/${id}`) as JobAnswer
      if (job.status === "failed") throw new Error(`ui bench: export ${format} failed: ${JSON.stringify(job.progress)}`)
      if (job.status === "finished") break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const jobSeconds = seconds(started)
    const downloadStarted = performance.now()
    const file = await fetch(`${url}/api/gloss/exports/${id}/file`, { headers: { "x-gloss-api-key": apiKey } })
    if (file.status !== 200 || file.body === null) throw new Error(`ui bench: download ${format} → ${file.status}`)
    let bytes = 0
    for await (const chunk of file.body) bytes += (chunk as Uint8Array).byteLength
    formats[format] = {
      jobSeconds,
      recordsPerSecond: Math.round(records / jobSeconds),
      downloadSeconds: seconds(downloadStarted),
      fileMB: Number((bytes / MB).toFixed(1)),
      serverPeakRssBeforeMB: Math.round(rssBefore / MB),
      serverPeakRssAfterMB: Math.round(serverPeakRss() / MB)
    }
  }
  return { records, loadSeconds, formats }
}
