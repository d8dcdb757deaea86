/**
 * Debian's Chromium for playwright-core (the system's browser, not one Playwright downloads), and what the
 * end-to-end test and the `ui` benchmark (bench/suites/ui.ts) need around it.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { chromium, type Page } from "playwright-core"

export const CHROMIUM = "/usr/bin/chromium"
export const hasChromium = existsSync(CHROMIUM)

export const repoPath = (relative: string) => fileURLToPath(new URL(`../../../${relative}`, import.meta.url))

/** Where the documentation's screenshots live (scripts/docs/screenshots.ts makes the rest of them). */
const SCREENSHOTS = repoPath("docs/screenshots")
const DOCS_SCREENSHOTS = process.env["GLOSS_SCREENSHOTS"] === "1"

/**
 * A screenshot for the documentation, taken only when asked with GLOSS_SCREENSHOTS=1: an ordinary run leaves the
 * working tree clean, and does not spend the CPU of a picture nobody looks at (a suite-wide run shares two cores, and
 * Chromium's encoding is part of what kept its slowest journeys near their time limit).
 */
export const photograph = async (page: Page, name: string, options: { readonly fullPage?: boolean } = {}) => {
  if (DOCS_SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, ...options })
}

/** A picture of a screen whose check failed, to look at afterwards (never into docs/screenshots): its path. */
export const photographFailure = async (page: Page, name: string) => {
  const folder = join(tmpdir(), "gloss-screenshots")
  mkdirSync(folder, { recursive: true })
  const file = join(folder, `${name.replaceAll(/[^A-Za-z0-9-]+/g, "-")}.png`)
  await page.screenshot({ path: file })
  return file
}

/**
 * Builds the UI into dist/ui, where the server under test serves it from; in a test run, test/support/buildUiOnce.ts
 * has built it already (GLOSS_TEST_UI_BUILT).
 */
export const buildUi = () => {
  if (process.env["GLOSS_TEST_UI_BUILT"] !== "1") {
    const vite = repoPath("node_modules/vite/bin/vite.js")
    execFileSync(process.execPath, [vite, "build", "--config", repoPath("ui/vite.config.ts"), "--logLevel", "warn"], {
      cwd: repoPath("."),
      stdio: "inherit",
      // Vitest sets NODE_ENV=test, which would give React's development build.
      env: { ...process.env, NODE_ENV: "production" }
    })
  }
  if (DOCS_SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true })
}

export const launch = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // No network here: keep Chromium from calling home at start.
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
  })

/** Keyboard only: signs in on the sign-in screen (the focus starts in the username box). */
export const signIn = async (page: Page, username: string, password: string) => {
  await page.locator("#username").waitFor()
  await page.keyboard.type(username)
  await page.keyboard.press("Tab")
  await page.keyboard.type(password)
  await page.keyboard.press("Enter")
}

/** The gzipped size (level 9) of the JavaScript the built index.html loads up front: the first screen's cost. */
export const firstScreenJs = () => {
  const html = readFileSync(repoPath("dist/ui/index.html"), "utf8")
  const files = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? "")
  const bytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(repoPath(`dist/ui/${file}`)), { level: 9 }).length, 0)
  return { bytes, files }
}

/**
 * The browser globals the in-page functions below use, typed here rather than through the DOM library: the
 * benchmarks import this module and compile without it.
 */
interface PageElement {
  readonly textContent: string | null
  dispatchEvent(event: unknown): boolean
}
interface PageGlobals {
  readonly document: {
    querySelector(selector: string): PageElement | null
    querySelectorAll(selector: string): { readonly length: number }
  }
  readonly window: PageElement
  readonly KeyboardEvent: new (type: string, init: { key: string; shiftKey: boolean; bubbles: boolean; cancelable: boolean }) => unknown
  readonly performance: { now(): number }
  requestAnimationFrame(callback: () => void): number
  setTimeout(callback: () => void, ms: number): number
}

/**
 * tsx (which runs the benchmarks) compiles with esbuild's keepNames, wrapping named functions in `__name(…)`; a
 * function sent to the page carries those calls, so the page gets a do-nothing `__name` first.
 */
const KEEP_NAMES = "globalThis.__name ??= (fn) => fn"

/**
 * Presses `key` inside the page (a keydown dispatched on `target`, a selector, or on window) and resolves with the
 * milliseconds from the press until the frame that shows a change in `watch` (how many elements match it, or the
 * first one's text) has been rendered: the change is looked for at each animation frame, and the time taken in a
 * task queued from that frame, which runs once the frame is painted. Measured in the page, so the round trips to
 * the browser are not counted. Never resolves if nothing changes.
 */
export const timeKey = async (
  page: Page,
  key: string,
  options: { readonly watch: string; readonly target?: string; readonly shiftKey?: boolean }
): Promise<number> => {
  await page.evaluate(KEEP_NAMES)
  return page.evaluate(({ key, shiftKey, target, watch }) =>
    new Promise<number>((resolve, reject) => {
      const g = globalThis as unknown as PageGlobals
      const signature = () => `${g.document.querySelectorAll(watch).length}:${g.document.querySelector(watch)?.textContent}`
      const element = target === undefined ? g.window : g.document.querySelector(target)
      if (element === null) return reject(new Error(`nothing matches ${target}`))
      const before = signature()
      const started = g.performance.now()
      element.dispatchEvent(new g.KeyboardEvent("keydown", { key, shiftKey, bubbles: true, cancelable: true }))
      const check = () => {
        if (signature() === before) return void g.requestAnimationFrame(check)
        g.setTimeout(() => resolve(g.performance.now() - started), 0)
      }
      g.requestAnimationFrame(check)
    }), { key, shiftKey: options.shiftKey ?? false, target: options.target, watch: options.watch })
}

/** Moves to the next or previous record and resolves, with the time it took (see `timeKey`), once it is shown. */
export const nextRecordMillis = (page: Page, key: "ArrowRight" | "ArrowLeft") =>
  timeKey(page, key, { watch: ".record-card .span-text" })
