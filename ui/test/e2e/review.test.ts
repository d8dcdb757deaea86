/**
 * Team visibility end to end, in headless Chromium over a real Gloss: two annotators submit, through the API, the
 * same sentiment on one record and different ones on another. The owner's review mode shows both annotators' answers
 * with the disagreement marked on the right record only (review-queue.test.ts settles them), and the team page shows
 * each annotator's counts; an annotator is offered neither. Every screen is checked by axe, and at 400 px wide
 * nothing scrolls sideways.
 */
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { buildUi, hasChromium, launch, photograph, signIn } from "./browser.js"
import { checkA11y, noSidewaysScroll } from "./checks.js"
import { REVIEW_TEXTS, type ReviewSeeded, seedReview } from "./reviewSeed.js"

if (!hasChromium) console.warn("ui e2e (review): skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)")

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: ReviewSeeded
let browser: Browser



const signedIn = async (path: string, username: string, password: string, width = 1280) => {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: "light" })
  const page = await context.newPage()
  await page.goto(`${url}${path}`)
  await page.waitForURL(/\/sign-in\?redirect=/)
  await signIn(page, username, password)
  await page.waitForURL((u) => !u.pathname.endsWith("/sign-in"))
  return page
}

const fieldText = (page: Page) => page.locator(".review-fields .field").first().innerText()

