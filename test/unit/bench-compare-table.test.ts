/**
 * The table of `npm run bench -- compare` (bench/lib/compareTable.ts) on hand-made figures: every number found by its
 * JSON path, the direction a figure's name gives, the ratio working/base pair by pair and their median.
 */
import { describe, expect, it } from "vitest"
import { buildScripts, packageScripts } from "../../bench/compare.js"
import { betterOf, compareTable, formatTable, median, numericLeaves } from "../../bench/lib/compareTable.js"

describe("numericLeaves", () => {
  it("finds every number by its JSON path, in document order, and nothing else", () => {
    const figures = {
      name: "a suite",
      records: 1000,
      meetsTarget: true,
      sqlite: { queuePage: { p50Seconds: 0.12, p95Seconds: 0.3 }, skipped: null },
      postgres: { skipped: "--backends sqlite" },
      loadAverage: [1.5, 2],
      runs: [{ ms: 4 }, { ms: 5 }],
      "krippendorff_alpha nominal": 0.65,
      notANumber: Number.NaN
    }
    expect(numericLeaves(figures)).toEqual([
      ["records", 1000],
      ["sqlite.queuePage.p50Seconds", 0.12],
      ["sqlite.queuePage.p95Seconds", 0.3],
      ["loadAverage[0]", 1.5],
      ["loadAverage[1]", 2],
      ["runs[0].ms", 4],
      ["runs[1].ms", 5],
      ["krippendorff_alpha nominal", 0.65]
    ])
  })

  it("a bare number is one leaf with an empty path", () => {
    expect(numericLeaves(3)).toEqual([["", 3]])
    expect(numericLeaves("3")).toEqual([])
  })
})

describe("betterOf", () => {
  it.each([
    ["sqlite.queuePage.noAssignments.p95Seconds", "lower"],
    ["questions.rating.questionAgreement.cpuSeconds", "lower"],
    ["sqlite.summary.cpuSecondsPerCall", "lower"],
    ["gloss.latencyMs.p50", "lower"],
    ["nextRecordMs.p95", "lower"],
    ["textP99Ms", "lower"],
    ["bulkView.selectAllApply.ms", "lower"],
    ["sqlite.peakRssMB", "lower"],
    ["serverPeakRssAfterMB", "lower"],
    ["gloss.requestsPerSecond", "higher"],
    ["questions.label_selection.recordsPerCpuSecond", "higher"],
    ["redis.eventsPerSecondTwoWorkers", "higher"],
    ["sqlite.recallAt50", "higher"],
    ["throughput", "higher"]
  ] as const)("%s: %s is better", (metric, better) => {
    expect(betterOf(metric)).toBe(better)
  })

  it.each([
    "records",
    "nextRecordMs.n",
    "longTextMs.spansOnCardAfter",
    "loadAverage[0]",
    "questions.text.figures.exact_match",
    "sqlite.terms",
    "sqlite.items",
    "driftPercent"
  ])("%s: neither", (metric) => {
    expect(betterOf(metric)).toBeNull()
  })
})

describe("median", () => {
  it("is the middle value, or the mean of the two middle ones", () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([])).toBeNull()
  })
})

describe("compareTable", () => {
  const base = [
    { seconds: 2, requestsPerSecond: 100, latencyMs: { p50: 10 }, removed: 1 },
    { seconds: 4, requestsPerSecond: 200, latencyMs: { p50: 10 }, removed: 1 },
    { seconds: 0, requestsPerSecond: 100, latencyMs: { p50: 20 }, removed: 1 }
  ]
  const head = [
    { seconds: 1, requestsPerSecond: 150, latencyMs: { p50: 5 }, added: 7 },
    { seconds: 3, requestsPerSecond: 200, latencyMs: { p50: 10 }, added: 8 },
    { seconds: 1, requestsPerSecond: 50, latencyMs: { p50: 30 }, added: 9 }
  ]
  const rows = compareTable(base, head)
  const row = (metric: string) => rows.find((candidate) => candidate.metric === metric)

  it("pairs the rounds and takes the median of the ratios working / base", () => {
    expect(row("requestsPerSecond")).toEqual({
      metric: "requestsPerSecond",
      better: "higher",
      base: [100, 200, 100],
      head: [150, 200, 50],
      ratios: [1.5, 1, 0.5],
      medianRatio: 1
    })
    expect(row("latencyMs.p50")).toMatchObject({ better: "lower", ratios: [0.5, 1, 1.5], medianRatio: 1 })
  })

  it("has no ratio against a base of 0, and the median of the ratios there are", () => {
    expect(row("seconds")).toMatchObject({ base: [2, 4, 0], head: [1, 3, 1], ratios: [0.5, 0.75, null], medianRatio: 0.625 })
  })

  it("keeps a figure only one side reports, with nulls where it is missing", () => {
    expect(row("removed")).toMatchObject({ base: [1, 1, 1], head: [null, null, null], ratios: [null, null, null], medianRatio: null })
    expect(row("added")).toMatchObject({ base: [null, null, null], head: [7, 8, 9], medianRatio: null })
    expect(rows.map((candidate) => candidate.metric)).toEqual(["seconds", "requestsPerSecond", "latencyMs.p50", "removed", "added"])
  })

  it("rounds ratios to three decimals", () => {
    expect(compareTable([{ x: 3 }], [{ x: 1 }])[0]?.ratios).toEqual([0.333])
  })
})

describe("formatTable", () => {
  it("prints a column a run and a ratio a round, aligned, with – where a figure is missing", () => {
    const text = formatTable(compareTable([{ seconds: 2, only: 1 }, { seconds: 4, only: 1 }], [{ seconds: 1 }, { seconds: 4 }]), 2)
    const lines = text.split("\n")
    expect(lines[0]?.split(/\s{2,}/)).toEqual(["metric", "better", "base 1", "work 1", "ratio 1", "base 2", "work 2", "ratio 2", "median ratio"])
    expect(lines[2]?.split(/\s+/)).toEqual(["seconds", "lower", "2", "1", "0.5", "4", "4", "1", "0.75"])
    expect(lines[3]?.split(/\s+/)).toEqual(["only", "1", "–", "–", "1", "–", "–", "–"])
    // Every line's columns end at the same place as the header's.
    const end = lines[0]?.length ?? 0
    expect(lines.filter((line) => line.length !== end)).toEqual([])
  })
})

describe("what compare builds of a version", () => {
  const scripts = packageScripts(JSON.stringify({ scripts: { build: "…", "build:server": "…", "build:client": "…", "build:ui": "…" } }))

  it("the server and the client, unless the ui suite is compared", () => {
    expect(buildScripts(["small", "search"], scripts)).toEqual(["build:server", "build:client"])
    expect(buildScripts(["small", "ui"], scripts)).toEqual(["build"])
  })

  it("everything, for a version without separate server and client builds", () => {
    expect(buildScripts(["small"], packageScripts(JSON.stringify({ scripts: { build: "…", "build:server": "…" } })))).toEqual(["build"])
    expect(buildScripts(["small"], packageScripts("not json"))).toEqual(["build"])
  })
})
