/**
 * What the reference implementations must say about a scenario: each figure of `questionAgreement`'s answer paired
 * with the jobs for test/review/agreement_reference.py that compute it from the raw table (never from Gloss's own
 * intermediate results), and the plain counts computed here.
 */
import type { QuestionAgreement } from "../../src/domain/Review.js"
import { type Scenario, userId } from "./scenarios.js"

export type Job = Readonly<Record<string, unknown>> & { readonly kind: string }

export interface Check {
  readonly what: string
  readonly actual: number | null
  readonly jobs: ReadonlyArray<Job>
  /** From the jobs' answers, in order, the value expected. */
  readonly combine: (answers: ReadonlyArray<number | null>) => number | null
}

export const meanOfDefined = (values: ReadonlyArray<number | null>): number | null => {
  const defined = values.filter((value): value is number => value !== null)
  return defined.length === 0 ? null : defined.reduce((a, b) => a + b, 0) / defined.length
}

const only = (answers: ReadonlyArray<number | null>) => answers[0] ?? null

type Item = { readonly value: string; readonly rank: number }
type SpanItem = { readonly label: string; readonly start: number; readonly end: number }

/** Ranks in the question's option order. */
const ranksOf = (scenario: Scenario, value: unknown): Array<number> => {
  const options = scenario.question.settings.type === "ranking" ? scenario.question.settings.options : []
  const items: ReadonlyArray<Item> = Array.isArray(value) ? value : []
  return options.map((option) => items.find((item) => item.value === option.value)?.rank ?? 0)
}

const spansOf = (value: unknown): Array<[string, number, number]> =>
  (Array.isArray(value) ? value : []).map((span: SpanItem) => [span.label, span.start, span.end])

/** When two answers are the same answer, written independently of Gloss's codecs. */
export const keyOf = (scenario: Scenario, value: unknown): string => {
  switch (scenario.question.settings.type) {
    case "multi_label_selection":
      return JSON.stringify([...new Set(Array.isArray(value) ? value : [])].sort())
    case "ranking": {
      const ranks = ranksOf(scenario, value)
      const distinct = [...new Set(ranks)].sort((a, b) => a - b)
      return JSON.stringify(ranks.map((rank) => distinct.indexOf(rank)))
    }
    case "span":
      return JSON.stringify([...new Set(spansOf(value).map((span) => JSON.stringify(span)))].sort())
    case "text":
      return String(value).trim().toLowerCase()
    default:
      return JSON.stringify(value)
  }
}

const answered = (row: ReadonlyArray<unknown>) => row.filter((value) => value !== null)

/** The job comparing two coders' aligned answers, by the question type's pair measure. */
const pairJob = (scenario: Scenario, a: ReadonlyArray<unknown>, b: ReadonlyArray<unknown>): Check["jobs"] => {
  const two = (values: ReadonlyArray<unknown>, coder: number) => values.map((value, item) => [coder, item, value])
  switch (scenario.question.settings.type) {
    case "label_selection":
      return [{ kind: "cohen", a, b }]
    case "multi_label_selection":
      return [{ kind: "nltk_alpha", distance: "masi", triples: [...two(a, 0), ...two(b, 1)] }]
    case "rating":
      return [{ kind: "krippendorff", level: "ordinal", matrix: [a, b] }]
    case "ranking": {
      const ranks = (values: ReadonlyArray<unknown>) => values.map((value) => ranksOf(scenario, value))
      return [{ kind: "nltk_alpha", distance: "rank", triples: [...two(ranks(a), 0), ...two(ranks(b), 1)] }]
    }
    case "span":
      return [{ kind: "span_f1", mode: "exact", label: null, a: a.map(spansOf), b: b.map(spansOf) }]
    case "text":
      return []
  }
}

const pairCombine = (scenario: Scenario, a: ReadonlyArray<unknown>, b: ReadonlyArray<unknown>) =>
  scenario.question.settings.type === "text"
    ? () => (a.length === 0 ? null : a.filter((value, i) => keyOf(scenario, value) === keyOf(scenario, b[i])).length / a.length)
    : only

