/**
 * Properties of the agreement statistics on generated answers (fast-check): perfect agreement scores 1 wherever
 * chance can be told apart, figures do not depend on the order of records, answers or annotators, pairs are
 * symmetric, distances are distances, blank answers are no answers, and the α of each built-in metric equals the
 * general form with the same distance. The figures themselves are checked against the reference implementations in
 * test/review/agreement-reference.test.ts.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { AgreementQuestion, QuestionAgreement } from "../../src/domain/Review.js"
import { type AgreementUnit, questionAgreement, recordAgreement } from "../../src/services/review/agreement/index.js"
import { jaccardDistance, masiDistance, orderDistance, pairOrders, rankDistance } from "../../src/services/review/agreement/distances.js"
import { krippendorffAlpha } from "../../src/services/review/agreement/krippendorff.js"
import { cohenKappa } from "../../src/services/review/agreement/kappa.js"
import type { Units } from "../../src/services/review/agreement/units.js"

const uid = (i: number) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`
const labels = (names: ReadonlyArray<string>) => names.map((value) => ({ value, text: value, description: null }))
const OPTIONS = ["a", "b", "c", "d"]

const QUESTIONS: Record<string, AgreementQuestion> = {
  label_selection: { name: "q", settings: { type: "label_selection", options: labels(OPTIONS), visible_options: null } },
  multi_label_selection: {
    name: "q",
    settings: { type: "multi_label_selection", options: labels(OPTIONS), visible_options: null, options_order: "natural" }
  },
  rating: { name: "q", settings: { type: "rating", options: [1, 2, 3, 4, 5].map((value) => ({ value })) } },
  ranking: { name: "q", settings: { type: "ranking", options: labels(OPTIONS) } },
  span: {
    name: "q",
    settings: {
      type: "span", field: "text", options: labels(["P", "O"]), visible_options: null, allow_overlapping: true,
      allow_character_annotation: true
    }
  },
  text: { name: "q", settings: { type: "text", use_markdown: false } }
}

/** An answer of each type. */
const answer: Record<string, fc.Arbitrary<unknown>> = {
  label_selection: fc.constantFrom(...OPTIONS),
  multi_label_selection: fc.uniqueArray(fc.constantFrom(...OPTIONS), { minLength: 1, maxLength: 4 }),
  rating: fc.integer({ min: 1, max: 5 }),
  ranking: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 4, maxLength: 4 })
    .map((ranks) => OPTIONS.map((value, i) => ({ value, rank: ranks[i] }))),
  span: fc.array(
    fc.record({ label: fc.constantFrom("P", "O"), start: fc.integer({ min: 0, max: 20 }), length: fc.integer({ min: 1, max: 5 }) })
      .map(({ label, length, start }) => ({ label, start, end: start + length })),
    { maxLength: 4 }
  ),
  text: fc.constantFrom("yes", " Yes", "no", "maybe ")
}

const TYPES = Object.keys(QUESTIONS)

/** Records × annotators, null for no answer. */
const tableOf = (type: string, annotators = 4) =>
  fc.array(fc.array(fc.option(answer[type] ?? fc.constant(null), { freq: 3, nil: null }), { minLength: annotators, maxLength: annotators }), {
    minLength: 1,
    maxLength: 25
  })

const unitsOf = (table: ReadonlyArray<ReadonlyArray<unknown>>, ids = uid): Array<AgreementUnit> =>
  table.map((row, r) => ({
    recordId: `r${r}`,
    answers: row.flatMap((value, c) => (value === null ? [] : [{ userId: ids(c), value }]))
  }))

const names = (count: number) => new Map(Array.from({ length: count }, (_, i) => [uid(i), `user-${i}`]))

/** Every number in a report, by where it is, users named by their username so renamed ids compare equal. */
const numbers = (report: QuestionAgreement) => ({
  counts: [report.records_compared, report.records_single, report.records_unanswered, report.records_disagreeing],
  figures: report.figures.map((f) => [f.measure, f.variant, f.value, f.records, f.note]),
  labels: report.labels.map((l) => [l.label, l.figures.map((f) => f.value)]),
  annotators: report.annotators.map((a) => [a.username, a.answers, a.with_others]),
  // Sums taken in another order differ in the last bits: rounded before sorting.
  pairs: report.pairs.map((p) => (p.value === null ? "null" : (Math.round(p.value * 1e9) / 1e9 + 0).toFixed(9))).sort()
})

const close = (a: unknown, b: unknown): boolean => {
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) <= 1e-9
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i]))
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    return close(Object.entries(a), Object.entries(b))
  }
  return a === b
}

