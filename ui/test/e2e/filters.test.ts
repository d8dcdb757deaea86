/**
 * Sort, filters, "find similar" and search highlighting against a real Gloss: an annotator sorts by a metadata
 * value, filters by suggestion agent + score and by their own answer, finds most and least similar records (with
 * scores, and a record without a vector says so), sees the search word marked, and a reload gives the same view.
 * Axe runs with the panel open.
 */
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { buildUi, hasChromium, launch, photograph, signIn } from "./browser.js"
import { checkA11y, noSidewaysScroll } from "./checks.js"
import { type FiltersSeeded, ROWS, seedFilters } from "./filtersSeed.js"

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: FiltersSeeded
let browser: Browser


const shown = (page: Page) => page.locator(".record-card .field-text").first().innerText()
const nav = (page: Page) => page.locator(".record-nav .muted").innerText()
const row = (i: number) => ROWS[i]?.text ?? ""

/** Waits until the card shows `text` (the queue reloads after each change of view). */
const expectShown = async (page: Page, text: string) => {
  await page.locator(".record-card .field-text", { hasText: text }).first().waitFor({ timeout: 10_000 })
  expect(await shown(page)).toBe(text)
}

describe.skipIf(!hasChromium)("web UI: sort, filters, find similar, highlighting", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedFilters(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("an annotator sorts, filters, finds similar records, sees matches marked, and a reload keeps the view", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${url}/sign-in`)
    await signIn(page, seeded.annotator.username, seeded.annotator.password)
    await page.locator("table.datasets").waitFor()
    const annotation = `${url}/dataset/${seeded.datasetId}/annotation-mode`
    await page.goto(annotation)
    await page.locator(".record-card").waitFor()

    // Sort by Length, descending: the pending records (1, 2, 4, 5) come as 9, 7, 3, 2.
    await page.getByText("Sort", { exact: true }).click()
    await page.getByLabel("Sort by").selectOption("metadata.length")
    await page.getByRole("button", { name: "Add sort" }).click()
    await page.getByLabel("Order of Metadata: Length").selectOption("desc")
    await expectShown(page, row(2))
    await page.keyboard.press("ArrowRight")
    await expectShown(page, row(4))
    await page.keyboard.press("ArrowRight")
    await expectShown(page, row(5))
    await checkA11y(page, "sort open")

    // Suggestions by model-b scoring at least 0.5: of the pending records, only record 4.
    await page.getByText("Suggestions", { exact: true }).click()
    await page.getByRole("checkbox", { name: "model-b" }).check()
    await page.getByRole("group", { name: "Score" }).getByLabel("From").fill("0.5")
    await page.getByRole("button", { name: "Apply suggestion filters" }).click()
    await expectShown(page, row(4))
    expect(await nav(page)).toContain("of 1")
    await checkA11y(page, "suggestion filters open")
    await photograph(page, "filters")

    // My own answers: submitted with Negative is record 3 (model-b, 0.8 also matches the suggestion filter).
    await page.getByRole("button", { name: /^Submitted/ }).click()
    await page.getByText("My responses", { exact: true }).click()
    await page.getByRole("form", { name: "Filter by my responses" }).getByRole("checkbox", { name: "Negative" }).check()
    await page.getByRole("button", { name: "Apply response filters" }).click()
    await expectShown(page, row(3))
    expect(await nav(page)).toContain("of 1")
    await expect(page.getByRole("list", { name: "Active sort and filters" }).innerText()).resolves.toContain(
      "My response, Sentiment: negative"
    )
    await checkA11y(page, "response filters open")

    // Find similar from record 2 (vector [1, 0]) in the pending queue, sorted by length: 4 is nearest, 1 farthest.
    await page.goto(`${annotation}?_sort=metadata.length:desc`)
    await expectShown(page, row(2))
    await page.locator(".record-card .find-similar summary").click()
    await page.getByRole("button", { name: "Show similar records" }).click()
    await expectShown(page, row(4))
    expect(await nav(page)).toMatch(/similarity 0\.99\d/)
    await page.keyboard.press("ArrowRight")
    await expectShown(page, row(1))
    expect(await nav(page)).toMatch(/similarity 0\.000/)
    expect(new URL(page.url()).searchParams.get("order")).toBe("most_similar")
    await checkA11y(page, "find similar")
    await photograph(page, "find-similar")
    await page.getByLabel("Similarity order").selectOption("least_similar")
    await expectShown(page, row(1))
    expect(new URL(page.url()).searchParams.get("order")).toBe("least_similar")
    await page.getByRole("button", { name: "Back to the queue" }).click()
    await expectShown(page, row(2))
    expect(new URL(page.url()).searchParams.get("similar")).toBeNull()

    // Record 5 has no vector: the card says so and the queue stays.
    await page.goto(`${annotation}?_sort=metadata.length:asc`)
    await expectShown(page, row(1))
    await page.keyboard.press("ArrowRight")
    await expectShown(page, row(5))
    await page.locator(".record-card .find-similar summary").click()
    await page.getByRole("button", { name: "Show similar records" }).click()
    await expect(page.getByRole("alert").innerText()).resolves.toMatch(/does not have a vector/)
    expect(new URL(page.url()).searchParams.get("similar")).toBeNull()

    // Search: "rocket" is in records 2 and 4, in their plain text and their markdown notes; each match is marked.
    await page.getByRole("searchbox", { name: "Search records" }).fill("rocket")
    await page.getByRole("button", { name: "Search", exact: true }).click()
    await expectShown(page, row(4))
    const marks = () => page.locator(".record-card mark.search-hit").allInnerTexts()
    expect(await marks()).toEqual(["rocket", "Rocket"])
    await checkA11y(page, "search highlighted")

    // The URL is the view: a reload shows the same record, order, marks and chips.
    const before = page.url()
    await page.reload()
    await expectShown(page, row(4))
    expect(page.url()).toBe(before)
    expect(await marks()).toEqual(["rocket", "Rocket"])
    await page.keyboard.press("ArrowRight")
    await expectShown(page, row(2))
    await expect(page.getByRole("list", { name: "Active sort and filters" }).innerText()).resolves.toContain("Length")

    // At 400 px nothing scrolls sideways, with the panel open.
    await page.setViewportSize({ width: 400, height: 800 })
    await page.getByText("Sort (1)").click()
    await noSidewaysScroll(page)
    await checkA11y(page, "panel at 400 px")
    await context.close()
  }, 120_000)
})
