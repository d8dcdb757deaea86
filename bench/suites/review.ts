/**
 * Review at 100 000 records: three annotators each submit an answer to a label, a rating and a multi-label question
 * on every record (about four in five agree with the record's base answer), sent in with the records through the
 * bulk endpoint. Then, timed from the client: the agreement report over every record and question
 * (`POST /api/gloss/datasets/{id}/agreement`), the first page of the least-agreement queue of disagreements
 * (`POST …/review/records`), each three times, and accepting every unanimous answer once
 * (`POST …/final-answers/accept-agreed`), on SQLite and PostgreSQL. `--records N` runs it small.
 */
import type { SuiteOptions } from "../run.js"
import { api } from "../lib/http.js"
import { BENCH_API_KEY, cpuSecondsOf, startGloss } from "../lib/processes.js"
import { withPostgres } from "./ingest.js"

const BATCH = 500
const MIN_RECORDS = 100
const TARGET_SECONDS = 5
const ACCEPT_TARGET_SECONDS = 30
const LABELS = ["positive", "negative", "neutral"]
const TOPICS = ["price", "delivery", "quality", "support", "design"]

/** A small deterministic hash of a record and an annotator, in [0, 1000). */
const roll = (i: number, j: number, salt: number) => ((i * 2654435761 + j * 40503 + salt * 97) >>> 0) % 1000

/** Annotator `j`'s answers to record `i`: the record's base answers, each changed for about one answer in five. */
const answers = (i: number, j: number) => {
  const label = roll(i, j, 1) < 800 ? LABELS[i % 3] : LABELS[(i + 1 + j) % 3]
  const rating = roll(i, j, 2) < 800 ? 1 + (i % 5) : 1 + ((i + 1 + j) % 5)
  const base = TOPICS.filter((_, t) => ((i % 31) + 1) & (1 << t))
  const topics = roll(i, j, 3) < 800 ? base : base.length > 1 ? base.slice(1) : [...base, TOPICS[(i + j) % 5] === base[0] ? TOPICS[(i + j + 1) % 5] : TOPICS[(i + j) % 5]]
  return { label: { value: label }, rating: { value: rating }, topics: { value: topics } }
}