describe("agreement properties", () => {
  it.each(TYPES)("%s: every figure is 1 (or null) when all annotators give the same answers", (type) => {
    fc.assert(fc.property(fc.array(answer[type] ?? fc.constant(null), { minLength: 2, maxLength: 20 }), fc.integer({ min: 2, max: 4 }), (truths, annotators) => {
      const table = truths.map((truth) => Array.from({ length: annotators }, () => truth))
      const report = questionAgreement(QUESTIONS[type] ?? QUESTIONS["text"]!, unitsOf(table), names(annotators))
      expect(report.records_disagreeing).toBe(0)
      expect(report.records_compared).toBe(truths.length)
      for (const f of [...report.figures, ...report.labels.flatMap((l) => l.figures)]) {
        if (f.value !== null) expect(f.value, `${f.measure} ${f.variant}`).toBeCloseTo(1, 12)
        else expect(f.note, `${f.measure} ${f.variant} is null without a reason`).not.toBeNull()
      }
      for (const pair of report.pairs) if (pair.value !== null) expect(pair.value).toBeCloseTo(1, 12)
    }), { numRuns: 60 })
  })

  it.each(TYPES)("%s: α is 1 exactly when all agree over at least two distinct values", (type) => {
    if (type === "span" || type === "text") return
    fc.assert(fc.property(fc.uniqueArray(answer[type] ?? fc.constant(null), { minLength: 2, maxLength: 6, selector: (v) => JSON.stringify(v) }), (truths) => {
      const table = truths.map((truth) => [truth, truth, truth])
      const report = questionAgreement(QUESTIONS[type] ?? QUESTIONS["text"]!, unitsOf(table), names(3))
      const alphas = report.figures.filter((f) => f.measure === "krippendorff_alpha")
      expect(alphas.length).toBeGreaterThan(0)
      // Distinct raw values can be the same answer (a ranking with the same order), which leaves one value: null.
      const someDiffer = table.some((row) => recordAgreement(QUESTIONS[type]!, [row[0], truths[0]]).disagree)
      for (const f of alphas) if (someDiffer) expect(f.value).toBeCloseTo(1, 12)
    }), { numRuns: 60 })
  })

  it.each(TYPES)("%s: figures do not depend on the order of records, answers or the annotators' ids", (type) => {
    fc.assert(fc.property(tableOf(type), fc.integer(), (table, seed) => {
      const question = QUESTIONS[type] ?? QUESTIONS["text"]!
      const report = questionAgreement(question, unitsOf(table), names(4))
      // Reverse the records and each record's answers; give the annotators other ids with the same usernames.
      const order = seed % 2 === 0 ? [...table].reverse() : [...table.slice(1), ...table.slice(0, 1)]
      const other = (c: number) => `ffffffff-0000-4000-8000-${String(c + 1).padStart(12, "0")}`
      const units = unitsOf(order, other).map((unit) => ({ ...unit, answers: [...unit.answers].reverse() }))
      const renamed = new Map(Array.from({ length: 4 }, (_, i) => [other(i), `user-${i}`]))
      const again = questionAgreement(question, units, renamed)
      expect(close(numbers(again), numbers(report)), JSON.stringify([numbers(again), numbers(report)])).toBe(true)
    }), { numRuns: 40 })
  })

  it.each(TYPES)("%s: blank and malformed answers are no answers", (type) => {
    fc.assert(fc.property(tableOf(type, 3), (table) => {
      const question = QUESTIONS[type] ?? QUESTIONS["text"]!
      const report = questionAgreement(question, unitsOf(table), names(3))
      const noisy = unitsOf(table).map((unit, r) => ({
        ...unit,
        answers: [...unit.answers, { userId: uid(3), value: null }, { userId: uid(4), value: r % 2 === 0 ? undefined : { nonsense: true } }]
      }))
      expect(close(numbers(questionAgreement(question, noisy, names(5))), numbers(report))).toBe(true)
      const answered = table.map((row) => row.filter((value) => value !== null).length)
      expect(report.records_single).toBe(answered.filter((m) => m === 1).length)
      expect(report.records_unanswered).toBe(answered.filter((m) => m === 0).length)
    }), { numRuns: 40 })
  })

  it.each(TYPES)("%s: a record's agreement is in [0, 1], 1 exactly when its answers do not differ", (type) => {
    const question = QUESTIONS[type] ?? QUESTIONS["text"]!
    fc.assert(fc.property(fc.array(answer[type] ?? fc.constant(null), { maxLength: 5 }), (answers) => {
      const { agreement, disagree } = recordAgreement(question, answers)
      if (answers.length < 2) {
        expect(agreement).toBeNull()
        expect(disagree).toBe(false)
        return
      }
      expect(agreement).not.toBeNull()
      expect(agreement!).toBeGreaterThanOrEqual(-1e-12)
      expect(agreement!).toBeLessThanOrEqual(1 + 1e-12)
      expect(agreement === 1).toBe(!disagree)
      const reversed = recordAgreement(question, [...answers].reverse())
      expect(reversed.disagree).toBe(disagree)
      expect(reversed.agreement).toBeCloseTo(agreement!, 12)
    }))
  })
})

