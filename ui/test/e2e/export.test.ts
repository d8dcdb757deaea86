/**
 * Exporting a dataset from the annotation view, end to end in headless Chromium over a real Gloss: the owner opens
 * "Export", downloads every record as JSON Lines (each response with its username), then, on the Submitted queue,
 * only the records of that view as CSV; the dialog, at 1280 and 400 px wide and in the light, dark and high-contrast
 * themes, has no axe violation and does not scroll sideways; it is used with the keyboard alone.
 */
import { readFileSync } from "node:fs"
import { Effect, Exit, ManagedRuntime, Scope } from "effect"
import type { Browser, Download, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FakeDatasetHub, fakeDatasetHub, HUB_TOKEN } from "../../../test/support/fakeDatasetHub.js"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { buildUi, hasChromium, launch, signIn } from "./browser.js"
import { checkA11y, sidewaysOverflow } from "./checks.js"
import { seedExport } from "./exportSeed.js"

// The server pushes to a fake Hub on a loopback port (HF_ENDPOINT), started before it.
const hubScope = Effect.runSync(Scope.make())
let hub: FakeDatasetHub
let runtime: ManagedRuntime.ManagedRuntime<TestServer, unknown>
let url = ""
let browser: Browser
let seeded: Effect.Effect.Success<ReturnType<typeof seedExport>>

const contentOf = async (download: Download) => readFileSync(await download.path(), "utf8")

const openDialog = async (page: Page) => {
  await page.getByRole("button", { name: "Export", exact: true }).click()
  const dialog = page.getByRole("dialog", { name: "Export the dataset" })
  await dialog.waitFor()
  return dialog
}

describe.skipIf(!hasChromium)("exporting a dataset from the UI, end to end", () => {
  beforeAll(async () => {
    buildUi()
    hub = await Effect.runPromise(Scope.extend(fakeDatasetHub({}), hubScope))
    runtime = ManagedRuntime.make(TestServerLive("sqlite", { HF_ENDPOINT: hub.url }))
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedExport(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime?.dispose()
    await Effect.runPromise(Scope.close(hubScope, Exit.void))
  })

  it("downloads every record as JSON Lines, then the Submitted view's records as CSV; axe-clean at 1280 and 400 px", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    const page = await context.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (e) => errors.push(e.message))
    await page.goto(`${url}/sign-in`)
    await signIn(page, OWNER.username, OWNER.password)
    await page.locator("table.datasets").waitFor()
    await page.goto(`${url}/dataset/${seeded.datasetId}/annotation-mode`)

    const dialog = await openDialog(page)
    await checkA11y(page, "export dialog")
    await dialog.getByLabel(/^JSON Lines/).check()
    await dialog.getByLabel("All records").check()
    const [all] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Export and download" }).click()
    ])
    expect(all.suggestedFilename()).toMatch(new RegExp(`^${seeded.datasetName}-\\d{4}-\\d{2}-\\d{2}\\.jsonl$`))
    const lines = (await contentOf(all)).trimEnd().split("\n").map((line) => JSON.parse(line) as { external_id: string; responses: Array<{ username: string; status: string }> })
    expect(lines.map((record) => record.external_id)).toEqual(["e-0", "e-1", "e-2", "e-3", "e-4", "e-5"])
    expect(lines[0]?.responses).toEqual([expect.objectContaining({ username: seeded.ownerName, status: "submitted" })])
    await expect.poll(() => dialog.getByRole("status").innerText()).toContain("Exported 6 records")
    await checkA11y(page, "export dialog, done")

    await page.setViewportSize({ width: 400, height: 800 })
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0)
    await checkA11y(page, "export dialog at 400 px")
    await page.setViewportSize({ width: 1280, height: 900 })
    await dialog.getByRole("button", { name: "Close" }).click()

    // The Submitted queue holds the two records the owner answered.
    await page.getByRole("group", { name: "Queue" }).getByRole("button", { name: /^Submitted/ }).click()
    await expect.poll(() => new URL(page.url()).searchParams.toString()).toContain("submitted")
    const again = await openDialog(page)
    await again.getByLabel(/^CSV/).check()
    await again.getByLabel("The records matching the current queue, search and filters").check()
    const [subset] = await Promise.all([
      page.waitForEvent("download"),
      again.getByRole("button", { name: "Export and download" }).click()
    ])
    expect(subset.suggestedFilename()).toMatch(/\.csv$/)
    const rows = (await contentOf(subset)).split("\r\n").filter((line) => line !== "")
    expect(rows[0]?.split(",").slice(0, 3)).toEqual(["id", "external_id", "status"])
    expect(rows.slice(1).map((row) => row.split(",")[1]).sort()).toEqual(["e-0", "e-1"])
    expect(errors).toEqual([])
    await context.close()
  }, 120_000)

  it("works with the keyboard alone, and has no axe violation in the light, dark and high-contrast themes", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    const page = await context.newPage()
    await page.goto(`${url}/sign-in`)
    await signIn(page, OWNER.username, OWNER.password)
    await page.locator("table.datasets").waitFor()
    for (const theme of ["light", "dark", "high-contrast"]) {
      await page.evaluate((value) => localStorage.setItem("gloss.theme", value), theme)
      await page.goto(`${url}/dataset/${seeded.datasetId}/annotation-mode`)
      await openDialog(page)
      await checkA11y(page, `export dialog (${theme})`)
      await page.keyboard.press("Escape")
    }
    // Keyboard only: focus the Export button, open, pick Parquet with the arrow keys, start with Enter.
    await page.getByRole("button", { name: "Export", exact: true }).focus()
    await page.keyboard.press("Enter")
    const dialog = page.getByRole("dialog", { name: "Export the dataset" })
    await dialog.waitFor()
    await dialog.getByLabel(/^JSON Lines/).focus()
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("ArrowDown")
    await expect.poll(() => dialog.getByLabel(/^Parquet/).isChecked()).toBe(true)
    const [file] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")])
    expect(file.suggestedFilename()).toMatch(/\.parquet$/)
    expect(readFileSync(await file.path()).subarray(0, 4).toString()).toBe("PAR1")
    await context.close()
  }, 120_000)

  it("pushes the dataset to the Hugging Face Hub from the same dialog, with its progress", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${url}/sign-in`)
    await signIn(page, OWNER.username, OWNER.password)
    await page.locator("table.datasets").waitFor()
    await page.goto(`${url}/dataset/${seeded.datasetId}/annotation-mode`)
    const dialog = await openDialog(page)
    await dialog.getByLabel("Dataset repository").fill("team/reviews")
    await dialog.getByLabel("Access token with write access").fill(HUB_TOKEN)
    await expect.poll(() => dialog.getByLabel("Private repository").isChecked()).toBe(true)
    await dialog.getByRole("button", { name: "Push to the Hub" }).click()
    await expect.poll(() => dialog.getByRole("status").innerText(), { timeout: 30_000 }).toBe("Pushed 6 records to team/reviews.")
    const repo = hub.repos.get("team/reviews")
    expect(repo?.private).toBe(true)
    expect([...(repo?.files.keys() ?? [])]).toContain("data/train-00000-of-00001.parquet")
    await checkA11y(page, "export dialog, pushed")
    await context.close()
  }, 120_000)
})