const gloss = (baseUrl: string) => async (method: string, path: string, body?: unknown): Promise<unknown> => {
  const response = await fetch(`${baseUrl}/api/gloss${path}`, {
    method,
    headers: { "content-type": "application/json", "x-gloss-api-key": BENCH_API_KEY },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 500)}`)
  return JSON.parse(text)
}


/**
 * Wall-clock seconds from the client, and the server's CPU seconds over the same call: on a machine other work
 * loads, the CPU seconds say what the call costs, the wall clock what a user waited.
 */
export const timed = async <A>(pid: number | undefined, work: () => Promise<A>) => {
  const started = performance.now()
  const cpu = cpuSecondsOf(pid)
  const result = await work()
  return {
    seconds: Number(((performance.now() - started) / 1000).toFixed(3)),
    cpuSeconds: Number((cpuSecondsOf(pid) - cpu).toFixed(2)),
    result
  }
}

const run = async (total: number, env: Record<string, string>) => {
  const server = await startGloss(env)
  try {
    const owner = api(server.url, BENCH_API_KEY)
    const review = gloss(server.url)
    const workspace = await owner("POST", "/workspaces", { name: `review-${Date.now()}` }) as { id: string }
    const dataset = await owner("POST", "/datasets", { name: "review", workspace_id: workspace.id }) as { id: string }
    const post = (kind: string, body: unknown) => owner("POST", `/datasets/${dataset.id}/${kind}`, body)
    await post("fields", { name: "text", title: "Text", required: true, settings: { type: "text" } })
    await post("questions", {
      name: "label",
      title: "Label",
      required: true,
      settings: { type: "label_selection", options: LABELS.map((value) => ({ value, text: value })) }
    })
    await post("questions", {
      name: "rating",
      title: "Rating",
      required: true,
      settings: { type: "rating", options: [1, 2, 3, 4, 5].map((value) => ({ value })) }
    })
    await post("questions", {
      name: "topics",
      title: "Topics",
      required: true,
      settings: { type: "multi_label_selection", options: TOPICS.map((value) => ({ value, text: value })) }
    })
    await owner("PUT", `/datasets/${dataset.id}/publish`)
    const annotators: Array<string> = []
    for (let j = 0; j < 3; j++) {
      const user = await owner("POST", "/users", {
        first_name: `Annotator ${j}`,
        username: `annotator-${j}-${Date.now()}`,
        password: "annotator-password",
        role: "annotator"
      }) as { id: string }
      await owner("POST", `/workspaces/${workspace.id}/users`, { user_id: user.id })
      annotators.push(user.id)
    }
    const pid = server.child.pid
    const ingest = await timed(pid, async () => {
      for (let from = 0; from < total; from += BATCH) {
        const items = Array.from({ length: Math.min(BATCH, total - from) }, (_, k) => {
          const i = from + k
          return {
            external_id: `review-${i}`,
            fields: { text: `Record ${i}` },
            responses: annotators.map((user_id, j) => ({ user_id, status: "submitted", values: answers(i, j) }))
          }
        })
        await owner("POST", `/datasets/${dataset.id}/records/bulk`, { items })
      }
    })
    const agreement: Array<number> = []
    const agreementCpu: Array<number> = []
    let report: { records: number; questions: ReadonlyArray<{ question: string; records_compared: number }> } | undefined
    for (let n = 0; n < 3; n++) {
      const { cpuSeconds, result, seconds } = await timed(pid, () => review("POST", `/datasets/${dataset.id}/agreement`, {}))
      agreement.push(seconds)
      agreementCpu.push(cpuSeconds)
      report = result as typeof report
    }
    if (report?.records !== total || report.questions.some((q) => q.records_compared !== total)) {
      throw new Error(`the agreement report did not cover ${total} records: ${JSON.stringify(report).slice(0, 300)}`)
    }
    const queue: Array<number> = []
    const queueCpu: Array<number> = []
    let page: { total: number; items: ReadonlyArray<unknown> } | undefined
    for (let n = 0; n < 3; n++) {
      const { cpuSeconds, result, seconds } = await timed(pid, () =>
        review("POST", `/datasets/${dataset.id}/review/records?limit=50`, { queue: "disagreement", order: "least_agreement" })
      )
      queue.push(seconds)
      queueCpu.push(cpuSeconds)
      page = result as typeof page
    }
    if (page === undefined || page.items.length !== Math.min(50, page.total)) throw new Error("the queue page is short")
    const accept = await timed(pid, () => review("POST", `/datasets/${dataset.id}/final-answers/accept-agreed`, {}))
    const accepted = accept.result as { settled: number; records: number }
    if (accepted.settled === 0) throw new Error("accept-agreed settled nothing")
    return {
      records: total,
      answers: total * 3,
      ingestSeconds: Number(ingest.seconds.toFixed(1)),
      agreementSeconds: agreement,
      agreementCpuSeconds: agreementCpu,
      queuePageSeconds: queue,
      queuePageCpuSeconds: queueCpu,
      queueDisagreements: page.total,
      acceptAgreedSeconds: accept.seconds,
      acceptAgreedCpuSeconds: accept.cpuSeconds,
      acceptedFinalAnswers: accepted.settled,
      acceptedRecords: accepted.records,
      peakRssMB: Math.round(server.peakRss() / 2 ** 20)
    }
  } finally {
    await server.stop()
  }
}

const best = (seconds: ReadonlyArray<number>) => Math.min(...seconds)

export const reviewSuite = async (options: SuiteOptions) => {
  const total = Number(options.records ?? 100_000)
  if (!Number.isInteger(total) || total < MIN_RECORDS) {
    throw new Error(`--records must be an integer ≥ ${MIN_RECORDS}, got ${options.records}`)
  }
  const sqlite = await run(total, {})
  const postgres = options.backends === "sqlite"
    ? { skipped: "--backends sqlite" }
    : await withPostgres((url) => run(total, { GLOSS_DATABASE_URL: url }))
  const meets = (r: Awaited<ReturnType<typeof run>>) =>
    best(r.agreementSeconds) < TARGET_SECONDS && best(r.queuePageSeconds) < TARGET_SECONDS &&
    r.acceptAgreedSeconds < ACCEPT_TARGET_SECONDS
  return {
    name: `review: ${total} records × 3 submitted answers (label, rating, multi-label): agreement, a least-agreement ` +
      "queue page, accept-agreed",
    sqlite,
    postgres,
    target: `agreement and a queue page each < ${TARGET_SECONDS} s, accept-agreed < ${ACCEPT_TARGET_SECONDS} s`,
    meetsTarget: meets(sqlite) && ("skipped" in postgres || meets(postgres))
  }
}
