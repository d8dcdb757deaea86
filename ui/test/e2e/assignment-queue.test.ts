/**
 * The annotator's own queue in the annotation view, against a real Gloss: records assigned to them come first
 * ("Assigned to you"), then the pool's ("From the pool", a priority first, each reserved for them until a time);
 * the Pending tab counts what "Record n of N" counts; two annotators drawing from a pool with `min_submitted` 1
 * never hold the same record; a sort shows the search's order and says so; in a blind dataset no suggestion shows
 * (nor a suggestion filter) until the record is submitted, and then it does. Axe at 1280 and 400 px.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { DatasetId } from "../../../src/domain/Ids.js"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import {
  AGENT,
  type Annotator,
  ASSIGNED,
  assignedText,
  type AssignmentQueueSeeded,
  BLIND_RECORDS,
  blindText,
  POOL,
  poolText,
  PRIORITY,
  PRIORITY_RECORD,
  seedAssignmentQueue
} from "./assignmentQueueSeed.js"
import { buildUi, hasChromium, launch, photograph, signIn } from "./browser.js"
import { checkA11y, noSidewaysScroll } from "./checks.js"
import { clientFor } from "./seed.js"

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: AssignmentQueueSeeded
let browser: Browser
let annContext: BrowserContext
let ann: Page

const nav = (page: Page) => page.locator(".record-nav .muted").innerText()
const place = (page: Page) => page.getByTestId("queue-place").innerText()
const shown = (page: Page) => page.locator(".record-card .field-text").first().innerText()

const tabCount = async (page: Page) => {
  const count = page.getByRole("group", { name: "Queue" }).getByRole("button", { name: /^Pending/ }).locator(".count")
  await count.waitFor()
  return Number(await count.innerText())
}

const expectShown = async (page: Page, text: string) => {
  await page.locator(".record-card .field-text", { hasText: text }).first().waitFor({ timeout: 10_000 })
  expect(await shown(page)).toBe(text)
}

const openAs = async (who: Annotator, datasetId: DatasetId) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  await page.goto(`${url}/sign-in`)
  await signIn(page, who.username, who.password)
  await page.locator("table.datasets").waitFor()
  await page.goto(`${url}/dataset/${datasetId}/annotation-mode`)
  await page.locator(".record-card").waitFor()
  return { context, page }
}

/** The pool records `who` holds a live reservation on, by id, as the server says (looking only, reserving nothing). */
const reserved = (who: Annotator) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const client = yield* clientFor(url, who.apiKey)
      const page = yield* client.assignment.queue({
        path: { id: seeded.queueId },
        urlParams: { limit: 100 },
        payload: { reserve: false }
      })
      return page.items.filter((i) => i.reason === "pool" && i.lease_expires_at !== null).map((i) => i.record.id as string)
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

const atNarrowWidth = async (page: Page, screen: string, shot?: string) => {
  await page.setViewportSize({ width: 400, height: 900 })
  if (shot !== undefined) await photograph(page, `${shot}`)
  await checkA11y(page, `${screen} at 400 px`)
  await noSidewaysScroll(page)
  await page.setViewportSize({ width: 1280, height: 900 })
}

