/**
 * `npm run bench -- agreement [--records N]`: the agreement statistics alone (no server, no database), as the
 * agreement report and the review queue call them: `questionAgreement` over N records (100 000 by default) with three
 * annotators' answers each and a suggestion on half of them, for a label, a multi-label, a rating, a ranking, a span
 * and a text question; and `recordAgreement` for every record, as the queue does. Annotators agree with a hidden true
 * answer four times in five, so the answers have the spread of a real dataset (many distinct label sets, spans off by
 * a character). Each figure is the median of three runs on data generated once, in wall-clock and CPU seconds; the
 * load average is reported beside them.
 */
import * as os from "node:os"
import type { SuiteOptions } from "../run.js"
import type { AgreementQuestion } from "../../src/domain/Review.js"
import { type AgreementUnit, questionAgreement, recordAgreement } from "../../src/services/review/agreement/index.js"
import { seeded } from "../../src/services/review/agreement/seeded.js"

const TARGET_SECONDS = 3
const ANNOTATORS = 3
const RUNS = 3


const random = seeded(42)
const below = (n: number) => Math.floor(random() * n)
const options = (count: number) => Array.from({ length: count }, (_, i) => ({ value: `label-${i}`, text: `Label ${i}`, description: null }))
const LABELS = options(8)
const names = LABELS.map((option) => option.value)

interface Case {
  readonly question: AgreementQuestion
  truth(): unknown
  vary(truth: unknown): unknown
}

const spans = () => {
  const result: Array<{ label: string; start: number; end: number }> = []
  let at = below(20)
  for (let i = below(6); i >= 0 && at < 400; i--) {
    const end = at + 1 + below(12)
    result.push({ label: names[below(4)] ?? "label-0", start: at, end })
    at = end + 1 + below(30)
  }
  return result
}

const CASES: ReadonlyArray<Case> = [
  {
    question: { name: "label", settings: { type: "label_selection", options: LABELS, visible_options: null } },
    truth: () => names[below(names.length)],
    vary: () => names[below(names.length)]
  },
  {
    question: { name: "multi_label", settings: { type: "multi_label_selection", options: LABELS, visible_options: null, options_order: "natural" } },
    truth: () => {
      const chosen = names.filter(() => random() < 0.3)
      return chosen.length > 0 ? chosen : [names[0]]
    },
    vary: (truth) => {
      const set = new Set(Array.isArray(truth) ? truth : [])
      const label = names[below(names.length)] ?? "label-0"
      if (set.has(label) && set.size > 1) set.delete(label)
      else set.add(label)
      return [...set]
    }
  },
  {
    question: { name: "rating", settings: { type: "rating", options: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((value) => ({ value })) } },
    truth: () => 1 + below(10),
    vary: (truth) => Math.min(10, Math.max(1, Number(truth) + (random() < 0.5 ? -1 : 1) * (1 + below(2))))
  },
  {
    question: { name: "ranking", settings: { type: "ranking", options: options(5) } },
    truth: () => options(5).map((option) => ({ value: option.value, rank: 1 + below(5) })),
    vary: (truth) => (Array.isArray(truth) ? truth.map((item: { value: string; rank: number }) => ({ ...item, rank: random() < 0.3 ? 1 + below(5) : item.rank })) : truth)
  },
  {
    question: {
      name: "span",
      settings: { type: "span", field: "text", options: LABELS, visible_options: null, allow_overlapping: false, allow_character_annotation: true }
    },
    truth: spans,
    vary: (truth) => {
      const list = Array.isArray(truth) ? [...truth] : []
      const i = below(Math.max(1, list.length))
      const span = list[i]
      if (span === undefined || random() < 0.3) return spans()
      list[i] = { ...span, end: span.end + 1 }
      return list
    }
  },
  {
    question: { name: "text", settings: { type: "text", use_markdown: false } },
    truth: () => `answer ${below(50)}`,
    vary: (truth) => (random() < 0.5 ? ` ${String(truth).toUpperCase()}` : `answer ${below(50)}`)
  }
]

const userId = (i: number) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`
const usernames = new Map(Array.from({ length: ANNOTATORS }, (_, i) => [userId(i), `annotator-${i}`]))

const unitsFor = (item: Case, records: number): Array<AgreementUnit> =>
  Array.from({ length: records }, (_, r) => {
    const truth = item.truth()
    const answers = Array.from({ length: ANNOTATORS }, (_, a) => ({ userId: userId(a), value: random() < 0.8 ? truth : item.vary(truth) }))
    return { recordId: String(r), answers, ...(r % 2 === 0 ? { suggestion: random() < 0.7 ? truth : item.vary(truth) } : {}) }
  })

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

/**
 * Wall-clock seconds and the process's CPU seconds (user + system), each the median of RUNS runs. On a machine other
 * work is loading, the wall clock measures the load as much as the code; the CPU time is what the work costs.
 */
const timed = (work: () => void): { readonly seconds: number; readonly cpuSeconds: number } => {
  const seconds: Array<number> = []
  const cpu: Array<number> = []
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    const usage = process.cpuUsage()
    work()
    const used = process.cpuUsage(usage)
    seconds.push((performance.now() - started) / 1000)
    cpu.push((used.user + used.system) / 1e6)
  }
  return { seconds: Number(median(seconds).toFixed(3)), cpuSeconds: Number(median(cpu).toFixed(3)) }
}

export const agreementSuite = async (options: SuiteOptions) => {
  const records = Number(options.records ?? 100_000)
  if (!Number.isInteger(records) || records < 100) throw new Error(`--records must be an integer ≥ 100, got ${options.records}`)
  const questions: Record<string, unknown> = {}
  let slowest = 0
  for (const item of CASES) {
    const units = unitsFor(item, records)
    const report = questionAgreement(item.question, units, usernames)
    const reportTime = timed(() => questionAgreement(item.question, units, usernames))
    const answers = units.map((unit) => unit.answers.map((answer) => answer.value))
    const perRecord = timed(() => {
      for (const values of answers) recordAgreement(item.question, values)
    })
    slowest = Math.max(slowest, reportTime.cpuSeconds)
    questions[item.question.settings.type] = {
      questionAgreement: reportTime,
      recordsPerCpuSecond: Math.round(records / reportTime.cpuSeconds),
      recordAgreementForEveryRecord: perRecord,
      // What was computed, so a fast figure is not a figure of nothing.
      figures: Object.fromEntries(report.figures.map((f) => [`${f.measure}${f.variant === null ? "" : ` ${f.variant}`}`, f.value === null ? f.note : Number(f.value.toFixed(4))])),
      sampledNote: report.figures.find((f) => f.note?.includes("estimated") === true)?.note ?? null,
      recordsDisagreeing: report.records_disagreeing
    }
  }
  return {
    name: `questionAgreement over ${records} records × ${ANNOTATORS} answers (a suggestion on half), recordAgreement per record; median of ${RUNS}`,
    records,
    questions,
    heapUsedMB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    loadAverage: os.loadavg().map((load) => Number(load.toFixed(1))),
    target: `questionAgreement at 100 000 records × 3 answers in < ${TARGET_SECONDS} CPU seconds for every question type`,
    meetsTarget: slowest < TARGET_SECONDS
  }
}
