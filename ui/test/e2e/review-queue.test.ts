/**
 * Review queues and adjudication end to end, in headless Chromium over a real Gloss (see reviewQueueSeed.ts for the
 * data). The owner opens review mode, takes the Disagreements queue (only the two disputed records, least agreement
 * first), settles the first by picking ben's answer with the keyboard, the second with their own answer and a note,
 * sees the counts move, then accepts every agreed answer in one go. A reviewer (an annotator with review rights)
 * settles and unsettles; a plain annotator is never offered review mode. axe on each state, at 1280 and 400 px.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RecordId } from "../../../src/domain/Ids.js"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { buildUi, hasChromium, launch, photograph, signIn } from "./browser.js"
import { checkA11y, noSidewaysScroll } from "./checks.js"
import { QUEUE_TEXTS, type ReviewQueueSeeded, seedReviewQueue } from "./reviewQueueSeed.js"
import { clientFor } from "./seed.js"

if (!hasChromium) console.warn("ui e2e (review queue): skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)")

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: ReviewQueueSeeded
let browser: Browser

const signedIn = async (path: string, username: string, password: string, width = 1280) => {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: "light" })
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  await page.goto(`${url}${path}`)
  await page.waitForURL(/\/sign-in\?redirect=/)
  await signIn(page, username, password)
  await page.waitForURL((u) => !u.pathname.endsWith("/sign-in"))
  return page
}

/** The record's final answers as the server holds them. */
const finalAnswers = (record: RecordId) =>
  Effect.runPromise(Effect.gen(function*() {
    const client = yield* clientFor(url, OWNER.apiKey)
    return (yield* client.review.finalAnswers({ path: { id: record } })).items
  }).pipe(Effect.provide(FetchHttpClient.layer)))

const fieldText = (page: Page) => page.locator(".review-fields .field").first().innerText()
const queueOptions = (page: Page) => page.getByLabel("Review queue", { exact: true }).locator("option").allInnerTexts()
const nav = (page: Page) => page.locator(".record-nav").innerText()
const agreementLine = (page: Page) => page.getByTestId("record-agreement").innerText()