describe("labels", () => {
  it("per label: the options, and labels answers still hold that are no longer options, not those only suggested", () => {
    const units: Array<AgreementUnit> = [
      { recordId: "1", answers: [{ userId: uid(0), value: ["a", "old"] }, { userId: uid(1), value: ["old"] }], suggestion: ["gone"] },
      { recordId: "2", answers: [{ userId: uid(0), value: ["b"] }, { userId: uid(1), value: ["a"] }], suggestion: ["a", "gone"] }
    ]
    const report = questionAgreement(QUESTIONS["multi_label_selection"]!, units, names(2))
    expect(report.labels.map((label) => label.label)).toEqual([...OPTIONS, "old"])
    const spans: Array<AgreementUnit> = [{
      recordId: "1",
      answers: [{ userId: uid(0), value: [{ label: "X", start: 0, end: 2 }] }, { userId: uid(1), value: [{ label: "X", start: 0, end: 2 }] }],
      suggestion: [{ label: "Y", start: 0, end: 1 }]
    }]
    const spanReport = questionAgreement(QUESTIONS["span"]!, spans, names(2))
    expect(spanReport.labels.map((label) => label.label)).toEqual(["P", "O", "X"])
    expect(spanReport.labels.at(-1)?.figures.map((f) => f.value)).toEqual([1, 1])
  })
})

const labelSet = fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }).map((xs) => Int32Array.from(xs).sort())
const ranks = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 5, maxLength: 5 }).map((xs) => Int32Array.from(xs))
const denseKey = (r: Int32Array) => {
  const levels = [...new Set(r)].sort((a, b) => a - b)
  return Array.from(r, (x) => levels.indexOf(x)).join()
}

describe("distances", () => {
  const cases = [
    ["jaccard", labelSet, jaccardDistance, (a: Int32Array) => a.join()],
    ["masi", labelSet, masiDistance, (a: Int32Array) => a.join()],
    ["rank", ranks, rankDistance, denseKey]
  ] as const
  it.each(cases)("%s: in [0, 1], symmetric, 0 exactly for equal answers", (_, values, distance, key) => {
    fc.assert(fc.property(values, values, (a, b) => {
      const d = distance(a, b)
      expect(d).toBeGreaterThanOrEqual(0)
      expect(d).toBeLessThanOrEqual(1)
      expect(distance(b, a)).toBe(d)
      expect(d === 0).toBe(key(a) === key(b))
    }))
  })

  it("rank: the distance between pair orders is the rank distance", () => {
    fc.assert(fc.property(ranks, ranks, (a, b) => {
      expect(orderDistance(pairOrders(a), pairOrders(b))).toBeCloseTo(rankDistance(a, b), 15)
    }))
  })

  it("rank: (1 − τ) / 2 without ties, the pair count with them", () => {
    expect(rankDistance(Int32Array.of(0, 1, 2, 3), Int32Array.of(3, 2, 1, 0))).toBe(1)
    expect(rankDistance(Int32Array.of(0, 1, 2), Int32Array.of(1, 0, 2))).toBeCloseTo(1 / 3, 15)
    expect(rankDistance(Int32Array.of(0, 0, 1), Int32Array.of(0, 1, 2))).toBeCloseTo(0.5 / 3, 15)
  })

  it("masi: Passonneau's weights", () => {
    expect(masiDistance(Int32Array.of(1, 2), Int32Array.of(1, 2, 3, 4))).toBeCloseTo(1 - 0.5 * (2 / 3), 15)
    expect(masiDistance(Int32Array.of(1, 2), Int32Array.of(2, 3))).toBeCloseTo(1 - (1 / 3) * (1 / 3), 15)
    expect(masiDistance(Int32Array.of(1), Int32Array.of(2))).toBe(1)
  })
})

