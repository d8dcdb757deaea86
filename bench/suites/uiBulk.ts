/**
 * The bulk view's figures for the `ui` suite, in the browser the suite already runs: an annotator's
 * dataset of N records (`--bulk-records`, default 10 000; seeded by ui/test/e2e/bulkSeed.ts), shown in the bulk view.
 * - render 100: from the page-size change (10 → 100) to the frame that shows 100 records, timed inside the page (the
 *   first change fetches the page from the server; later ones find it cached and refetch it behind);
 * - select all + apply: from pressing Submit with all N matching records selected (a label picked) to the list
 *   refreshed after the job finished (the queue then empty), with the job's own count of records done.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { Browser, Page } from "playwright-core"
import { signIn } from "../../ui/test/e2e/browser.js"
import { seedBulk } from "../../ui/test/e2e/bulkSeed.js"
import { clientFor } from "../../ui/test/e2e/seed.js"
import type { SuiteOptions } from "../run.js"
import { percentile } from "../lib/latency.js"
import { BENCH_API_KEY } from "../lib/processes.js"

const RENDERS = 5
const DEFAULT_RECORDS = 10_000

const round = (ms: number) => Math.round(ms * 10) / 10

/** `--bulk-records N` (at least 100: the page of 100 must fill). */
export const bulkRecordsOf = (options: SuiteOptions) => Math.max(100, Number.parseInt(options["bulk-records"] ?? "", 10) || DEFAULT_RECORDS)

/**
 * In the page: sets the page size and resolves with the ms until a painted frame shows `count` record cards. A
 * script string: the benchmarks compile without the DOM library (see ui/test/e2e/browser.ts).
 */
const timePageSize = (page: Page, size: number, count: number): Promise<number> =>
  page.evaluate(`new Promise((resolve, reject) => {
    const select = [...document.querySelectorAll("select")].find((s) => s.labels[0]?.textContent?.includes("Records per page"))
    if (select === undefined) return reject(new Error("no page-size select"))
    const started = performance.now()
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(select, ${JSON.stringify(String(size))})
    select.dispatchEvent(new Event("change", { bubbles: true }))
    const check = () => {
      if (document.querySelectorAll(".bulk-card").length !== ${count}) return void requestAnimationFrame(check)
      setTimeout(() => resolve(performance.now() - started), 0)
    }
    requestAnimationFrame(check)
  })`)

const within = <A>(what: string, promise: Promise<A>, ms: number): Promise<A> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`ui bench: ${what} did not happen within ${ms} ms`)), ms).unref())
  ])

export const bulkFigures = async (browser: Browser, url: string, records: number) => {
  const seeded = await Effect.runPromise(seedBulk(url, BENCH_API_KEY, records))
  // Searches see records once they are indexed: wait for all of them (the engine counts exactly up to 10 000).
  const client = await Effect.runPromise(clientFor(url, seeded.annotator.apiKey).pipe(Effect.provide(FetchHttpClient.layer)))
  const visible = Math.min(records, 10_000)
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const found = await Effect.runPromise(client.search.mine({ path: { id: seeded.datasetId }, urlParams: { limit: 1 }, payload: {} }))
    if (found.total >= visible) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const context = await browser.newContext({ viewport: { width: 1440, height: 960 } })
  try {
    const page = await context.newPage()
    const pageErrors: Array<string> = []
    page.on("pageerror", (e) => pageErrors.push(e.message))
    await page.goto(`${url}/`)
    await signIn(page, seeded.annotator.username, seeded.annotator.password)
    await page.locator("table.datasets").waitFor()
    await page.goto(`${url}/dataset/${seeded.datasetId}/annotation-mode?view=bulk`)
    await page.locator(".bulk-card").nth(9).waitFor()

    const renders: Array<number> = []
    for (let i = 0; i < RENDERS; i++) {
      renders.push(await within("100 records rendering", timePageSize(page, 100, 100), 30_000))
      await within("10 records rendering", timePageSize(page, 10, 10), 30_000)
    }

    await page.getByRole("button", { name: /^Select all .* matching$/ }).click()
    await page.getByRole("button", { name: /^Yes, select all/ }).click()
    await page.getByRole("radio", { name: /Positive/ }).click()
    const started = Date.now()
    await page.getByRole("button", { name: "Submit", exact: true }).click()
    await within("the apply job finishing", page.locator(".bulk-job h3", { hasText: /^(Applied|The job ended)/ }).waitFor({ timeout: 0 }), 600_000)
    const jobMs = Date.now() - started
    const bar = await page.locator(".bulk-job-bar").innerText()
    await within("the list refreshing", page.locator(".bulk-pager", { hasText: "no records of 0" }).waitFor({ timeout: 0 }), 60_000)
    const applyMs = Date.now() - started

    const sorted = [...renders].sort((a, b) => a - b)
    return {
      records,
      render100Ms: {
        first: round(renders[0] ?? 0),
        n: sorted.length,
        p50: round(percentile(sorted, 50)),
        max: round(sorted.at(-1) ?? 0)
      },
      selectAllApply: { ms: applyMs, jobFinishedMs: jobMs, progress: bar.trim() },
      pageErrors
    }
  } finally {
    await context.close()
  }
}
