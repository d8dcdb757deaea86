/**
 * Assignment at 100 000 records: a page of an annotator's queue (`POST /api/gloss/me/datasets/{id}/queue?limit=20`,
 * reserving the page's pool records), timed from the client over 20 calls each (p50 and p95, and the server's CPU
 * seconds per call), in a dataset with no assignments, with half the records assigned over 5 users (a page of one of
 * them), with a quota (a page of a user with none assigned), with every record assigned; the lead's summary
 * (`GET …/assignments`) over as many calls; and, once, removing every assignment and assigning every record a
 * filter matches to the group of 5 with an overlap of 2. On SQLite and PostgreSQL (`--backends sqlite` for SQLite
 * alone); `--records N` runs it small.
 */
import type { SuiteOptions } from "../run.js"
import { api, benchDataset, benchRecord } from "../lib/http.js"
import { percentile } from "../lib/latency.js"
import { BENCH_API_KEY, startGloss } from "../lib/processes.js"
import { withPostgres } from "./ingest.js"
import { timed } from "./review.js"

const BATCH = 500
/** Records come in thousands, so that half of them have a `score` under 0.5 and the group shares them evenly. */
const MIN_RECORDS = 1000
const CALLS = 20
const PAGE = 20
const ASSIGNEES = 5
const OVERLAP = 2
const QUOTA = 100
/** What an annotator waits for the next records (p95), and a lead for a whole dataset's assignment. */
const PAGE_TARGET_SECONDS = 1
const ASSIGN_TARGET_SECONDS = 30

interface QueuePage {
  readonly items: ReadonlyArray<{ readonly reason: string }>
  readonly total: number
  readonly assigned: number
  readonly pool: number
  readonly quota_left: number | null
}

const gloss = (baseUrl: string, apiKey: string) =>
  async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${baseUrl}/api/gloss${path}`, {
      method,
      headers: { "content-type": "application/json", "x-gloss-api-key": apiKey },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 500)}`)
    return JSON.parse(text)
  }

const round = (seconds: number) => Number(seconds.toFixed(3))

/** `CALLS` calls one after another: p50 and p95 of the wall clock, the mean of the server's CPU seconds. */
const sample = async <A>(pid: number | undefined, work: () => Promise<A>) => {
  const seconds: Array<number> = []
  let cpu = 0
  let last: A | undefined
  for (let n = 0; n < CALLS; n++) {
    const call = await timed(pid, work)
    seconds.push(call.seconds)
    cpu += call.cpuSeconds
    last = call.result
  }
  seconds.sort((a, b) => a - b)
  return {
    figures: {
      p50Seconds: round(percentile(seconds, 50)),
      p95Seconds: round(percentile(seconds, 95)),
      cpuSecondsPerCall: Number((cpu / CALLS).toFixed(3))
    },
    last: last as A
  }
}

const check = (condition: boolean, what: string, seen: unknown) => {
  if (!condition) throw new Error(`${what}: ${JSON.stringify(seen).slice(0, 300)}`)
}

