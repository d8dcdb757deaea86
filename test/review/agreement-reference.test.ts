/**
 * The agreement figures against the reference implementations (test/review/agreement_reference.py: krippendorff,
 * scikit-learn, statsmodels, NLTK, SciPy, seqeval in `.venv`) on seeded random answers of every question type and on
 * the edge cases, to 1e-9. Skipped with a printed reason without `.venv/bin/python`, a failure under CI=true.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { questionAgreement } from "../../src/services/review/agreement/index.js"
import { type Check, checksOf } from "./expected.js"
import { edgeCases } from "./edgeCases.js"
import { generated, type Scenario, type Shape, userId, username } from "./scenarios.js"

const PYTHON = path.resolve(import.meta.dirname, "../../.venv/bin/python")
const SCRIPT = path.resolve(import.meta.dirname, "agreement_reference.py")
const TOLERANCE = 1e-9

const SHAPES: ReadonlyArray<Shape> = [
  { records: 120, annotators: 3, missing: 0, noise: 0.3, suggested: 0.8 },
  { records: 200, annotators: 3, missing: 0.25, noise: 0.4, suggested: 0.5 },
  { records: 80, annotators: 2, missing: 0.1, noise: 0.5, suggested: 0 },
  { records: 60, annotators: 5, missing: 0.4, noise: 0.2, suggested: 0.3 }
]
const TYPES = ["label", "multi", "rating", "ranking", "span", "text"] as const

const scenarios: ReadonlyArray<Scenario> = [
  ...TYPES.flatMap((type) => SHAPES.map((shape, at) => generated(type, 1000 * (TYPES.indexOf(type) + 1) + at, shape))),
  ...edgeCases
]

const run = (scenario: Scenario) => {
  const coders = scenario.table[0]?.length ?? 0
  const usernames = new Map(Array.from({ length: coders }, (_, c) => [userId(c), username(c)]))
  const units = scenario.table.map((row, r) => ({
    recordId: `record-${r}`,
    answers: row.flatMap((value, c) => (value === null ? [] : [{ userId: userId(c), value }])),
    ...(scenario.suggestions[r] === undefined ? {} : { suggestion: scenario.suggestions[r] })
  }))
  return questionAgreement(scenario.question, units, usernames)
}

const pythonAvailable = fs.existsSync(PYTHON)
if (!pythonAvailable) {
  if (process.env["CI"] === "true") throw new Error("no .venv/bin/python: the agreement reference tests cannot run")
  console.warn("agreement-reference: skipping: no .venv/bin/python (bash scripts/services.sh installs it)")
}

describe.runIf(pythonAvailable)("agreement figures against the reference implementations", () => {
  const all = scenarios.map((scenario) => ({ scenario, checks: checksOf(scenario, run(scenario)) }))
  const jobs = all.flatMap(({ checks }, s) =>
    checks.flatMap((check, c) => check.jobs.map((job, j) => ({ ...job, id: `${s}/${c}/${j}` }))))
  let answers: Record<string, number | null> = {}
  let reference: ReturnType<typeof spawnSync> | undefined

  // One Python process for every scenario: starting SciPy and scikit-learn takes longer than the figures.
  beforeAll(() => {
    reference = spawnSync(PYTHON, [SCRIPT], { input: JSON.stringify({ jobs }), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
    if (reference.status === 0) answers = JSON.parse(String(reference.stdout))
  }, 120_000)

  it("the reference script answers every job", () => {
    expect(String(reference?.stderr)).toBe("")
    expect(reference?.status).toBe(0)
    expect(Object.keys(answers).length).toBe(jobs.length)
    expect(jobs.length).toBeGreaterThan(500)
  })

  it.each(all.map(({ scenario, checks }, s) => [scenario.name, checks, s] as const))("%s", (_, checks: ReadonlyArray<Check>, s) => {
    const wrong: Array<string> = []
    checks.forEach((check, at) => {
      const expected = check.combine(check.jobs.map((_, j) => answers[`${s}/${at}/${j}`] ?? null))
      const ok = expected === null || check.actual === null
        ? expected === check.actual
        : Math.abs(expected - check.actual) <= TOLERANCE
      if (!ok) wrong.push(`${check.what}: Gloss ${check.actual}, reference ${expected}`)
    })
    expect(wrong).toEqual([])
  })
})