/** Units from records of 2 to 4 value ids among `distinct`. */
const unitsArb = (distinct: number) =>
  fc.array(fc.array(fc.integer({ min: 0, max: distinct - 1 }), { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 30 })
    .map((records): Units => {
      const offsets = [0]
      for (const record of records) offsets.push((offsets.at(-1) ?? 0) + record.length)
      return { values: Int32Array.from(records.flat()), offsets: Int32Array.from(offsets) }
    })

describe("Krippendorff's α and Cohen's κ", () => {
  const numbersOf = Float64Array.of(1, 2, 4, 7, 11)
  it("nominal, interval and ordinal equal the general form with the same distance", () => {
    fc.assert(fc.property(unitsArb(5), (units) => {
      const counts = new Float64Array(5)
      for (const id of units.values) counts[id] = (counts[id] ?? 0) + 1
      const order = [0, 1, 2, 3, 4]
      const ordinal = (a: number, b: number) => {
        const [lo, hi] = a < b ? [a, b] : [b, a]
        let between = 0
        for (let g = lo; g <= hi; g++) between += counts[order[g] ?? 0] ?? 0
        return (between - ((counts[a] ?? 0) + (counts[b] ?? 0)) / 2) ** 2
      }
      const pairs = [
        [{ kind: "nominal" as const }, (a: number, b: number) => (a === b ? 0 : 1)],
        [{ kind: "interval" as const, numbers: numbersOf }, (a: number, b: number) => ((numbersOf[a] ?? 0) - (numbersOf[b] ?? 0)) ** 2],
        [{ kind: "ordinal" as const, numbers: numbersOf }, ordinal]
      ] as const
      for (const [metric, distance] of pairs) {
        const built = krippendorffAlpha(units, 5, metric)
        const general = krippendorffAlpha(units, 5, { kind: "distance", distance })
        expect(built.value === null).toBe(general.value === null)
        if (built.value !== null) expect(built.value).toBeCloseTo(general.value ?? NaN, 9)
      }
    }))
  })

  it("rank α summed over pairs of options equals the general form over pairs of rankings", () => {
    const rankings = Array.from({ length: 6 }, (_, i) => Int32Array.from([i % 3, (i * 2) % 4, 1, (5 - i) % 3]))
    const orders = rankings.map(pairOrders)
    fc.assert(fc.property(unitsArb(6), (units) => {
      const summed = krippendorffAlpha(units, 6, { kind: "orders", orders })
      const general = krippendorffAlpha(units, 6, {
        kind: "distance",
        distance: (a, b) => rankDistance(rankings[a] ?? Int32Array.of(), rankings[b] ?? Int32Array.of())
      })
      expect(summed.value === null).toBe(general.value === null)
      if (summed.value !== null) expect(summed.value).toBeCloseTo(general.value ?? NaN, 9)
    }))
  })

  it("Cohen's κ is symmetric in its two annotators", () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 40 }), (rows) => {
      const ab = cohenKappa(Int32Array.from(rows.flat()), 4)
      const ba = cohenKappa(Int32Array.from(rows.flatMap(([a, b]) => [b, a])), 4)
      expect(ab.value === null ? null : ab.value.toFixed(12)).toBe(ba.value === null ? null : ba.value.toFixed(12))
    }))
  })

  it("with more distinct values than it sums exactly, the sampled De stays within 0.01 of the exact α", () => {
    // 2 100 distinct label sets: over 2 million pairs of distinct values, so De is sampled.
    const sets = Array.from({ length: 2100 }, (_, i) => Int32Array.from([...Array(12).keys()].filter((bit) => ((i + 1) >> bit) & 1)))
    const distance = (a: number, b: number) => jaccardDistance(sets[a] ?? Int32Array.of(), sets[b] ?? Int32Array.of())
    const values: Array<number> = []
    const offsets = [0]
    for (let u = 0; u < 3000; u++) {
      const base = (u * 11) % 2100
      values.push(base, base, (base + (u % 3 === 0 ? 5 : 0)) % 2100)
      offsets.push(values.length)
    }
    const units = { values: Int32Array.from(values), offsets: Int32Array.from(offsets) }
    const sampled = krippendorffAlpha(units, 2100, { kind: "distance", distance })
    expect(sampled.note).toMatch(/estimated from/)
    // The exact De, summed here over every pair of values.
    const counts = new Float64Array(2100)
    for (const id of values) counts[id] = (counts[id] ?? 0) + 1
    let expected = 0
    for (let a = 0; a < 2100; a++) {
      if (counts[a] === 0) continue
      for (let b = a + 1; b < 2100; b++) if (counts[b] !== 0) expected += 2 * (counts[a] ?? 0) * (counts[b] ?? 0) * distance(a, b)
    }
    const n = values.length
    let observed = 0
    for (let u = 0; u < 3000; u++) {
      const [x, y, z] = values.slice(u * 3, u * 3 + 3) as [number, number, number]
      observed += (2 * (distance(x, y) + distance(x, z) + distance(y, z))) / 2
    }
    const exact = 1 - observed / n / (expected / (n * (n - 1)))
    expect(Math.abs((sampled.value ?? NaN) - exact)).toBeLessThan(0.01)
  })
})