describe.skipIf(!hasChromium)("team progress and review mode, end to end", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedReview(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("the owner sees both annotators' answers, with the disagreement marked on the disputed record only", async () => {
    const [ann, ben] = seeded.annotators
    if (ann === undefined || ben === undefined) throw new Error("no annotators seeded")
    const page = await signedIn(`/dataset/${seeded.datasetId}/annotation-mode`, OWNER.username, OWNER.password)
    const toggle = page.getByRole("button", { name: "Review" })
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("false")
    await toggle.click()
    await page.waitForURL(/review=1/)
    await page.locator(".review-panel").waitFor()

    // Every answered record, least agreement first: the disputed one, then the agreed one, each showing both
    // annotators by name; the server says which questions disagree.
    const seen = new Map<string, string>()
    for (let i = 0; i < 2; i++) {
      const text = await fieldText(page)
      const sentiment = page.getByRole("region", { name: /^Sentiment/ })
      seen.set(text, await sentiment.innerText())
      if (i === 0) {
        expect(text).toContain(REVIEW_TEXTS[1])
        await page.getByRole("button", { name: "Next" }).click()
        await expect.poll(() => fieldText(page)).not.toBe(text)
      }
    }
    const agreed = [...seen.entries()].find(([text]) => text.includes(REVIEW_TEXTS[0] ?? "-"))?.[1] ?? ""
    const disputed = [...seen.entries()].find(([text]) => text.includes(REVIEW_TEXTS[1] ?? "-"))?.[1] ?? ""
    expect(agreed).toContain("Agreement")
    expect(agreed).not.toContain("Disagreement")
    expect(agreed).toContain("All 2 submitted answers agree.")
    expect(disputed).toContain("Disagreement")
    expect(disputed).toContain("2 submitted answers, not all the same.")
    for (const name of [ann.username, ben.username]) {
      expect(agreed).toContain(name)
      expect(disputed).toContain(name)
    }
    expect(disputed).toMatch(/Positive/)
    expect(disputed).toMatch(/Negative/)
    await checkA11y(page, "review mode")
    await photograph(page, "review-mode", { fullPage: true })

    // Only the records with disagreement: the disputed one, alone, counted by the server.
    await page.getByLabel("Review queue", { exact: true }).selectOption("disagreement")
    await expect.poll(() => fieldText(page)).toContain(REVIEW_TEXTS[1])
    await expect.poll(() => page.locator(".record-nav").innerText()).toContain("Record 1 of 1")
    expect(await page.getByLabel("Review queue", { exact: true }).locator("option:checked").innerText()).toBe("Disagreements (1)")
    expect(page.url()).toContain("review_queue=disagreement")
    await checkA11y(page, "review mode, disagreement only")

    // `?` opens the sheet with review mode's keys.
    await page.keyboard.press("Escape")
    await page.keyboard.press("?")
    await expect.poll(() => page.locator(".help-sheet[open]").innerText()).toContain("Keyboard shortcuts in review mode")
    await page.keyboard.press("Escape")
    // In review mode neither Focus nor Bulk is pressed, and Focus leaves it.
    const focus = page.getByRole("group", { name: "View" }).getByRole("button", { name: "Focus" })
    expect(await focus.getAttribute("aria-pressed")).toBe("false")
    await focus.click()
    await page.locator(".record-card .span-text, .record-card .field").first().waitFor()
    expect(page.url()).not.toContain("review=1")
    expect(await focus.getAttribute("aria-pressed")).toBe("true")

    // Back to review, and out again with its own toggle: answering as themselves.
    await page.getByRole("button", { name: "Review" }).click()
    await page.locator(".review-panel").waitFor()
    await page.getByRole("button", { name: "Review" }).click()
    await page.locator(".record-card .span-text, .record-card .field").first().waitFor()
    expect(page.url()).not.toContain("review=1")
    await page.context().close()
  })

  it("the team page shows each annotator's counts, and nothing scrolls sideways at 400 px", async () => {
    const [ann, ben] = seeded.annotators
    if (ann === undefined || ben === undefined) throw new Error("no annotators seeded")
    const page = await signedIn(`/dataset/${seeded.datasetId}/annotation-mode`, OWNER.username, OWNER.password)
    await page.getByRole("link", { name: "Progress by annotator" }).click()
    await page.waitForURL(/\/team$/)
    const table = page.getByRole("table")
    await table.waitFor()
    for (const name of [ann.username, ben.username]) {
      const cells = await page.getByRole("row", { name: new RegExp(name) }).locator("td").evaluateAll((tds) =>
        tds.map((td) => `${td.querySelector(".team-count")?.textContent}: ${td.querySelector(".team-split")?.textContent}`)
      )
      // Both answered records are completed (one submission completes a record by default).
      expect(cells).toEqual(["2: 2 completed · 0 pending", "0: 0 completed · 0 pending", "0: 0 completed · 0 pending"])
    }
    await checkA11y(page, "team progress")
    await photograph(page, "team-progress")

    await page.setViewportSize({ width: 400, height: 800 })
    await noSidewaysScroll(page)
    await page.goto(`${url}/dataset/${seeded.datasetId}/annotation-mode?review=1`)
    await page.locator(".review-panel").waitFor()
    await noSidewaysScroll(page)
    await checkA11y(page, "review mode at 400 px")
    await photograph(page, "review-mode-narrow", { fullPage: true })
    await page.context().close()
  })

  it("an admin member reviews too, the annotators named from the workspace's members", async () => {
    const [ann, ben] = seeded.annotators
    if (ann === undefined || ben === undefined) throw new Error("no annotators seeded")
    const page = await signedIn(`/dataset/${seeded.datasetId}/annotation-mode?review=1&review_queue=disagreement`,
      seeded.admin.username, seeded.admin.password)
    await page.locator(".review-panel").waitFor()
    await expect.poll(() => page.getByRole("region", { name: /Sentiment/ }).innerText()).toContain(ann.username)
    const sentiment = await page.getByRole("region", { name: /Sentiment/ }).innerText()
    expect(sentiment).toContain(ben.username)
    expect(sentiment).toContain("Disagreement")
    await page.goto(`${url}/dataset/${seeded.datasetId}/team`)
    await expect.poll(() => page.getByRole("table").innerText()).toContain(ann.username)
    await page.context().close()
  })

  it("an annotator is offered neither the review toggle nor the team's progress", async () => {
    const [ann] = seeded.annotators
    if (ann === undefined) throw new Error("no annotators seeded")
    const page = await signedIn(`/dataset/${seeded.datasetId}/annotation-mode?review=1`, ann.username, ann.password)
    await page.locator(".progress-panel").waitFor()
    await page.locator(".annotation-main").waitFor()
    await expect.poll(() => page.locator("[data-testid=my-progress]").count()).toBe(1)
    expect(await page.getByRole("button", { name: "Review" }).count()).toBe(0)
    expect(await page.locator(".review-panel").count()).toBe(0)
    expect(await page.getByRole("link", { name: "Progress by annotator" }).count()).toBe(0)

    await page.goto(`${url}/dataset/${seeded.datasetId}/team`)
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("Only owners and admins")
    expect(await page.getByRole("table").count()).toBe(0)
    await checkA11y(page, "team progress, annotator")
    await page.context().close()
  })
})
