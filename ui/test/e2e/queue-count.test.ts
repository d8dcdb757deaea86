/**
 * The Pending tab counts the records of the caller's Pending queue, the queue the annotation view walks: with task
 * distribution, records that others completed are out of it even though the caller never answered them. The tab,
 * "Record n of N" and the server's search agree before a submit, and after it the count goes down by one.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { searchBody } from "../../src/data/search.js"
import { buildUi, hasChromium, launch, signIn } from "./browser.js"
import { COMPLETED_BY_OTHERS, MINE, type QueueCountSeeded, RECORDS, seedQueueCount } from "./queueCountSeed.js"
import { clientFor } from "./seed.js"

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: QueueCountSeeded
let browser: Browser

/** The caller's Pending queue as the server counts it: the total of the queue's own search. */
const serverQueue = () =>
  Effect.runPromise(
    Effect.gen(function*() {
      const client = yield* clientFor(url, seeded.me.apiKey)
      const page = yield* client.search.mine({
        path: { id: seeded.datasetId },
        urlParams: { limit: 1 },
        payload: searchBody({ queue: "pending", text: "", metadata: {} })
      })
      return page.total
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

const tabCount = async (page: Page) => {
  const count = page.getByRole("group", { name: "Queue" }).getByRole("button", { name: /^Pending/ }).locator(".count")
  await count.waitFor()
  return Number(await count.innerText())
}

const nav = (page: Page) => page.locator(".record-nav .muted").innerText()

describe.skipIf(!hasChromium)("web UI: the Pending tab counts the Pending queue", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedQueueCount(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("with min_submitted 2, records completed by others and records I answered are in neither number", async () => {
    // 8 records, 2 completed by the other two, 2 answered by me: 4 wait for me (one of them half done by another).
    const expected = RECORDS - COMPLETED_BY_OTHERS.length - Object.keys(MINE).length
    expect(await serverQueue()).toBe(expected)

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${url}/sign-in`)
    await signIn(page, seeded.me.username, seeded.me.password)
    await page.locator("table.datasets").waitFor()
    const annotation = `${url}/dataset/${seeded.datasetId}/annotation-mode`
    await page.goto(annotation)
    await page.locator(".record-card").waitFor()
    await expect.poll(() => nav(page)).toContain(`Record 1 of ${expected}`)
    await expect.poll(() => tabCount(page)).toBe(expected)
    // My progress says the same, and counts apart the records others completed: by a search of its own, which may
    // answer after the queue's (a full run's load showed the panel without it yet), so it is waited for too.
    const progress = page.getByTestId("my-progress")
    await expect.poll(() => progress.innerText()).toContain(`Pending ${expected}`)
    await expect.poll(() => progress.innerText()).toContain(`Completed by others ${COMPLETED_BY_OTHERS.length}`)

    // Submit the first record: the tab counts one fewer, as the server's queue does; the view moves on to record 2
    // of the queue it loaded (the answered record stays behind it, for "previous").
    await page.getByRole("radio", { name: /Positive/ }).click()
    await page.keyboard.press("Enter")
    await expect.poll(() => nav(page)).toContain(`Record 2 of ${expected}`)
    expect(await serverQueue()).toBe(expected - 1)
    await expect.poll(() => tabCount(page)).toBe(expected - 1)

    // Opened again from the start, the queue and the tab give the same number.
    await page.goto(annotation)
    await page.locator(".record-card").waitFor()
    await expect.poll(() => nav(page)).toContain(`Record 1 of ${expected - 1}`)
    await expect.poll(() => tabCount(page)).toBe(expected - 1)
    await context.close()
  })
})
