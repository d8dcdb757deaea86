/**
 * The table of `npm run bench -- compare`: every number in two series of a suite's figures (the base's runs and the
 * working tree's, round by round), matched by its JSON path, with the ratio working/base of each pair and the median
 * of those ratios. Pure: bench/compare.ts runs the suites and feeds their JSON here.
 */

export type Better = "lower" | "higher" | null

export interface Row {
  /** The figure's JSON path in the suite's results: `sqlite.queuePage.noAssignments.p95Seconds`, `loadAverage[0]`. */
  readonly metric: string
  readonly better: Better
  /** One value a round; null where that run did not report the figure. */
  readonly base: ReadonlyArray<number | null>
  readonly head: ReadonlyArray<number | null>
  /** working / base, round by round; null where either side is missing or the base is 0. */
  readonly ratios: ReadonlyArray<number | null>
  readonly medianRatio: number | null
}

/** Every number in `value` (booleans and strings are not figures), by JSON path, in document order. */
export const numericLeaves = (value: unknown): Array<readonly [string, number]> => {
  const leaves: Array<readonly [string, number]> = []
  const walk = (at: unknown, path: string) => {
    if (typeof at === "number") {
      if (Number.isFinite(at)) leaves.push([path, at])
    } else if (Array.isArray(at)) {
      at.forEach((item, i) => walk(item, `${path}[${i}]`))
    } else if (at !== null && typeof at === "object") {
      for (const [key, item] of Object.entries(at)) walk(item, path === "" ? key : `${path}.${key}`)
    }
  }
  walk(value, "")
  return leaves
}

// A statistic (`latencyMs.p50`) or an array item (`loadAverage[0]`) has the unit of the name above it.
const STATISTIC = /^(p\d+|min|max|mean|median|avg|average)$/i

const directionOfName = (name: string): Better => {
  // Rates first: `recordsPerCpuSecond` names a second too.
  if (/per(cpu)?seconds?|throughput|recall/i.test(name)) return "higher"
  // `Ms` as a unit (`latencyMs`, `textP99Ms`, `ms`), not the letters of `items` or `terms`.
  if (/seconds?/i.test(name) || /^ms$|_ms$|[a-z0-9]Ms(?![a-z])/.test(name) || /rss/i.test(name)) return "lower"
  return null
}

/** Whether a smaller or a larger figure is better, when the figure's name says so (its unit or what it counts). */
export const betterOf = (metric: string): Better => {
  const names = metric.split(/\.|(?=\[)/)
  for (let i = names.length - 1; i >= 0; i--) {
    const name = names[i] ?? ""
    if (name.startsWith("[") || STATISTIC.test(name)) continue
    return directionOfName(name)
  }
  return null
}

export const median = (values: ReadonlyArray<number>): number | null => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? null : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const round3 = (n: number) => Number(n.toFixed(3))

/**
 * The rows for one suite: `base[r]` and `head[r]` are the results of round r on each side. A figure reported by only
 * one side (a new or a removed figure) keeps its row, with nulls where it is missing.
 */
export const compareTable = (base: ReadonlyArray<unknown>, head: ReadonlyArray<unknown>): Array<Row> => {
  const rounds = Math.max(base.length, head.length)
  const byMetric = new Map<string, { base: Array<number | null>; head: Array<number | null> }>()
  const add = (runs: ReadonlyArray<unknown>, side: "base" | "head") =>
    runs.forEach((run, round) => {
      for (const [metric, value] of numericLeaves(run)) {
        let entry = byMetric.get(metric)
        if (entry === undefined) {
          entry = { base: Array(rounds).fill(null), head: Array(rounds).fill(null) }
          byMetric.set(metric, entry)
        }
        entry[side][round] = value
      }
    })
  add(base, "base")
  add(head, "head")
  return [...byMetric].map(([metric, values]) => {
    const ratios = values.base.map((b, round) => {
      const h = values.head[round]
      return b === null || h === null || h === undefined || b === 0 ? null : round3(h / b)
    })
    const known = ratios.filter((ratio): ratio is number => ratio !== null)
    const middle = median(known)
    return { metric, better: betterOf(metric), base: values.base, head: values.head, ratios, medianRatio: middle === null ? null : round3(middle) }
  })
}

const figure = (n: number | null | undefined) => (n === null || n === undefined ? "–" : String(Number(n.toPrecision(6))))

/** The rows as a plain-text table, one column a run and a ratio column a round, aligned for a terminal. */
export const formatTable = (rows: ReadonlyArray<Row>, rounds: number): string => {
  const header = ["metric", "better"]
  for (let r = 1; r <= rounds; r++) header.push(`base ${r}`, `work ${r}`, `ratio ${r}`)
  header.push("median ratio")
  const lines = rows.map((row) => {
    const cells = [row.metric, row.better ?? ""]
    for (let r = 0; r < rounds; r++) cells.push(figure(row.base[r]), figure(row.head[r]), figure(row.ratios[r]))
    cells.push(figure(row.medianRatio))
    return cells
  })
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((cells) => (cells[column] ?? "").length)))
  const format = (cells: ReadonlyArray<string>) =>
    cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ").trimEnd()
  return [format(header), format(widths.map((width) => "-".repeat(width))), ...lines.map(format)].join("\n")
}
