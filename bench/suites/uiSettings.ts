/**
 * The `ui` suite's settings page: an owner opens `/dataset/:id/settings?tab=questions` of a dataset with 21 label
 * questions (the settings e2e test's seed with 20 more), each time in a new browser context (cold cache, signed in),
 * timed in the page from navigation start to the frame that shows every question's form (`performance.now()` at
 * the first frame painted with all of them).
 */
import { Effect } from "effect"
import type { Browser } from "playwright-core"
import { signIn } from "../../ui/test/e2e/browser.js"
import { seedSettings } from "../../ui/test/e2e/settingsSeed.js"
import { percentile } from "../lib/latency.js"

const EXTRA_QUESTIONS = 20

const round = (ms: number) => Math.round(ms * 10) / 10

/** In the page from its first script: when (ms since navigation start) a frame with `count` question forms is painted. */
const formsShownAt = (count: number) => `(() => {
  const look = () => document.querySelectorAll(".settings-body form.settings-item").length >= ${count}
    ? setTimeout(() => { window.__formsShown = performance.now() }, 0)
    : requestAnimationFrame(look)
  requestAnimationFrame(look)
})()`

/** A session of `owner` (its local storage), signed in through the sign-in page, for new contexts to start from. */
export const signedInState = async (
  browser: Browser,
  url: string,
  owner: { readonly username: string; readonly password: string },
  viewport: { readonly width: number; readonly height: number }
) => {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  await page.goto(`${url}/sign-in`)
  await signIn(page, owner.username, owner.password)
  await page.locator("table.datasets").waitFor()
  const storageState = await context.storageState()
  await context.close()
  return storageState
}

export const settingsPageMs = async (
  browser: Browser,
  url: string,
  owner: { readonly username: string; readonly password: string; readonly apiKey: string },
  opens = 5
) => {
  const seeded = await Effect.runPromise(seedSettings(url, owner.apiKey, { extraQuestions: EXTRA_QUESTIONS }))
  const questions = EXTRA_QUESTIONS + 1
  const viewport = { width: 1440, height: 960 }
  const storageState = await signedInState(browser, url, owner, viewport)
  const samples: Array<number> = []
  const pageErrors: Array<string> = []
  for (let i = 0; i < opens; i++) {
    const fresh = await browser.newContext({ viewport, storageState })
    await fresh.addInitScript({ content: formsShownAt(questions) })
    const cold = await fresh.newPage()
    cold.on("pageerror", (e) => pageErrors.push(e.message))
    await cold.goto(`${url}/dataset/${seeded.datasetId}/settings?tab=questions`)
    const shown = await cold.waitForFunction(() => (globalThis as { __formsShown?: number }).__formsShown, undefined, { timeout: 15_000 })
    samples.push(Number(await shown.jsonValue()))
    await fresh.close()
  }
  const sorted = samples.toSorted((a, b) => a - b)
  return {
    questions,
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? 0),
    pageErrors
  }
}
