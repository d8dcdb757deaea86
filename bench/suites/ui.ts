/**
 * The web UI in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core) over a real Gloss serving
 * the built UI from dist/ui. It measures what is built: `npm run bench` runs `npm run build` first; run some other
 * way, the suite needs `npm run build` beforehand (without dist/ui it answers `{ skipped }`).
 *
 * An owner seeds, through the API, the end-to-end test's dataset (12 records with every field and question kind)
 * and a dataset whose record has a 50 000-character text with 200 suggested spans (pre-filled in the editor), plus a
 * short record; an annotator signs in, then:
 * - next record: → through the 12-record queue to its end and ← back, twice (44 presses, the queue loaded);
 * - long text: ← / → between the short record and the long one (the long one drawn with its 200 spans); the page
 *   opened on the long record in a new browser context (cold cache), navigation start to the spans painted; in its
 *   text, the keyboard cursor moved (→) and a span added (Enter), one after the other;
 * - the gzipped size of the JavaScript the first screen loads;
 * - the bulk view (bench/suites/uiBulk.ts): 100 records rendered after a page-size change, and select all + apply
 *   on `--bulk-records` N matching records (default 10 000) until the job finished and the list refreshed;
 * - the team figures (bench/suites/uiTeam.ts): the People page with `--users` N users (default 1 000), and a file
 *   export of `--export-records` N records (default 100 000) in each format: the job's time, the download, the
 *   server's peak RSS.
 * Every interaction is timed inside the page from the key press to the rendered frame that shows its result
 * (`timeKey` in ui/test/e2e/browser.ts). Without Chromium the suite answers `{ skipped }`.
 */
import { existsSync } from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { CHROMIUM, firstScreenJs, hasChromium, launch, nextRecordMillis, signIn, timeKey } from "../../ui/test/e2e/browser.js"
import { LONG_SPANS, LONG_TEXT, seed, seedLongText } from "../../ui/test/e2e/seed.js"
import { percentile } from "../lib/latency.js"
import { BENCH_API_KEY, ROOT, startGloss } from "../lib/processes.js"
import { settingsPageMs } from "./uiSettings.js"
import type { SuiteOptions } from "../run.js"
import { bulkFigures, bulkRecordsOf } from "./uiBulk.js"
import { exportRecordsOf, fileExportFigures, peoplePageMs, usersOf } from "./uiTeam.js"

const ROUND_TRIPS = 2
const SWITCHES = 20
const OPENS = 5
const MARKS = 10

/** The long record's spans, as drawn on the record card (one marked piece where each span ends). */
const CARD_SPANS = ".record-card .span-text [data-labels]"
const EDITOR = ".record-card .span-text"

const round = (ms: number) => Math.round(ms * 10) / 10

const summary = (samples: ReadonlyArray<number>) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), max: round(sorted.at(-1) ?? 0) }
}

/** A measurement that never ends (nothing changed on screen) is a broken run, not a slow figure: say so. */
const within = <A>(what: string, promise: Promise<A>, ms = 15_000): Promise<A> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`ui bench: ${what} did not happen within ${ms} ms`)), ms).unref())
  ])

/** In the page from its first script: when (ms since navigation start) a frame showing `count` card spans is painted. */
const spansShownAt = (count: number) => `(() => {
  const look = () => document.querySelectorAll(${JSON.stringify(CARD_SPANS)}).length >= ${count}
    ? setTimeout(() => { window.__spansShown = performance.now() }, 0)
    : requestAnimationFrame(look)
  requestAnimationFrame(look)
})()`

const recordsLoaded = (page: Page, total: number) => page.locator(".record-nav", { hasText: `of ${total}` }).waitFor()