export const checksOf = (scenario: Scenario, report: QuestionAgreement): Array<Check> => {
  const { table } = scenario
  const coders = table[0]?.length ?? 0
  const checks: Array<Check> = []
  const plain = (what: string, actual: number | null, expected: number | null) =>
    checks.push({ what, actual, jobs: [], combine: () => expected })
  const compared = table.filter((row) => answered(row).length >= 2)
  plain("records_compared", report.records_compared, compared.length)
  plain("records_single", report.records_single, table.filter((row) => answered(row).length === 1).length)
  plain("records_unanswered", report.records_unanswered, table.filter((row) => answered(row).length === 0).length)
  plain(
    "records_disagreeing",
    report.records_disagreeing,
    compared.filter((row) => new Set(answered(row).map((value) => keyOf(scenario, value))).size > 1).length
  )
  let equal = 0
  let pairCount = 0
  for (const row of compared) {
    const keys = answered(row).map((value) => keyOf(scenario, value))
    for (let i = 0; i < keys.length; i++) for (let j = i + 1; j < keys.length; j++) {
      pairCount++
      if (keys[i] === keys[j]) equal++
    }
  }
  const figure = (measure: string, variant: string | null, figures = report.figures) =>
    figures.find((f) => f.measure === measure && f.variant === variant)?.value ?? null
  plain("exact_match", figure("exact_match", null), pairCount === 0 ? null : equal / pairCount)

  // Annotator pairs, in column order, over the records both answered.
  const shared = (a: number, b: number) => table.filter((row) => row[a] !== null && row[b] !== null)
  const pairs: Array<{ a: number; b: number; records: number; jobs: Check["jobs"]; combine: Check["combine"] }> = []
  for (let a = 0; a < coders; a++) {
    for (let b = a + 1; b < coders; b++) {
      const rows = shared(a, b)
      if (rows.length === 0) continue
      const left = rows.map((row) => row[a])
      const right = rows.map((row) => row[b])
      pairs.push({ a, b, records: rows.length, jobs: pairJob(scenario, left, right), combine: pairCombine(scenario, left, right) })
    }
  }
  plain("pair count", report.pairs.length, pairs.length)
  pairs.forEach((pair, at) => {
    const found = report.pairs[at]
    plain(`pair ${pair.a}-${pair.b} in order`, found?.a === userId(pair.a) && found.b === userId(pair.b) ? 1 : 0, 1)
    plain(`pair ${pair.a}-${pair.b} records`, found?.records ?? null, pair.records)
    checks.push({ what: `pair ${pair.a}-${pair.b}`, actual: found?.value ?? null, jobs: pair.jobs, combine: pair.combine })
  })

  // Each annotator against the suggestion, and the suggestion against the majority.
  for (let c = 0; c < coders; c++) {
    const rows = table.map((row, r) => ({ row, r })).filter(({ r, row }) => row[c] !== null && scenario.suggestions[r] !== undefined)
    const mine = rows.map(({ row }) => row[c])
    const model = rows.map(({ r }) => scenario.suggestions[r])
    const person = report.annotators.find((annotator) => annotator.user_id === userId(c))
    if (person === undefined) {
      plain(`annotator ${c} absent (no answers)`, table.filter((row) => row[c] !== null).length, 0)
      continue
    }
    plain(`annotator ${c} answers`, person.answers, table.filter((row) => row[c] !== null).length)
    plain(`annotator ${c} records_with_suggestion`, person.records_with_suggestion, rows.length)
    if (rows.length > 0) {
      checks.push({ what: `annotator ${c} with_suggestions`, actual: person.with_suggestions, jobs: pairJob(scenario, mine, model), combine: pairCombine(scenario, mine, model) })
    }
  }
  const majority = table.flatMap((row, r) => {
    const suggestion = scenario.suggestions[r]
    const values = answered(row)
    if (suggestion === undefined || values.length === 0) return []
    const top = values.find((value) =>
      values.filter((other) => keyOf(scenario, other) === keyOf(scenario, value)).length * 2 > values.length)
    return top === undefined ? [] : [{ suggestion, top }]
  })
  if (scenario.suggestions.some((s, r) => s !== undefined && answered(table[r] ?? []).length > 0)) {
    plain("suggestions records", report.suggestions?.records ?? null, majority.length)
    const model = majority.map((m) => m.suggestion)
    const people = majority.map((m) => m.top)
    if (majority.length > 0) {
      checks.push({ what: "suggestions", actual: report.suggestions?.value ?? null, jobs: pairJob(scenario, model, people), combine: pairCombine(scenario, model, people) })
    }
  } else plain("suggestions absent", report.suggestions === null ? 1 : 0, 1)

  const pairMean = (what: string, actual: number | null, jobOf: (a: number, b: number) => Job) =>
    checks.push({ what, actual, jobs: pairs.map(({ a, b }) => jobOf(a, b)), combine: meanOfDefined })
  const columns = (project: (value: unknown) => unknown) =>
    Array.from({ length: coders }, (_, c) => table.map((row) => (row[c] === null ? null : project(row[c]))))
  const triples = (project: (value: unknown) => unknown) =>
    table.flatMap((row, r) => row.flatMap((value, c) => (value === null ? [] : [[c, r, project(value)]])))

  switch (scenario.question.settings.type) {
    case "label_selection": {
      const names = scenario.question.settings.options.map((option) => option.value)
      checks.push({ what: "alpha nominal", actual: figure("krippendorff_alpha", "nominal"), jobs: [{ kind: "krippendorff", level: "nominal", matrix: columns((v) => names.indexOf(String(v))) }], combine: only })
      checks.push({ what: "cohen mean", actual: figure("cohen_kappa", null), jobs: pairs.flatMap((pair) => pair.jobs), combine: meanOfDefined })
      const sizes = new Set(compared.map((row) => answered(row).length))
      if (sizes.size === 1) {
        checks.push({ what: "fleiss", actual: figure("fleiss_kappa", null), jobs: [{ kind: "fleiss", units: compared.map((row) => answered(row).map((v) => names.indexOf(String(v)))) }], combine: only })
      } else plain("fleiss (sizes differ)", figure("fleiss_kappa", null), null)
      break
    }
    case "multi_label_selection": {
      for (const distance of ["masi", "jaccard"]) {
        checks.push({ what: `alpha ${distance}`, actual: figure("krippendorff_alpha", distance), jobs: [{ kind: "nltk_alpha", distance, triples: triples((v) => v) }], combine: only })
      }
      for (const option of scenario.question.settings.options) {
        const has = (value: unknown) => (Array.isArray(value) && value.includes(option.value) ? 1 : 0)
        const figures = report.labels.find((label) => label.label === option.value)?.figures ?? []
        checks.push({ what: `label ${option.value} alpha`, actual: figure("krippendorff_alpha", "nominal", figures), jobs: [{ kind: "krippendorff", level: "nominal", matrix: columns(has) }], combine: only })
        pairMean(`label ${option.value} kappa`, figure("cohen_kappa", null, figures), (a, b) => {
          const rows = shared(a, b)
          return { kind: "cohen", a: rows.map((row) => has(row[a])), b: rows.map((row) => has(row[b])) }
        })
      }
      break
    }
    case "rating":
      for (const level of ["ordinal", "interval"]) {
        checks.push({ what: `alpha ${level}`, actual: figure("krippendorff_alpha", level), jobs: [{ kind: "krippendorff", level, matrix: columns((v) => v) }], combine: only })
      }
      break
    case "ranking":
      checks.push({ what: "alpha rank", actual: figure("krippendorff_alpha", "rank"), jobs: [{ kind: "nltk_alpha", distance: "rank", triples: triples((v) => ranksOf(scenario, v)) }], combine: only })
      checks.push({ what: "kendall w", actual: figure("kendall_w", null), jobs: compared.length === 0 ? [] : [{ kind: "kendall_w", records: compared.map((row) => answered(row).map((v) => ranksOf(scenario, v))) }], combine: only })
      break
    case "span": {
      const names: Array<string | null> = [null, ...scenario.question.settings.options.map((option) => option.value)]
      for (const label of names) {
        const figures = label === null ? report.figures : report.labels.find((l) => l.label === label)?.figures ?? []
        for (const mode of ["exact", "overlap"]) {
          pairMean(`f1 ${mode} ${label ?? "all"}`, figure("f1", mode, figures), (a, b) => {
            const rows = shared(a, b)
            return { kind: "span_f1", mode, label, a: rows.map((row) => spansOf(row[a])), b: rows.map((row) => spansOf(row[b])) }
          })
        }
      }
      break
    }
    case "text":
      break
  }
  return checks
}
