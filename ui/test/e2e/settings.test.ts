/**
 * Dataset settings, creation and import end to end, in headless Chromium over a real Gloss: an owner edits the
 * guidelines (previewed), a label's wording and order and `min_submitted`, and the server then holds them; an
 * annotator opening the same page is told only owners and admins can; the owner creates a dataset from the UI and
 * publishes it, imports a 1 000-row CSV with progress (the server then holds 1 000 records), and deletes it after
 * typing its name; a creation step the server refuses is shown on its item, and the draft it left is finished from
 * the same form. Axe on every screen; at 400 px wide nothing scrolls sideways.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Api } from "../../../src/contract/Api.js"
import { DatasetId } from "../../../src/domain/Ids.js"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { buildUi, hasChromium, launch, photograph, signIn } from "./browser.js"
import { checkA11y, sidewaysOverflow } from "./checks.js"
import { seedSettings } from "./settingsSeed.js"

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let browser: Browser
let seeded: Effect.Effect.Success<ReturnType<typeof seedSettings>>

const owner = () =>
  Effect.runPromise(
    HttpApiClient.make(Api, {
      baseUrl: url,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("X-Gloss-Api-Key", OWNER.apiKey))
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )


/** At 400 px wide the page does not scroll sideways. */
const checkNarrow = async (page: Page, screen: string) => {
  const size = page.viewportSize()
  await page.setViewportSize({ width: 400, height: 800 })
  const overflow = await sidewaysOverflow(page)
  expect(`${screen}: ${overflow}px too wide`).toBe(`${screen}: 0px too wide`)
  if (size !== null) await page.setViewportSize(size)
}

const signedIn = async (username: string, password: string) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("pageerror", (e) => errors.push(e.message))
  await page.goto(`${url}/sign-in`)
  await signIn(page, username, password)
  await page.locator("table.datasets").waitFor()
  return { page, context, errors }
}