export const uiSuite = async (options: SuiteOptions = {}) => {
  if (!hasChromium) return { skipped: `no Chromium at ${CHROMIUM} (apt-get install chromium, or run scripts/services.sh)` }
  if (!existsSync(path.join(ROOT, "dist/ui/index.html"))) return { skipped: "dist/ui is not built: run `npm run build` first" }
  const server = await startGloss()
  let browser: Browser | undefined
  try {
    const firstScreen = firstScreenJs()
    const seeded = await Effect.runPromise(seed(server.url, BENCH_API_KEY))
    const long = await Effect.runPromise(seedLongText(server.url, BENCH_API_KEY, seeded.workspaceId))
    const annotator = seeded.annotators[0]
    if (annotator === undefined) throw new Error("ui bench: the seed made no annotator")
    browser = await launch()
    const viewport = { width: 1440, height: 960 }
    const context = await browser.newContext({ viewport })
    const page = await context.newPage()
    const pageErrors: Array<string> = []
    const watchErrors = (p: Page) => p.on("pageerror", (e) => pageErrors.push(e.message))
    watchErrors(page)
    await page.goto(`${server.url}/`)
    await signIn(page, annotator.username, annotator.password)
    await page.locator("table.datasets").waitFor()

    // Next record, through the whole (loaded) queue and back.
    await page.goto(`${server.url}/dataset/${seeded.datasetId}/annotation-mode`)
    await page.locator(".record-card").waitFor()
    await recordsLoaded(page, seeded.records)
    const moves: Array<number> = []
    for (let trip = 0; trip < ROUND_TRIPS; trip++) {
      for (const key of ["ArrowRight", "ArrowLeft"] as const) {
        for (let i = 1; i < seeded.records; i++) moves.push(await within(`${key} to another record`, nextRecordMillis(page, key)))
      }
    }

    // The long record: where it is in this annotator's queue, then to it and away from it.
    const longUrl = `${server.url}/dataset/${long.datasetId}/annotation-mode`
    await page.goto(longUrl)
    await page.locator(".record-card").waitFor()
    await recordsLoaded(page, 2)
    const longFirst = ((await page.locator(EDITOR).textContent()) ?? "").length > 1_000
    const toLong: Array<number> = []
    const toShort: Array<number> = []
    let onLong = longFirst
    for (let i = 0; i < SWITCHES; i++) {
      const key = onLong === longFirst ? "ArrowRight" : "ArrowLeft"
      const ms = await within("switching records", nextRecordMillis(page, key))
      ;(onLong ? toShort : toLong).push(ms)
      onLong = !onLong
    }

    // In the long text, by keyboard: Shift+Enter into the text; → moves the cursor a word, Enter marks it. The
    // first three words are "lorem ipsum" (under a suggested span) and "dolor"; the next 200 characters are free.
    const longPage = `${longUrl}?_page=${longFirst ? 1 : 2}`
    await page.goto(longPage)
    await page.locator(CARD_SPANS).nth(LONG_SPANS.length - 1).waitFor()
    await page.keyboard.press("Shift+Enter")
    await page.locator(`${EDITOR}:focus`).waitFor()
    const cursor: Array<number> = []
    const marks: Array<number> = []
    const moveCursor = async () =>
      cursor.push(await within("the cursor moving", timeKey(page, "ArrowRight", { target: EDITOR, watch: ".record-card .span-cursor" })))
    for (let i = 0; i < 3; i++) await moveCursor()
    for (let i = 0; i < MARKS; i++) {
      marks.push(await within("a span being added", timeKey(page, "Enter", { target: EDITOR, watch: CARD_SPANS })))
      await moveCursor()
    }
    const spansAfter = await page.locator(CARD_SPANS).count()
    const listed = await page.locator("ul.span-list > li").count()
    const storageState = await context.storageState() // the session (localStorage), for the contexts below
    await context.close()

    // Opened on the long record, each time in a new context (no cache), signed in as before.
    const opens: Array<number> = []
    for (let i = 0; i < OPENS; i++) {
      const fresh: BrowserContext = await browser.newContext({ viewport, storageState })
      await fresh.addInitScript({ content: spansShownAt(LONG_SPANS.length) })
      const cold = await fresh.newPage()
      watchErrors(cold)
      await cold.goto(longPage)
      const shown = await within("the long record opening", cold.waitForFunction(() => (globalThis as { __spansShown?: number }).__spansShown))
      opens.push(Number(await shown.jsonValue()))
      await fresh.close()
    }

    const bulkView = await bulkFigures(browser, server.url, bulkRecordsOf(options))

    const owner = { username: "bench", password: "bench-password", apiKey: BENCH_API_KEY }
    const settingsPage = await settingsPageMs(browser, server.url, owner)
    const peoplePage = await peoplePageMs(browser, server.url, owner, usersOf(options))
    const fileExport = await fileExportFigures(server.url, BENCH_API_KEY, exportRecordsOf(options), server.peakRss)
    const nextRecord = summary(moves)
    const longText = {
      switchToIt: summary(toLong),
      switchFromIt: summary(toShort),
      openPageOnIt: summary(opens),
      moveCursor: summary(cursor),
      addSpan: summary(marks)
    }
    const firstScreenKiB = round(firstScreen.bytes / 1024)
    const interactions = [nextRecord, longText.switchToIt, longText.switchFromIt, longText.moveCursor, longText.addSpan]
    return {
      name: "web UI in headless Chromium over a real Gloss (built UI, production React)",
      nextRecordMs: { ...nextRecord, queue: seeded.records },
      longTextMs: {
        record: `${LONG_TEXT.length} characters, ${LONG_SPANS.length} suggested spans`,
        ...longText,
        spansOnCardAfter: spansAfter,
        spansListedAfter: listed
      },
      firstScreenJs: { gzippedKiB: firstScreenKiB, files: firstScreen.files },
      settingsPageMs: settingsPage,
      peoplePageMs: peoplePage,
      bulkView,
      fileExport,
      pageErrors,
      targets: "every interaction (next record, to/from the long record, cursor move, add a span) p95 < 100 ms; " +
        "page opened on the long record p50 < 1 000 ms; People page at its users p50 < 1 000 ms; first-screen JS < 250 kB gzipped",
      meetsTargets: interactions.every((s) => s.p95 < 100) && longText.openPageOnIt.p50 < 1_000 && peoplePage.p50 < 1_000 &&
        firstScreenKiB < 250
    }
  } finally {
    await browser?.close()
    await server.stop()
  }
}