describe.skipIf(!hasChromium)("review queues and adjudication, end to end", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedReviewQueue(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("the owner settles the disagreements by keyboard, then accepts every agreed answer", async () => {
    const [ann, ben, cat] = seeded.annotators
    const [r1, r2, r3, r4] = seeded.records
    if (ann === undefined || ben === undefined || cat === undefined) throw new Error("no annotators seeded")
    if (r1 === undefined || r2 === undefined || r3 === undefined || r4 === undefined) throw new Error("no records seeded")
    const page = await signedIn(`/dataset/${seeded.datasetId}/annotation-mode`, OWNER.username, OWNER.password)
    await page.getByRole("button", { name: "Review" }).click()
    await page.waitForURL(/review=1/)
    await page.locator(".review-panel").waitFor()
    // Counts from the server: four answered records, two disputed, none settled.
    await expect.poll(() => queueOptions(page)).toEqual([
      "All answered (4)",
      "Disagreements (2)",
      "Unsettled (4)",
      "Settled (0)",
      "Sample"
    ])

    // Disagreements, least agreement first: r-3 (ann and ben differ) before r-2 (two of three agree).
    await page.getByLabel("Review queue", { exact: true }).selectOption("disagreement")
    await page.waitForURL(/review_queue=disagreement/)
    await expect.poll(() => fieldText(page)).toContain(QUEUE_TEXTS[2])
    await expect.poll(() => nav(page)).toContain("Record 1 of 2")
    expect(await agreementLine(page)).toContain("Agreement: 0 %. Disagreement on Sentiment.")
    const sentiment = page.getByRole("region", { name: /^Sentiment/ })
    expect(await sentiment.getAttribute("class")).toContain("disagreement")
    expect(await sentiment.innerText()).toContain("Disagreement")
    await checkA11y(page, "review queue: disagreements")
    await photograph(page, "review-queue", { fullPage: true })

    // `?` lists review mode's keys.
    await page.keyboard.press("Escape")
    await page.keyboard.press("?")
    await expect.poll(() => page.locator(".help-sheet[open]").innerText()).toContain("Settle the picked answers")
    await page.keyboard.press("Escape")

    // 2 picks the second annotator by name (ben: Negative) on the disputed question; Enter settles and moves on.
    await page.keyboard.press("2")
    await expect.poll(() => sentiment.getByRole("radio", { name: new RegExp(ben.username) }).getAttribute("aria-checked")).toBe("true")
    await page.keyboard.press("Enter")
    await expect.poll(() => fieldText(page)).toContain(QUEUE_TEXTS[1])
    await expect.poll(async () => (await finalAnswers(r3)).map((f) => [f.question, f.value, f.source, f.source_user_id])).toEqual([
      ["sentiment", "negative", "response", ben.id]
    ])

    // r-2: two of three agree, a model suggests Negative; the note has one answer (ann's), nothing compared.
    expect(await agreementLine(page)).toContain("Agreement: 33 %")
    expect(await sentiment.innerText()).toMatch(/Suggestion\s*by model-x · score 0\.80/)
    const note = page.getByRole("region", { name: /^Note/ })
    expect(await note.innerText()).toContain("One submitted answer: nothing to compare it with.")
    expect(await note.innerText()).not.toMatch(/answers agree/)
    // Their own answer: O opens it, a click picks Neutral, N writes the note, Esc leaves it, Enter settles.
    await page.keyboard.press("o")
    await page.locator(".review-own").getByRole("radio", { name: "Neutral" }).click()
    await page.keyboard.press("n")
    await page.keyboard.type("Both readings hold")
    await page.keyboard.press("Escape")
    await checkA11y(page, "review queue: own answer")
    await page.keyboard.press("Enter")
    await expect.poll(() => page.locator(".review-mode .empty").innerText()).toContain("No more records in this queue")
    const settled = await finalAnswers(r2)
    expect(settled.map((f) => [f.question, f.value, f.source, f.source_user_id, f.note]).sort()).toEqual([
      ["note", "ann's note", "response", ann.id, null],
      ["sentiment", "neutral", "reviewer", null, "Both readings hold"]
    ])

    // The counts moved: two settled, the two agreed records still unsettled.
    await expect.poll(() => queueOptions(page)).toEqual([
      "All answered (4)",
      "Disagreements (2)",
      "Unsettled (2)",
      "Settled (2)",
      "Sample"
    ])

    // Accept all agreed: asked first, then the two agreed records are settled and the counts say so.
    await page.getByRole("button", { name: "Accept all agreed…" }).click()
    const dialog = page.getByRole("dialog", { name: "Accept every agreed answer?" })
    await dialog.waitFor()
    await checkA11y(page, "review queue: accept agreed")
    await dialog.getByRole("button", { name: "Accept agreed answers" }).click()
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Accepted" }).innerText()).toBe(
      "Accepted 2 agreed answers on 2 records."
    )
    await expect.poll(() => queueOptions(page)).toEqual([
      "All answered (4)",
      "Disagreements (2)",
      "Unsettled (0)",
      "Settled (4)",
      "Sample"
    ])
    expect((await finalAnswers(r1)).map((f) => [f.question, f.value, f.source])).toEqual([["sentiment", "positive", "agreement"]])
    expect((await finalAnswers(r4)).map((f) => [f.question, f.value, f.source])).toEqual([["sentiment", "negative", "agreement"]])

    // The settled queue shows r-2's final answer: who settled it, from what, and the note.
    await page.getByLabel("Review queue", { exact: true }).selectOption("settled")
    await expect.poll(() => nav(page)).toContain("Record 1 of 4")
    await page.keyboard.press("Escape")
    await page.keyboard.press("j")
    await expect.poll(() => fieldText(page)).toContain(QUEUE_TEXTS[1])
    const final = page.getByRole("group", { name: "Final answer to Sentiment" })
    await expect.poll(() => final.innerText()).toMatch(new RegExp(`settled by ${OWNER.username} from the reviewer’s own answer`))
    expect(await final.innerText()).toContain("Note: Both readings hold")
    await checkA11y(page, "review queue: settled record")

    // One annotator's records: cat answered r-1 and r-2 only.
    await page.getByLabel("Review queue", { exact: true }).selectOption("all")
    await page.getByLabel("Annotator", { exact: true }).selectOption({ label: `Review ${cat.username}’s answers` })
    await expect.poll(() => nav(page)).toContain("Record 1 of 2")
    expect(page.url()).toContain(`review_annotator=${cat.id}`)

    // A sample: its seed and size in the URL, so the link gives the same records; 100 % is every answered record.
    await page.getByLabel("Annotator", { exact: true }).selectOption("")
    await page.getByLabel("Review queue", { exact: true }).selectOption("sample")
    await page.waitForURL(/review_seed=/)
    await page.getByLabel("Sample %", { exact: true }).fill("100")
    await page.waitForURL(/review_sample=100/)
    await expect.poll(() => nav(page)).toContain("Record 1 of 4")
    await checkA11y(page, "review queue: sample")

    // At 400 px: nothing scrolls sideways, and axe still finds nothing.
    await page.setViewportSize({ width: 400, height: 800 })
    await page.getByLabel("Review queue", { exact: true }).selectOption("disagreement")
    await expect.poll(() => nav(page)).toContain("Record 1 of 2")
    await noSidewaysScroll(page)
    await checkA11y(page, "review queue at 400 px")
    await photograph(page, "review-queue-narrow", { fullPage: true })
    await page.context().close()
  }, 180_000)

  it("a reviewer (an annotator with review rights) settles and unsettles", async () => {
    const [ann, ben] = seeded.annotators
    const r3 = seeded.records[2]
    if (ann === undefined || ben === undefined || r3 === undefined) throw new Error("nothing seeded")
    const page = await signedIn(`/dataset/${seeded.datasetId}/annotation-mode`, seeded.reviewer.username, seeded.reviewer.password)
    await page.getByRole("button", { name: "Review" }).click()
    await page.locator(".review-panel").waitFor()
    // The annotators by name (from the agreement report: a reviewer may not list the workspace's members).
    await page.getByLabel("Review queue", { exact: true }).selectOption("disagreement")
    await expect.poll(() => fieldText(page)).toContain(QUEUE_TEXTS[2])
    const sentiment = page.getByRole("region", { name: /^Sentiment/ })
    await expect.poll(() => sentiment.innerText()).toContain(ann.username)
    expect(await sentiment.innerText()).toContain(ben.username)
    // 1 picks ann's answer (settled already or not: the pick replaces it), Enter settles and moves on.
    await page.keyboard.press("Escape")
    await page.keyboard.press("1")
    await expect.poll(() => sentiment.getByRole("radio", { name: new RegExp(ann.username) }).getAttribute("aria-checked")).toBe("true")
    await page.keyboard.press("Enter")
    await expect.poll(async () => (await finalAnswers(r3)).map((f) => [f.value, f.source_user_id, f.settled_by])).toEqual([
      ["positive", ann.id, seeded.reviewer.id]
    ])
    await expect.poll(() => fieldText(page)).toContain(QUEUE_TEXTS[1])
    // K goes back; U unsettles the disputed question, and its final answer is gone.
    await page.keyboard.press("k")
    await expect.poll(() => fieldText(page)).toContain(QUEUE_TEXTS[2])
    await expect.poll(() => page.getByRole("group", { name: "Final answer to Sentiment" }).count()).toBe(1)
    await page.keyboard.press("u")
    await expect.poll(async () => (await finalAnswers(r3)).length).toBe(0)
    await expect.poll(() => page.getByRole("group", { name: "Final answer to Sentiment" }).count()).toBe(0)
    await checkA11y(page, "review queue: reviewer")
    await page.context().close()
  }, 90_000)

  it("a plain annotator is never offered review mode", async () => {
    const page = await signedIn(`/dataset/${seeded.datasetId}/annotation-mode?review=1`, seeded.plain.username, seeded.plain.password)
    await page.locator(".annotation-main").waitFor()
    await page.locator(".record-card").first().waitFor()
    expect(await page.getByRole("button", { name: "Review" }).count()).toBe(0)
    expect(await page.locator(".review-mode").count()).toBe(0)
    await page.context().close()
  }, 60_000)
})
