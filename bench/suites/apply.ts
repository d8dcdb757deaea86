/**
 * Applying a label to every record a search matches: 12 000 records of which a metadata filter matches
 * 10 000; one annotator sends `POST /me/datasets/{id}/responses/apply` and polls `GET /jobs/{id}` until it is
 * `finished`. The figure is the time from the request to the poll that sees `finished` (polled every 50 ms), on
 * SQLite and on PostgreSQL. `--records N` runs it small (N records, of which N × 5/6 match).
 */
import type { SuiteOptions } from "../run.js"
import { api, benchDataset } from "../lib/http.js"
import { BENCH_API_KEY, startGloss } from "../lib/processes.js"
import { withPostgres } from "./ingest.js"

const BATCH = 500
/** Below this many records nothing is measured: the dataset would be a page or two. */
const MIN_RECORDS = 60
const TARGET_SECONDS = 10

/** Five records in six are in the matching group: 12 000 records, 10 000 matches. */
const groupOf = (i: number) => (i % 6 === 5 ? "other" : "match")

const record = (i: number) => ({
  external_id: `apply-${i}`,
  fields: { title: `Record ${i}`, body: `Body of record ${i}` },
  metadata: { source: groupOf(i), stars: i % 6, score: (i % 1000) / 1000 }
})

interface Job {
  readonly id: string
  readonly status: string
  readonly progress?: { readonly done: number; readonly total: number | null; readonly failed: number }
}

const run = async (total: number, env: Record<string, string>) => {
  const server = await startGloss(env)
  try {
    const owner = api(server.url, BENCH_API_KEY)
    const datasetId = await benchDataset(owner, `apply-${Date.now()}`)
    for (let from = 0; from < total; from += BATCH) {
      const items = Array.from({ length: Math.min(BATCH, total - from) }, (_, k) => record(from + k))
      await owner("POST", `/datasets/${datasetId}/records/bulk`, { items })
    }
    const { workspace_id } = await owner("GET", `/datasets/${datasetId}`) as { workspace_id: string }
    const username = `annotator-${Date.now()}`
    const annotator = await owner("POST", "/users", {
      first_name: "Annie",
      username,
      password: "annotator-password",
      role: "annotator"
    }) as { id: string; api_key: string }
    await owner("POST", `/workspaces/${workspace_id}/users`, { user_id: annotator.id })
    const call = api(server.url, annotator.api_key)
    const expected = Array.from({ length: total }, (_, i) => groupOf(i)).filter((group) => group === "match").length

    const started = performance.now()
    let job = await call("POST", `/me/datasets/${datasetId}/responses/apply`, {
      search: {
        filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["match"] }] }
      },
      values: { sentiment: { value: "pos" } },
      status: "submitted"
    }) as Job
    let polls = 0
    while (job.status !== "finished" && job.status !== "failed") {
      await new Promise((resolve) => setTimeout(resolve, 50))
      job = await call("GET", `/jobs/${job.id}`) as Job
      polls++
    }
    const seconds = (performance.now() - started) / 1000
    if (job.status !== "finished") throw new Error(`the apply job ended ${job.status}`)
    if (job.progress?.done !== expected || job.progress.total !== expected || job.progress.failed !== 0) {
      throw new Error(`expected ${expected} records done, the job says ${JSON.stringify(job.progress)}`)
    }
    const completed = await owner("POST", `/datasets/${datasetId}/records/search?limit=1`, {
      filters: { and: [{ type: "terms", scope: { entity: "record", property: "status" }, values: ["completed"] }] }
    }) as { total: number }
    if (completed.total !== Math.min(expected, 10_000)) {
      throw new Error(`expected ${expected} completed records, the search finds ${completed.total}`)
    }
    return {
      matching: expected,
      seconds: Number(seconds.toFixed(2)),
      recordsPerSecond: Math.round(expected / seconds),
      polls,
      peakRssMB: Math.round(server.peakRss() / 2 ** 20)
    }
  } finally {
    await server.stop()
  }
}

export const applySuite = async (options: SuiteOptions) => {
  const total = Number(options.records ?? 12_000)
  if (!Number.isInteger(total) || total < MIN_RECORDS) {
    throw new Error(`--records must be an integer ≥ ${MIN_RECORDS}, got ${options.records}`)
  }
  const sqlite = await run(total, {})
  const postgres = await withPostgres((url) => run(total, { GLOSS_DATABASE_URL: url }))
  return {
    name: `POST /me/datasets/{id}/responses/apply: ${total} records, a metadata filter matching 5 in 6, until finished`,
    sqlite,
    postgres,
    target: `applying a label to 10 000 matching records finishes in < ${TARGET_SECONDS} s`,
    meetsTarget: sqlite.seconds < TARGET_SECONDS && ("skipped" in postgres || postgres.seconds < TARGET_SECONDS)
  }
}