describe.skipIf(!hasChromium)("dataset settings, creation and import, end to end", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedSettings(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("an owner edits guidelines (previewed), a label's wording and order and min_submitted; the server holds them", async () => {
    const { page, context, errors } = await signedIn(OWNER.username, OWNER.password)
    await checkA11y(page, "home (owner)")
    await page.getByRole("link", { name: `Settings of ${seeded.datasetName}` }).click()
    await page.locator(".settings-body").waitFor()
    await checkA11y(page, "settings: general")
    await checkNarrow(page, "settings: general")

    await page.getByLabel("Guidelines (markdown)").fill("# Be careful\n\nRead every review **twice**.")
    await page.getByRole("button", { name: "Preview" }).click()
    await expect.poll(() => page.getByRole("region", { name: "Guidelines preview" }).getByRole("heading").innerText()).toBe("Be careful")
    await checkA11y(page, "settings: guidelines preview")
    await page.getByLabel(/min_submitted/).fill("2")
    await page.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => page.getByRole("status").innerText()).toBe("Saved")

    await page.getByRole("link", { name: "Questions" }).click()
    await page.getByLabel("Text of option positive").fill("Good")
    // Neutral to the top, by keyboard: the focus follows the moved option.
    await page.getByRole("button", { name: "Move NEUTRAL up" }).focus()
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    await checkA11y(page, "settings: questions")
    await photograph(page, "settings-questions")
    await checkNarrow(page, "settings: questions")
    await page.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => page.getByRole("status").innerText()).toBe("Saved")

    for (const tab of ["Fields", "Metadata", "Vectors", "Danger zone"]) {
      await page.getByRole("link", { name: tab, exact: true }).click()
      await page.getByRole("heading", { level: 2, name: tab }).waitFor()
      await checkA11y(page, `settings: ${tab}`)
    }

    const client = await owner()
    const dataset = await Effect.runPromise(client.datasets.get({ path: { id: seeded.datasetId } }))
    expect(dataset.guidelines).toBe("# Be careful\n\nRead every review **twice**.")
    expect(dataset.distribution.min_submitted).toBe(2)
    const questions = await Effect.runPromise(client.questions.list({ path: { id: seeded.datasetId } }))
    const sentiment = questions.items.find((q) => q.id === seeded.questionId)
    expect(sentiment?.settings.type === "label_selection" ? sentiment.settings.options.map((o) => `${o.value}:${o.text}`) : []).toEqual([
      "neutral:NEUTRAL",
      "positive:Good",
      "negative:NEGATIVE"
    ])
    expect(errors).toEqual([])
    await context.close()
  })

  it("an annotator sees no Settings link and, at the settings URL, that only owners and admins can change settings", async () => {
    const { page, context } = await signedIn(seeded.annotator.username, seeded.annotator.password)
    expect(await page.getByRole("link", { name: /^Settings of/ }).count()).toBe(0)
    expect(await page.getByRole("link", { name: "New dataset" }).count()).toBe(0)
    await page.goto(`${url}/dataset/${seeded.datasetId}/settings`)
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("Only owners and admins can change a dataset's settings")
    expect(await page.locator("form").count()).toBe(0)
    await checkA11y(page, "settings (annotator)")
    await context.close()
  })

  it("an owner creates and publishes a dataset, imports a 1 000-row CSV with progress, then deletes it by typing its name", async () => {
    const { page, context, errors } = await signedIn(OWNER.username, OWNER.password)
    const name = `created-${Date.now().toString(36)}`
    await page.getByRole("link", { name: "New dataset" }).click()
    await page.getByLabel("Name", { exact: true }).first().fill(name)
    await page.getByLabel("Guidelines (markdown)").fill("Label each review.")
    await page.getByRole("button", { name: "Add a metadata property" }).click()
    const metadata = page.getByRole("group", { name: "metadata property 1" })
    await metadata.getByLabel("Name").fill("stars")
    await metadata.getByLabel("Title").fill("Stars")
    await metadata.getByLabel("Type").selectOption("integer")
    await page.getByRole("button", { name: "Add a vector" }).click()
    const vector = page.getByRole("group", { name: "vector 1" })
    await vector.getByLabel("Name").fill("embedding")
    await vector.getByLabel("Title").fill("Embedding")
    await vector.getByLabel("Dimensions").fill("3")
    await checkA11y(page, "new dataset")
    await photograph(page, "new-dataset")
    await checkNarrow(page, "new dataset")
    await page.getByRole("button", { name: "Create and publish" }).click()
    await page.waitForURL(/\/dataset\/[^/]+\/settings$/)
    const id = DatasetId.make(/\/dataset\/([^/]+)\/settings/.exec(page.url())?.[1] ?? "")

    const client = await owner()
    const created = await Effect.runPromise(client.datasets.get({ path: { id } }))
    expect([created.name, created.status, created.guidelines]).toEqual([name, "ready", "Label each review."])
    const fields = await Effect.runPromise(client.fields.list({ path: { id } }))
    const questions = await Effect.runPromise(client.questions.list({ path: { id } }))
    const vectors = await Effect.runPromise(client.vectorSettings.list({ path: { id } }))
    expect(fields.items.map((f) => f.name)).toEqual(["text"])
    expect(questions.items.map((q) => q.name)).toEqual(["label"])
    expect(vectors.items.map((v) => `${v.name}:${v.dimensions}`)).toEqual(["embedding:3"])

    // Import a 1 000-row CSV (quoted commas and line breaks included).
    const dir = mkdtempSync(path.join(tmpdir(), "gloss-import-"))
    const file = path.join(dir, "reviews.csv")
    const rows = Array.from({ length: 1000 }, (_, i) => `"Review ${i}, line one\nline two",${i % 5},review-${i}`)
    writeFileSync(file, `text,stars,external_id\n${rows.join("\n")}\n`)
    await page.getByRole("link", { name: "Import records" }).click()
    await page.getByLabel(/CSV \(with a header row\)/).setInputFiles(file)
    await expect.poll(() => page.getByLabel("stars", { exact: true }).inputValue()).toBe("metadata:stars")
    await checkA11y(page, "import: mapping")
    await photograph(page, "import")
    await checkNarrow(page, "import: mapping")
    await page.getByRole("button", { name: "Import records" }).click()
    await page.getByRole("progressbar", { name: "Import progress" }).waitFor()
    await expect.poll(() => page.getByRole("status").innerText(), { timeout: 60_000 }).toContain("Finished.")
    expect(await page.getByRole("status").innerText()).toContain("1000 rows read (100% of the file): 1000 imported, 0 rejected.")
    await checkA11y(page, "import: report")
    const records = await Effect.runPromise(client.records.list({ path: { id }, urlParams: { limit: 2 } }))
    expect(records.total).toBe(1000)
    const one = records.items[0]
    expect(String(one?.fields["text"])).toMatch(/^Review \d+, line one\nline two$/)
    expect(typeof one?.metadata?.["stars"]).toBe("number")

    // Delete it, after typing its name.
    await page.goto(`${url}/dataset/${id}/settings?tab=danger`)
    await page.getByRole("button", { name: "Delete dataset" }).click()
    const confirm = page.getByRole("button", { name: "Delete this dataset" })
    expect(await confirm.isDisabled()).toBe(true)
    await page.getByLabel(/Type the dataset's name/).fill(name)
    await checkA11y(page, "delete dialog")
    await confirm.click()
    await page.waitForURL((u) => u.pathname === "/")
    const gone = await Effect.runPromise(Effect.either(client.datasets.get({ path: { id } })))
    expect(gone._tag === "Left" ? gone.left._tag : "still there").toBe("NotFound")
    expect(errors).toEqual([])
    await context.close()
  })

  it("a draft dataset is published from its settings page; until then its import page says so", async () => {
    const client = await owner()
    const draft = await Effect.runPromise(client.datasets.create({ payload: { name: `unpublished-${Date.now().toString(36)}`, workspace_id: seeded.workspaceId } }))
    const { page, context, errors } = await signedIn(OWNER.username, OWNER.password)
    await page.goto(`${url}/dataset/${draft.id}/import`)
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("Records can be added once the dataset is published")
    await page.getByRole("link", { name: "settings", exact: true }).click()
    // Nothing to publish yet: the server's reason is shown.
    await page.getByRole("button", { name: "Publish" }).click()
    await expect.poll(() => page.getByRole("alert").innerText()).not.toBe("")
    await checkA11y(page, "settings: draft")
    await Effect.runPromise(client.fields.create({ path: { id: draft.id }, payload: { name: "text", title: "Text", settings: { type: "text" } } }))
    await Effect.runPromise(client.questions.create({
      path: { id: draft.id },
      payload: { name: "ok", title: "OK?", required: true, settings: { type: "label_selection", options: [{ value: "y", text: "Yes" }, { value: "n", text: "No" }] } }
    }))
    await page.getByRole("button", { name: "Publish" }).click()
    await expect.poll(() => page.getByRole("button", { name: "Publish" }).count()).toBe(0)
    expect((await Effect.runPromise(client.datasets.get({ path: { id: draft.id } }))).status).toBe("ready")
    expect(errors).toEqual([])
    await context.close()
  })

  it("a step the server refuses is shown on its item; the draft left behind is finished from the same form", async () => {
    const { page, context, errors } = await signedIn(OWNER.username, OWNER.password)
    const name = `draft-${Date.now().toString(36)}`
    await page.goto(`${url}/new-dataset`)
    await page.getByLabel("Name", { exact: true }).first().fill(name)
    // More options than the server allows (GLOSS_LABEL_SELECTION_OPTIONS_MAX_ITEMS, 500): only the server knows.
    const question = page.getByRole("group", { name: "question 1" })
    await question.getByLabel("Options").fill(Array.from({ length: 501 }, (_, i) => `label ${i}`).join("\n"))
    await page.getByRole("button", { name: "Create and publish" }).click()
    await expect.poll(() => question.locator(".error").innerText()).toContain("at most 500 options are allowed")
    await expect.poll(() => page.getByRole("status").innerText()).toContain(`The dataset “${name}” exists as a draft`)
    expect(await page.getByRole("group", { name: "field 1 (created)" }).getByLabel("Name").isDisabled()).toBe(true)
    await checkA11y(page, "new dataset: a failed step")

    await question.getByLabel("Options").fill("yes\nno")
    await page.getByRole("button", { name: "Continue: create the rest and publish" }).click()
    await page.waitForURL(/\/dataset\/[^/]+\/settings$/)
    const id = DatasetId.make(/\/dataset\/([^/]+)\/settings/.exec(page.url())?.[1] ?? "")
    const client = await owner()
    expect((await Effect.runPromise(client.datasets.get({ path: { id } }))).status).toBe("ready")
    const fields = await Effect.runPromise(client.fields.list({ path: { id } }))
    const questions = await Effect.runPromise(client.questions.list({ path: { id } }))
    expect(fields.items.map((f) => f.name)).toEqual(["text"])
    expect(questions.items.map((q) => (q.settings.type === "label_selection" ? q.settings.options.map((o) => o.value) : []))).toEqual([["yes", "no"]])
    expect(errors).toEqual([])
    await context.close()
  })
})