const run = async (total: number, env: Record<string, string>) => {
  const server = await startGloss(env)
  try {
    const owner = api(server.url, BENCH_API_KEY)
    const lead = gloss(server.url, BENCH_API_KEY)
    const datasetId = await benchDataset(owner, `queue-${Date.now()}`)
    const dataset = await owner("GET", `/datasets/${datasetId}`) as { workspace_id: string }
    const people: Array<{ id: string; queue: ReturnType<typeof gloss> }> = []
    for (let j = 0; j <= ASSIGNEES; j++) {
      const user = await owner("POST", "/users", {
        first_name: `Annotator ${j}`,
        username: `queue-annotator-${j}-${Date.now()}`,
        password: "annotator-password",
        role: "annotator"
      }) as { id: string; api_key: string }
      await owner("POST", `/workspaces/${dataset.workspace_id}/users`, { user_id: user.id })
      people.push({ id: user.id, queue: gloss(server.url, user.api_key) })
    }
    const group = people.slice(0, ASSIGNEES)
    const outsider = people[ASSIGNEES]!
    const pid = server.child.pid
    const ingest = await timed(pid, async () => {
      for (let from = 0; from < total; from += BATCH) {
        const items = Array.from({ length: Math.min(BATCH, total - from) }, (_, k) => benchRecord(from + k))
        await owner("POST", `/datasets/${datasetId}/records/bulk`, { items })
      }
    })
    const queuePage = (person: { queue: ReturnType<typeof gloss> }) => () =>
      person.queue("POST", `/me/datasets/${datasetId}/queue?limit=${PAGE}`, {}) as Promise<QueuePage>

    const noAssignments = await sample(pid, queuePage(outsider))
    const first = noAssignments.last
    check(first.total === total && first.items.length === PAGE, "a pool page", first)

    // Half the records (a `score` under 0.5: 500 in every 1 000) over the group, one each.
    const half = { and: [{ type: "range", scope: { entity: "metadata", metadata_property: "score" }, le: 0.4995 }] }
    const halfAssigned = await timed(pid, () =>
      lead("POST", `/datasets/${datasetId}/assignments`, {
        users: group.map((p) => p.id),
        query: { filters: half },
        per_record: 1
      }) as Promise<{ records: number; assigned: number }>
    )
    check(halfAssigned.result.assigned === total / 2, "half the records assigned", halfAssigned.result)
    const assignee = await sample(pid, queuePage(group[0]!))
    check(
      assignee.last.assigned === total / 2 / ASSIGNEES && assignee.last.items[0]?.reason === "assigned",
      "an assignee's page",
      assignee.last
    )

    await lead("PUT", `/datasets/${datasetId}/queue-settings`, { quota: QUOTA })
    const withQuota = await sample(pid, queuePage(outsider))
    check(withQuota.last.total === QUOTA && withQuota.last.quota_left !== null, "a page under a quota", withQuota.last)
    await lead("PUT", `/datasets/${datasetId}/queue-settings`, { quota: null })

    const summary = await sample(pid, () =>
      lead("GET", `/datasets/${datasetId}/assignments`) as Promise<{ records: number }>
    )
    check(summary.last.records === total, "the summary", summary.last)

    const unassignAll = await timed(pid, () =>
      lead("POST", `/datasets/${datasetId}/assignments/remove`, {}) as Promise<{ removed: number }>
    )
    const pending = { and: [{ type: "terms", scope: { entity: "record", property: "status" }, values: ["pending"] }] }
    const assignAll = await timed(pid, () =>
      lead("POST", `/datasets/${datasetId}/assignments`, {
        users: group.map((p) => p.id),
        query: { filters: pending },
        per_record: OVERLAP
      }) as Promise<{ records: number; assigned: number }>
    )
    check(assignAll.result.assigned === total * OVERLAP, "every record assigned", assignAll.result)
    const allAssigned = await sample(pid, queuePage(group[1]!))
    const everyone = allAssigned.last
    check(everyone.assigned === (total * OVERLAP) / ASSIGNEES, "a page when every record is assigned", everyone)

    return {
      records: total,
      ingestSeconds: Number(ingest.seconds.toFixed(1)),
      queuePage: {
        noAssignments: noAssignments.figures,
        halfAssigned: assignee.figures,
        withQuota: withQuota.figures,
        allAssigned: allAssigned.figures
      },
      summary: summary.figures,
      assignHalfByFilter: {
        seconds: halfAssigned.seconds,
        cpuSeconds: halfAssigned.cpuSeconds,
        assigned: halfAssigned.result.assigned
      },
      unassignAll: {
        seconds: unassignAll.seconds,
        cpuSeconds: unassignAll.cpuSeconds,
        removed: unassignAll.result.removed
      },
      assignAllByFilter: {
        seconds: assignAll.seconds,
        cpuSeconds: assignAll.cpuSeconds,
        assigned: assignAll.result.assigned
      },
      peakRssMB: Math.round(server.peakRss() / 2 ** 20)
    }
  } finally {
    await server.stop()
  }
}

type Run = Awaited<ReturnType<typeof run>>

const meets = (r: Run) =>
  Object.values(r.queuePage).every((page) => page.p95Seconds < PAGE_TARGET_SECONDS) &&
  r.summary.p95Seconds < PAGE_TARGET_SECONDS && r.assignAllByFilter.seconds < ASSIGN_TARGET_SECONDS

export const queueSuite = async (options: SuiteOptions) => {
  const total = Number(options.records ?? 100_000)
  if (!Number.isInteger(total) || total < MIN_RECORDS || total % MIN_RECORDS !== 0) {
    throw new Error(`--records must be a multiple of ${MIN_RECORDS}, got ${options.records}`)
  }
  const sqlite = await run(total, {})
  const postgres = options.backends === "sqlite"
    ? { skipped: "--backends sqlite" }
    : await withPostgres((url) => run(total, { GLOSS_DATABASE_URL: url }))
  return {
    name: `queue: ${total} records, ${ASSIGNEES + 1} annotators: a queue page (limit ${PAGE}, reserving) with no ` +
      `assignments, half assigned, a quota of ${QUOTA}, every record assigned; the lead's summary (p50/p95 of ` +
      `${CALLS} calls); assigning every record a filter matches to ${ASSIGNEES} users, ${OVERLAP} per record`,
    sqlite,
    postgres,
    target: `a queue page and the summary p95 < ${PAGE_TARGET_SECONDS} s, ` +
      `assigning every record < ${ASSIGN_TARGET_SECONDS} s`,
    meetsTarget: meets(sqlite) && ("skipped" in postgres || meets(postgres))
  }
}
