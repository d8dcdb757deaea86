/**
 * The bulk view end to end, in headless Chromium over a real Gloss: an annotator filters the queue to the 30 "web"
 * records of 60, selects all matching across pages (page size 10), deselects one on page 2, picks a label and
 * submits: the apply job runs with its progress shown, and the server then holds exactly those 29 submitted
 * responses. Then, unfiltered, 3 records ticked on the page by keyboard are saved as drafts through the bulk
 * endpoint. axe on each state; at 400 px nothing scrolls sideways.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { DatasetId } from "../../../src/domain/Ids.js"
import type { DatasetRecord } from "../../../src/domain/Record.js"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { buildUi, hasChromium, launch, photograph, signIn } from "./browser.js"
import { checkA11y, noSidewaysScroll } from "./checks.js"
import { type BulkSeeded, seedBulk, WEB_ONLY } from "./bulkSeed.js"
import { clientFor } from "./seed.js"

if (!hasChromium) console.warn("ui e2e (bulk): skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)")

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: BulkSeeded
let browser: Browser
let page: Page



/** The annotator's records whose response has `status`, as the server holds them. */
const mine = (datasetId: DatasetId, status: "submitted" | "draft" | "pending") =>
  Effect.runPromise(Effect.gen(function*() {
    const client = yield* clientFor(url, seeded.annotator.apiKey)
    const found: Array<DatasetRecord> = []
    for (let offset = 0;; offset += 100) {
      const result = yield* client.search.mine({
        path: { id: datasetId },
        urlParams: { offset, limit: 100, include: ["responses"] },
        payload: { filters: { and: [{ type: "terms", scope: { entity: "response", property: "status" }, values: [status] }] } }
      })
      found.push(...result.items.map((i) => i.record))
      if (result.items.length < 100) return found
    }
  }).pipe(Effect.provide(FetchHttpClient.layer)))

/** Resolves once the server's search sees all `count` "web" records (indexing follows the writes). */
const indexed = async (count: number) => {
  const client = await Effect.runPromise(clientFor(url, seeded.annotator.apiKey).pipe(Effect.provide(FetchHttpClient.layer)))
  const filter = { type: "terms" as const, scope: { entity: "metadata" as const, metadata_property: "source" }, values: ["web"] }
  await expect.poll(async () =>
    (await Effect.runPromise(client.search.mine({
      path: { id: seeded.datasetId },
      urlParams: { offset: 0, limit: 1 },
      payload: { filters: { and: [filter] } }
    }))).total, { timeout: 20_000 }).toBe(count)
}

const bulkUrl = (extra = "") => `${url}/dataset/${seeded.datasetId}/annotation-mode?view=bulk${extra}`

describe.skipIf(!hasChromium)("bulk view, end to end", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedBulk(url, OWNER.apiKey, 60))
    browser = await launch()
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" })
    page = await context.newPage()
    page.setDefaultTimeout(10_000)
    await page.goto(`${url}/`)
    await signIn(page, seeded.annotator.username, seeded.annotator.password)
    await page.locator("table.datasets").waitFor()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("filtered to 30 records, all matching selected across pages less one, submitted: the server holds those 29", async () => {
    const errors: Array<string> = []
    page.on("pageerror", (e) => errors.push(e.message))
    await indexed(30)
    await page.goto(bulkUrl(`&_metadata=${encodeURIComponent(WEB_ONLY)}`))
    await expect.poll(() => page.locator(".bulk-pager").innerText()).toContain("records 1–10 of 30")
    expect(await page.locator(".bulk-card").count()).toBe(10)
    // The focus | bulk switch shows the bulk view as pressed; spans are drawn, suggestions are not pre-filled.
    expect(await page.getByRole("button", { name: "Bulk", exact: true }).getAttribute("aria-pressed")).toBe("true")
    expect(await page.locator(".bulk-span-text [data-labels]").first().innerText()).toContain("Acme Corp")
    await checkA11y(page, "bulk view")

    await page.getByRole("button", { name: "Select all 30 matching" }).click()
    await page.getByRole("button", { name: "Yes, select all 30" }).click()
    await page.getByRole("button", { name: "Next page" }).click()
    await expect.poll(() => page.locator(".bulk-pager").innerText()).toContain("records 11–20 of 30")
    // The range reads 11–20 once page 2's records are on screen (until then page 1's stay, numbered 1–10).
    const twelfth = page.getByRole("checkbox", { name: "Select record 12", exact: true })
    const excluded = await page.locator(".bulk-card", { has: twelfth }).getAttribute("data-record-id")
    await twelfth.click()
    await expect.poll(() => page.locator(".bulk-count").innerText()).toBe("29 selected")
    await page.getByRole("radio", { name: /Positive/ }).click()
    await checkA11y(page, "bulk view, all matching selected")
    await photograph(page, "bulk")
    await page.getByRole("button", { name: "Submit", exact: true }).click()
    await expect.poll(() => page.locator(".bulk-job h3").innerText(), { timeout: 20_000 }).toBe("Applied")
    expect(await page.locator(".bulk-job-bar").innerText()).toContain("29 of 29")
    await checkA11y(page, "bulk view, job finished")
    // The list refreshed: one record of the 30 is still pending.
    await expect.poll(() => page.locator(".bulk-pager").innerText()).toContain("of 1")

    const submitted = await mine(seeded.datasetId, "submitted")
    expect(submitted).toHaveLength(29)
    expect(submitted.every((r) => r.metadata?.["source"] === "web")).toBe(true)
    expect(submitted.map((r) => r.id)).not.toContain(excluded)
    expect(new Set(submitted.flatMap((r) => (r.responses ?? []).map((x) => JSON.stringify(x.values)))))
      .toEqual(new Set([JSON.stringify({ sentiment: { value: "positive" } })]))
    expect(errors).toEqual([])
  }, 90_000)

  it("three records ticked by keyboard are saved as drafts; at 400 px nothing scrolls sideways", async () => {
    await page.goto(bulkUrl())
    await expect.poll(() => page.locator(".bulk-pager").innerText()).toContain("records 1–10 of 31")
    const ids: Array<string | null> = []
    for (const n of [1, 2, 4]) {
      const box = page.getByRole("checkbox", { name: `Select record ${n}`, exact: true })
      await box.focus()
      await page.keyboard.press("Space")
      ids.push(await page.locator(".bulk-card").nth(n - 1).getAttribute("data-record-id"))
    }
    await expect.poll(() => page.locator(".bulk-count").innerText()).toBe("3 selected")
    await page.getByRole("radio", { name: /Negative/ }).focus()
    await page.keyboard.press("Space")
    await page.getByRole("button", { name: "Save as draft", exact: true }).focus()
    await page.keyboard.press("Enter")
    await expect.poll(() => page.locator(".bulk-outcome").innerText()).toBe("3 records saved as draft.")

    const drafts = await mine(seeded.datasetId, "draft")
    expect(drafts.map((r) => r.id).sort()).toEqual([...ids].sort())
    expect(drafts.every((r) => r.responses?.[0]?.values?.["sentiment"]?.value === "negative")).toBe(true)

    // The draft queue in bulk, narrow.
    await page.setViewportSize({ width: 400, height: 800 })
    await page.goto(bulkUrl("&_status=draft"))
    await expect.poll(() => page.locator(".bulk-pager").innerText()).toContain("records 1–3 of 3")
    await page.getByRole("button", { name: "Expand record 1", exact: true }).click()
    await noSidewaysScroll(page)
    await checkA11y(page, "bulk view, draft queue at 400 px")
  }, 90_000)
})
