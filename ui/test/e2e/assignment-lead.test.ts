/**
 * The lead's assignments page end to end, in headless Chromium over a real Gloss (assignment-leadSeed.ts: ten
 * records in batches "a" and "b", annotators ann, ben and cat). The owner follows "Assign…" from the annotation view
 * filtered on batch "a", sets blind mode, a shuffled order and quotas, assigns the filtered records to ann and ben
 * one annotator per record, moves ann's unfinished records to cat and removes ben's; after each step the table
 * shows what the server's summary says (read from the API in the test, never written here). An annotator gets no
 * page, no tab and no link. Records picked in the bulk view reach the page as ids ("Assign selected…"). The screens are checked at 1280 and 400 px (teamChecks.ts: axe, no sideways scroll).
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AssigneeSummary } from "../../../src/domain/Assignment.js"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { LEAD_ROWS, type LeadSeeded, seedAssignmentLead } from "./assignment-leadSeed.js"
import { buildUi, hasChromium, launch, photograph, signIn } from "./browser.js"
import { clientFor } from "./seed.js"
import { checkScreen } from "./teamChecks.js"

if (!hasChromium) console.warn("ui e2e (assignment lead): skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)")

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: LeadSeeded
let browser: Browser

const api = (key: string) => Effect.runPromise(clientFor(url, key).pipe(Effect.provide(FetchHttpClient.layer)))
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

const summary = async () => {
  const owner = await api(OWNER.apiKey)
  return run(owner.assignment.summary({ path: { id: seeded.datasetId } }))
}

const userIn = (users: ReadonlyArray<AssigneeSummary>, username: string): AssigneeSummary => {
  const found = users.find((u) => u.username === username)
  if (found === undefined) throw new Error(`the summary has no ${username}`)
  return found
}

const signedIn = async (path: string, username: string, password: string) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" })
  const page = await context.newPage()
  await page.goto(`${url}${path}`)
  await page.waitForURL(/\/sign-in\?redirect=/)
  await signIn(page, username, password)
  await page.waitForURL((u) => !u.pathname.endsWith("/sign-in"))
  return page
}

/** Each row of a table as its cells' texts, keyed by the row header. */
const rowsOf = (table: Locator) =>
  table.locator("tbody tr").evaluateAll((rows) =>
    Object.fromEntries(rows.map((row) => [
      row.querySelector("th")?.textContent ?? "",
      Array.from(row.querySelectorAll("td")).map((td) => (td.textContent ?? "").replace(/\s+/g, " ").trim())
    ]))
  )

/** The table's counts against the server's summary: the differences, one line each (none when they agree). */
const tableDifferences = async (page: Page): Promise<Array<string>> => {
  const [shown, expected] = await Promise.all([rowsOf(page.locator("table.assignment-table")), summary()])
  const differences: Array<string> = []
  if (Object.keys(shown).length !== expected.users.length) differences.push(`${Object.keys(shown).length} rows`)
  for (const user of expected.users) {
    const want = [user.assigned, user.assigned_done, user.done, user.leased, user.pending].map(String)
    const got = (shown[user.username] ?? []).slice(0, 5)
    if (want.join(" ") !== got.join(" ")) differences.push(`${user.username}: ${got.join(" ")} ≠ ${want.join(" ")}`)
  }
  return differences
}

const expectTableAsServer = (page: Page) =>
  expect.poll(() => tableDifferences(page), { timeout: 30_000, interval: 500 }).toEqual([])