describe.skipIf(!hasChromium)("web UI: the annotator's own queue", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedAssignmentQueue(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("assigned records come first, then the pool's, each saying why it is there; the tab counts what the nav counts", async () => {
    ;({ context: annContext, page: ann } = await openAs(seeded.ann, seeded.queueId))
    const total = ASSIGNED + POOL
    await expect.poll(() => nav(ann)).toContain(`Record 1 of ${total}`)
    await expect.poll(() => tabCount(ann)).toBe(total)

    // The assigned records were inserted after the whole pool: only the assignment puts them first.
    for (let i = 0; i < ASSIGNED; i++) {
      await expectShown(ann, assignedText(i))
      expect(await nav(ann)).toContain(`Record ${i + 1} of ${total}`)
      expect(await place(ann)).toContain("Assigned to you")
      expect(await place(ann)).not.toContain("reserved")
      await ann.keyboard.press("ArrowRight")
    }

    // The pool: the record with a priority first, reserved for this annotator until a time, then insertion order.
    await expectShown(ann, poolText(PRIORITY_RECORD))
    const first = await place(ann)
    expect(first).toContain("From the pool")
    expect(first).toContain(`priority ${PRIORITY}`)
    // A reservation that ends on another day names the day too ("Dec 4, 12:00 AM"): a run near midnight sees it.
    expect(first).toMatch(/reserved for you until ([A-Za-z]{3} \d{1,2}, )?\d{1,2}:\d{2}/)
    expect(first).not.toContain("Assigned to you")
    // Said in text (the visually hidden part reaches screen readers), and in the title for the pointer.
    expect(await ann.locator(".queue-lease").textContent()).toContain("other annotators will not get it until then")
    expect(await ann.locator(".queue-lease").getAttribute("title")).toMatch(/^Other annotators will not get this record until/)
    await photograph(ann, "assignment-queue")
    await atNarrowWidth(ann, "a pool record", "assignment-queue-narrow")
    await ann.keyboard.press("ArrowRight")
    await expectShown(ann, poolText(0))
    expect(await place(ann)).toContain("From the pool")
    expect(await place(ann)).not.toContain("priority")

    // My progress counts the same queue, and says what it is made of.
    const progress = ann.getByTestId("my-progress")
    await expect.poll(() => progress.innerText()).toContain(`Pending ${total} (${ASSIGNED} assigned to you, ${POOL} from the pool)`)

    await checkA11y(ann, "own queue")
    await atNarrowWidth(ann, "own queue")
  })

  it("two annotators drawing from the pool with min_submitted 1 never hold the same record", async () => {
    // Ann's first page (20 records: her 3 assigned, 17 of the pool) reserved those pool records for her.
    const annHeld = await reserved(seeded.ann)
    expect(annHeld).toHaveLength(20 - ASSIGNED)

    const { context, page: bo } = await openAs(seeded.bo, seeded.queueId)
    const boTotal = POOL - annHeld.length
    await expect.poll(() => nav(bo)).toContain(`Record 1 of ${boTotal}`)
    await expect.poll(() => tabCount(bo)).toBe(boTotal)
    expect(await place(bo)).toContain("From the pool")
    expect(await place(bo)).toMatch(/reserved for you until/)
    const annTexts = annHeld.map((id) => seeded.textOf.get(id))
    expect(annTexts).not.toContain(await shown(bo))

    const boHeld = await reserved(seeded.bo)
    expect(boHeld).toHaveLength(boTotal)
    expect(boHeld.filter((id) => annHeld.includes(id))).toEqual([])
    // Bo's draw took nothing Ann holds: her reservations are as they were.
    expect(await reserved(seeded.ann)).toEqual(annHeld)
    await context.close()
  })

  it("a sort shows the search's order and says so", async () => {
    await ann.getByText("Sort", { exact: true }).click()
    await ann.getByLabel("Sort by").selectOption("record.inserted_at")
    await ann.getByRole("button", { name: "Add sort" }).click()
    await ann.getByRole("note").filter({ hasText: "Sorted: showing the search's order, not your queue's." }).waitFor()
    await expectShown(ann, poolText(0))
    expect(await ann.getByTestId("queue-place").count()).toBe(0)
    await checkA11y(ann, "sorted pending queue")
    await annContext.close()
  })

  it("blind: no suggestion, and no suggestion filter or sort, before submitting; the suggestion after", async () => {
    const { context, page } = await openAs(seeded.ann, seeded.blindId)
    const texts = Array.from({ length: BLIND_RECORDS }, (_, i) => blindText(i))
    // Argilla's search gives each annotator an order of their own: the test follows the records it is shown.
    const first = await shown(page)
    expect(texts).toContain(first)
    // Nothing assigned and no queue setting but blind: the Pending view is Argilla's search, with no "why here".
    expect(await page.getByTestId("queue-place").count()).toBe(0)
    await page.getByRole("note").filter({ hasText: "Blind: suggestions appear after you submit" }).waitFor()
    expect(await page.locator(".suggestion-line").count()).toBe(0)
    expect(await page.getByText("Suggestions", { exact: true }).count()).toBe(0)
    await page.getByText("Sort", { exact: true }).click()
    const sortables = await page.getByLabel("Sort by").locator("option").allInnerTexts()
    expect(sortables).toContain("Inserted time")
    expect(sortables.filter((o) => o.includes("score"))).toEqual([])
    await photograph(page, "assignment-blind")
    await checkA11y(page, "blind queue")
    await atNarrowWidth(page, "blind queue")

    await page.getByRole("radio", { name: /Positive/ }).click()
    await page.keyboard.press("Enter")
    await expect.poll(() => nav(page)).toContain(`Record 2 of ${BLIND_RECORDS}`)
    const second = await shown(page)
    expect(texts.filter((t) => t !== first)).toContain(second)
    expect(await page.locator(".suggestion-line").count()).toBe(0)

    await page.keyboard.press("ArrowLeft")
    await expectShown(page, first)
    await expect.poll(() => page.locator(".suggestion-line").count()).toBe(1)
    expect(await page.locator(".suggestion-line").innerText()).toContain(`Suggested by ${AGENT}`)
    await checkA11y(page, "blind record after submit")
    await context.close()
  })
})