describe.skipIf(!hasChromium)("the lead's assignments page, end to end", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedAssignmentLead(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("the owner sets the queue, assigns the filtered records to two annotators, moves and removes them", async () => {
    const [ann, ben, cat] = seeded.annotators
    const owner = await api(OWNER.apiKey)
    const id = seeded.datasetId
    const batchA = JSON.stringify({ batch: { kind: "terms", values: ["a"] } })
    const inA = LEAD_ROWS.filter((row) => row.batch === "a").length

    // From the annotation view, filtered on batch "a": its Assign… link carries the filter.
    const page = await signedIn(`/dataset/${id}/annotation-mode?_metadata=${encodeURIComponent(batchA)}`, OWNER.username, OWNER.password)
    await page.getByRole("link", { name: "Assign…" }).click()
    await page.waitForURL(/\/assignments\?/)
    expect(new URL(page.url()).searchParams.get("_metadata")).toBe(batchA)
    await page.locator("table.assignment-table").waitFor()
    const tabs = page.getByRole("navigation", { name: "Team pages" })
    expect(await tabs.getByRole("link").allInnerTexts()).toEqual(["Progress by annotator", "Agreement"])
    expect(await tabs.locator("[aria-current=page]").innerText()).toBe("Assignments")
    await expectTableAsServer(page)

    // Queue settings: a bad reservation time is refused inline, then blind, shuffled and a default quota are saved.
    const settings = page.getByRole("form", { name: "Queue settings" })
    expect(await settings.innerText()).toContain("Answers per record from the pool: 1.")
    await settings.getByLabel("Reservation (minutes)").fill("0")
    await settings.getByRole("button", { name: "Save the queue settings" }).click()
    await expect.poll(() => settings.innerText()).toContain("A whole number of minutes from 1")
    expect(await settings.getByLabel("Reservation (minutes)").getAttribute("aria-invalid")).toBe("true")
    await settings.getByLabel("Reservation (minutes)").fill("45")
    await settings.getByLabel("Shuffled, differently for each annotator").check()
    await settings.getByLabel(/^Blind/).check()
    await settings.getByLabel("Default quota").fill("3")
    await settings.getByRole("button", { name: "Save the queue settings" }).click()
    await expect.poll(() => settings.getByRole("status").innerText()).toBe("Saved.")
    expect(await run(owner.assignment.settings({ path: { id } }))).toEqual({
      assigned: "first",
      order: "shuffled",
      lease_minutes: 45,
      blind: true,
      quota: 3,
      min_submitted: 1,
      in_use: true
    })

    // ann's own quota, set in her row.
    await page.getByLabel(`Quota for ${ann.username}`, { exact: true }).fill("5")
    await page.getByRole("button", { name: `Set the quota for ${ann.username}` }).click()
    await expect.poll(async () => userIn((await summary()).users, ann.username).quota).toBe(5)
    expect(userIn((await summary()).users, ben.username).quota).toBe(3)
    await expectTableAsServer(page)

    // The filtered records to ann and ben, one of them per record.
    const assign = page.getByRole("form", { name: "Assign records" })
    const filtered = assign.getByRole("radio", { name: /Records matching the annotation view’s filters/ })
    expect(await filtered.isChecked()).toBe(true)
    await expect.poll(() => assign.locator("label[for=assign-records-filtered]").innerText()).toContain(`(${inA})`)
    const to = assign.getByRole("group", { name: "Assign to" })
    await to.getByLabel(ann.username, { exact: true }).check()
    await to.getByLabel(ben.username, { exact: true }).check()
    await assign.getByLabel("Annotators per record").fill("1")
    await assign.getByRole("button", { name: "Assign", exact: true }).click()
    await expect.poll(() => assign.getByRole("status").innerText()).toBe(`${inA} records, ${inA} assignments.`)
    const afterAssign = await summary()
    expect(afterAssign.assigned_records).toBe(inA)
    const [annAssigned, benAssigned] = [userIn(afterAssign.users, ann.username), userIn(afterAssign.users, ben.username)]
    expect(annAssigned.assigned + benAssigned.assigned).toBe(inA)
    expect(Math.abs(annAssigned.assigned - benAssigned.assigned)).toBeLessThanOrEqual(1)
    expect(userIn(afterAssign.users, cat.username).assigned).toBe(0)
    // Every record assigned is of batch "a": ann's queue says which are hers.
    const annApi = await api(ann.apiKey)
    const annQueue = await run(annApi.assignment.queue({ path: { id }, urlParams: { limit: 50 }, payload: { reserve: false } }))
    const annRecords = annQueue.items.filter((item) => item.reason === "assigned")
    expect(annRecords.length).toBe(annAssigned.assigned - annAssigned.assigned_done)
    expect(annRecords.every((item) => item.record.metadata?.["batch"] === "a")).toBe(true)
    await expectTableAsServer(page)
    await checkScreen(page, "assignments")
    await photograph(page, "assignments", { fullPage: true })

    // A priority for the same records, without assigning them again: only those records rank higher.
    await assign.getByLabel("Priority (optional)").fill("7")
    await assign.getByRole("button", { name: "Set priority only" }).click()
    await expect.poll(() => assign.getByRole("status").innerText()).toBe(`Priority 7 on ${inA} records.`)
    expect((await summary()).assigned_records).toBe(inA)
    const ranked = await run(annApi.assignment.queue({ path: { id }, urlParams: { limit: 50 }, payload: { reserve: false } }))
    expect(ranked.items.filter((item) => item.reason === "assigned").map((item) => item.priority))
      .toEqual(annRecords.map(() => 7))
    const pool = ranked.items.filter((item) => item.reason === "pool")
    expect(pool.length).toBeGreaterThan(0)
    expect(pool.every((item) => item.priority === 0 && item.record.metadata?.["batch"] === "b")).toBe(true)

    // ann's unfinished records to cat.
    const move = page.getByRole("form", { name: "Move unfinished assignments" })
    await move.getByLabel("From").selectOption(ann.id)
    await move.getByRole("group", { name: "To" }).getByLabel(cat.username, { exact: true }).check()
    await move.getByRole("button", { name: "Move" }).click()
    const unfinished = annAssigned.assigned - annAssigned.assigned_done
    const records = (n: number) => `${n} record${n === 1 ? "" : "s"}`
    await expect.poll(() => move.getByRole("status").innerText())
      .toBe(`${records(unfinished)} moved from ${ann.username}, ${unfinished} assignment${unfinished === 1 ? "" : "s"} made.`)
    const afterMove = await summary()
    expect(userIn(afterMove.users, ann.username).assigned).toBe(annAssigned.assigned_done)
    expect(userIn(afterMove.users, cat.username).assigned).toBe(unfinished)
    await expectTableAsServer(page)

    // All of ben's go.
    const remove = page.getByRole("form", { name: "Remove assignments" })
    await remove.getByLabel("Whose assignments").selectOption(ben.id)
    await remove.getByRole("button", { name: "Remove" }).click()
    await expect.poll(() => remove.getByRole("status").innerText())
      .toBe(`${benAssigned.assigned} assignment${benAssigned.assigned === 1 ? "" : "s"} removed from ${ben.username}.`)
    const afterRemove = await summary()
    expect(userIn(afterRemove.users, ben.username).assigned).toBe(0)
    expect(afterRemove.assigned_records).toBe(inA - benAssigned.assigned)
    await expectTableAsServer(page)
    await checkScreen(page, "assignments after changes")

    // Team progress shows the assigned records beside the answers (ann has answered, so she is listed).
    await tabs.getByRole("link", { name: "Progress by annotator" }).click()
    await page.locator("table.team-table").waitFor()
    expect(await page.locator("table.team-table thead").innerText()).toContain("Assigned")
    const annNow = userIn(afterRemove.users, ann.username)
    const annCell = page.locator("table.team-table tbody tr", { has: page.getByRole("rowheader", { name: ann.username }) })
      .locator("td").nth(3)
    expect(await annCell.locator(".team-count").innerText()).toBe(String(annNow.assigned))
    expect(await annCell.locator(".team-split").innerText())
      .toBe(`${annNow.assigned_done} done · ${annNow.assigned - annNow.assigned_done} to do`)
    await page.context().close()
  }, 240_000)

  it("records picked in the bulk view go to the assignments page as ids, and are assigned from there", async () => {
    const [, , cat] = seeded.annotators
    const id = seeded.datasetId
    const page = await signedIn(`/dataset/${id}/annotation-mode?view=bulk`, OWNER.username, OWNER.password)
    await page.locator(".bulk-card").first().waitFor()
    const picked: Array<string | null> = []
    for (const n of [1, 2]) {
      await page.getByRole("checkbox", { name: `Select record ${n}`, exact: true }).check()
      picked.push(await page.locator(".bulk-card").nth(n - 1).getAttribute("data-record-id"))
    }
    await page.getByRole("link", { name: "Assign selected…" }).click()
    await page.waitForURL(/\/assignments\?ids=/)
    const assign = page.getByRole("form", { name: "Assign records" })
    expect(await assign.getByRole("radio", { name: /These records/ }).isChecked()).toBe(true)
    expect((await assign.getByLabel("Record ids, one per line").inputValue()).split("\n")).toEqual(picked)
    await assign.getByRole("group", { name: "Assign to" }).getByLabel(cat.username, { exact: true }).check()
    await assign.getByRole("button", { name: "Assign", exact: true }).click()
    await expect.poll(() => assign.getByRole("status").innerText()).toMatch(/^2 records, [0-2] assignments?\.$/)
    const catQueue = await run((await api(cat.apiKey)).assignment.queue({ path: { id }, urlParams: { limit: 50 }, payload: { reserve: false } }))
    const assignedToCat = catQueue.items.filter((item) => item.reason === "assigned").map((item) => item.record.id)
    expect(picked.every((recordId) => recordId !== null && assignedToCat.includes(recordId as never))).toBe(true)

    // Everybody's assignments go only once the lead confirms.
    const held = (await summary()).assigned_records
    const remove = page.getByRole("form", { name: "Remove assignments" })
    await remove.getByLabel("Whose assignments").selectOption({ label: "Everybody’s" })
    await remove.getByRole("button", { name: "Remove" }).click()
    await remove.getByRole("button", { name: /^Yes, remove all/ }).waitFor()
    await remove.getByRole("button", { name: "Cancel" }).click()
    expect((await summary()).assigned_records).toBe(held)
    await remove.getByRole("button", { name: "Remove" }).click()
    await remove.getByRole("button", { name: /^Yes, remove all/ }).click()
    await expect.poll(async () => (await summary()).assigned_records).toBe(0)
    await page.context().close()
  }, 120_000)

  it("an annotator gets no assignments page, tab or link, and the server refuses them", async () => {
    const [ann] = seeded.annotators
    const id = seeded.datasetId
    const page = await signedIn(`/dataset/${id}/assignments`, ann.username, ann.password)
    await expect.poll(() => page.getByRole("alert").innerText()).toBe("Only owners and admins can assign records.")
    expect(await page.locator("table, form").count()).toBe(0)
    expect(await page.getByRole("navigation", { name: "Team pages" }).count()).toBe(0)
    await checkScreen(page, "assignments refused")
    const annApi = await api(ann.apiKey)
    const refused = await Effect.runPromise(Effect.either(annApi.assignment.summary({ path: { id } })))
    expect(refused._tag === "Left" ? refused.left._tag : "Right").toBe("Forbidden")

    // The annotation view offers neither the Assign… link nor the progress panel's Assignments link.
    await page.goto(`${url}/dataset/${id}/annotation-mode`)
    await page.locator("[data-testid=my-progress]").waitFor()
    expect(await page.getByRole("link", { name: "Assign…" }).count()).toBe(0)
    expect(await page.getByRole("link", { name: "Assignments" }).count()).toBe(0)
    await page.context().close()
  }, 120_000)
})
