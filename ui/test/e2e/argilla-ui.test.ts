/**
 * Argilla's own web UI over Gloss: the static folder of the argilla-server 2.8.0 wheel (fetched by
 * scripts/argilla-ui.sh), served the way argilla-server serves it (argillaUi.ts), in front of a real Gloss, driven
 * in Debian's Chromium by the owner: sign in, annotate the record in focus and submit, label three records in bulk
 * and submit, sort and filter by metadata and search, change the guidelines and the distribution in the settings.
 * After each flow the server's state is read back through the API. Every API call the UI makes is recorded; any
 * 5xx, and any 4xx (the UI makes none when all is well), fails the run.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { type ArgillaSeeded, REVIEWS, seedArgillaDataset } from "./argillaSeed.js"
import { ARGILLA_UI_VERSION, argillaUiDir, type ArgillaUiServer, hasArgillaUi, serveArgillaUi } from "./argillaUi.js"
import { hasChromium, launch } from "./browser.js"
import { clientFor } from "./seed.js"

const missing = !hasChromium
  ? "no Chromium at /usr/bin/chromium (apt-get install chromium, or run scripts/services.sh)"
  : !hasArgillaUi()
  ? `no Argilla UI at ${argillaUiDir()} (run scripts/argilla-ui.sh, or scripts/services.sh)`
  : undefined
if (missing !== undefined) {
  if (process.env["CI"] === "true") throw new Error(`Argilla's web UI test cannot run: ${missing}`)
  console.warn(`argilla ui e2e: skipped, ${missing}`)
}

interface ApiCall {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly body: string | null
}

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
const calls: Array<ApiCall> = []
const pageErrors: Array<string> = []
let ui: ArgillaUiServer
let seeded: ArgillaSeeded
let browser: Browser
let page: Page
let client: Effect.Effect.Success<ReturnType<typeof clientFor>>
let ownerId = ""

/** The UI answers within a second or two; a loaded machine gets more. Each flow is bounded by the 30 s test timeout. */
const POLL = { timeout: 10_000 }

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

/** The seeded review a piece of UI text shows. */
const reviewOf = (text: string) => {
  const review = REVIEWS.find((r) => text.includes(r.text))
  if (review === undefined) throw new Error(`no seeded review in ${JSON.stringify(text)}`)
  return review
}

/** The dataset's records with every response, read back as the owner, by review text. */
const recordsByText = async () => {
  const listed = await run(client.records.list({ path: { id: seeded.datasetId }, urlParams: { include: ["responses"], limit: 100 } }))
  return new Map(listed.items.map((record) => [String(record.fields["text"]), record]))
}

/** The owner's responses to the record showing `text`: status and sentiment. */
const ownerAnswers = async (text: string) => {
  const record = (await recordsByText()).get(text)
  return (record?.responses ?? [])
    .filter((response) => response.user_id === ownerId)
    .map((response) => ({ status: response.status, sentiment: response.values?.["sentiment"]?.value }))
}

const apiPath = (url: string) => {
  const { pathname, search } = new URL(url)
  return pathname.startsWith("/api/") ? pathname + search : undefined
}

/** Resolves with the API response to the first `method` call whose path (without query) matches `path`. */
const nextCall = (method: string, path: RegExp) =>
  page.waitForResponse((r) => r.request().method() === method && path.test(new URL(r.url()).pathname))

/** The record in the focus view (its fields). */
const focused = () => page.locator(".fields").first()
/** The record cards of the bulk view. */
const cards = () => page.getByRole("region", { name: "Bulk Annotation View" }).locator(".record--bulk")
const shownReviews = async () => (await cards().allInnerTexts()).map(reviewOf)

describe.skipIf(missing !== undefined)(`Argilla's web UI (argilla-server ${ARGILLA_UI_VERSION}) over Gloss`, () => {
  beforeAll(async () => {
    const gloss = (await runtime.runPromise(TestServer)).url
    seeded = await run(seedArgillaDataset(gloss, OWNER.apiKey))
    client = await run(clientFor(gloss, OWNER.apiKey).pipe(Effect.provide(FetchHttpClient.layer)))
    ownerId = (await run(client.me.me())).id
    ui = await serveArgillaUi(argillaUiDir(), gloss)
    browser = await launch()
    const context = await browser.newContext({ viewport: { width: 1440, height: 960 } })
    page = await context.newPage()
    page.setDefaultTimeout(15_000)
    page.on("pageerror", (error) => pageErrors.push(error.message))
    page.on("response", (response) => {
      const path = apiPath(response.url())
      if (path !== undefined) {
        calls.push({ method: response.request().method(), path, status: response.status(), body: response.request().postData() })
      }
    })
  })

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
    await runtime.dispose()
  })

  it("is served as argilla-server serves it: SPA fallback, @@baseUrl@@ replaced, /api passed to Gloss", async () => {
    const deep = await fetch(`${ui.url}/dataset/${seeded.datasetId}/annotation-mode`)
    expect(deep.status).toBe(200)
    const html = await deep.text()
    expect(html).toContain('src="/_nuxt/')
    expect(html).not.toContain("@@baseUrl@@")
    const script = /src="(\/_nuxt\/[^"]+\.js)"/.exec(html)?.[1]
    const js = await fetch(`${ui.url}${script}`)
    expect(js.headers.get("content-type")).toContain("javascript")
    expect(await js.text()).not.toContain("@@baseUrl@@")
    expect((await fetch(`${ui.url}/sign-in`)).status).toBe(200)
    expect((await fetch(`${ui.url}/`, { method: "POST" })).status).toBe(405)
    const settings = await fetch(`${ui.url}/api/v1/settings`)
    expect(settings.status).toBe(200)
    expect(settings.headers.get("content-type")).toContain("application/json")
  })

  it("signs in with username and password (POST /api/v1/token, then Bearer) and lists the dataset", async () => {
    const bearer = page.waitForRequest((r) => apiPath(r.url())?.startsWith("/api/v1/me") === true)
    await page.goto(`${ui.url}/`)
    await page.waitForURL(/\/sign-in/)
    await page.getByLabel("Username").fill(OWNER.username)
    await page.getByLabel("Password").fill(OWNER.password)
    const token = nextCall("POST", /^\/api\/v1\/token$/)
    await page.getByRole("button", { name: "Sign in" }).click()
    expect((await token).status()).toBe(201)
    expect((await bearer).headers()["authorization"]).toMatch(/^Bearer \S+$/)
    await expect.poll(() => page.getByText(seeded.datasetName, { exact: true }).isVisible(), POLL).toBe(true)
    await expect.poll(() => page.getByText(seeded.workspaceName, { exact: true }).first().isVisible(), POLL).toBe(true)
  })

  it("annotates the record in focus and submits it: the server holds the owner's submitted answer", async () => {
    await page.getByText(seeded.datasetName, { exact: true }).click()
    await page.getByRole("button", { name: /Submit/ }).waitFor()
    const shown = reviewOf(await focused().innerText())
    await page.getByRole("button", { name: "Positive" }).click()
    const created = nextCall("POST", /^\/api\/v1\/records\/[^/]+\/responses$/)
    await page.getByRole("button", { name: /Submit/ }).click()
    const response = await created
    expect(response.status()).toBe(201)
    expect(await ownerAnswers(shown.text)).toEqual([{ status: "submitted", sentiment: "positive" }])
    // The UI moves on to the next pending record.
    await expect.poll(async () => reviewOf(await focused().innerText()).text, POLL).not.toBe(shown.text)
  })

  it("bulk: labels three selected records and submits them: the server holds three submitted answers", async () => {
    await page.getByRole("button", { name: "Switch to Bulk Mode" }).click()
    await expect.poll(() => cards().count(), POLL).toBe(REVIEWS.length - 1)
    const chosen: Array<string> = []
    for (const i of [0, 1, 2]) {
      const card = cards().nth(i)
      chosen.push(reviewOf(await card.innerText()).text)
      await card.locator('[data-title="Select"] .checkbox__container').click()
    }
    await page.getByRole("button", { name: "Negative" }).click()
    const bulk = nextCall("POST", /^\/api\/v1\/me\/responses\/bulk$/)
    await page.getByRole("button", { name: /Submit/ }).click()
    const response = await bulk
    expect(response.status()).toBe(200)
    const items = ((await response.json()) as { items: ReadonlyArray<{ error: unknown }> }).items
    expect(items.map((item) => item.error ?? null)).toEqual([null, null, null])
    for (const text of chosen) {
      expect(await ownerAnswers(text)).toEqual([{ status: "submitted", sentiment: "negative" }])
    }
    for (const text of chosen) {
      await expect.poll(() => cards().filter({ hasText: text }).innerText(), POLL).toContain("Submitted")
    }
  })

  it("sorts and filters by metadata, then searches: the records shown are those the server says match", async () => {
    const records = await recordsByText()
    const pending = REVIEWS.filter((r) => (records.get(r.text)?.responses ?? []).every((response) => response.user_id !== ownerId))
    const pendingApp = pending.filter((r) => r.source === "app")
    expect(pendingApp.length).toBeGreaterThan(0)
    const texts = (reviews: ReadonlyArray<{ readonly text: string }>) => reviews.map((r) => r.text).sort()

    await page.locator("button", { hasText: "Sort" }).click()
    const sorted = nextCall("POST", /\/records\/search$/)
    await page.locator("li[title=Source]").getByRole("button").click()
    expect((await sorted).request().postDataJSON()).toMatchObject({
      sort: [{ scope: { entity: "metadata", metadata_property: "source" }, order: "asc" }]
    })
    await expect.poll(async () => texts(await shownReviews()), POLL).toEqual(texts(pending))
    const sources = (await shownReviews()).map((r) => r.source)
    expect(sources).toEqual([...sources].sort())

    await page.getByRole("button", { name: "Filters" }).click()
    await page.locator("button", { hasText: "Metadata" }).click()
    await page.getByRole("button", { name: "Source", exact: true }).click()
    const filtered = nextCall("POST", /\/records\/search$/)
    await page.locator(".labels-selector__item", { hasText: "app" }).locator(".checkbox__container").click()
    const search = await filtered
    expect(search.status()).toBe(200)
    expect(search.request().postDataJSON()).toMatchObject({
      filters: { and: expect.arrayContaining([{ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["app"] }]) }
    })
    await expect.poll(async () => texts(await shownReviews()), POLL).toEqual(texts(pendingApp))

    const [target] = pendingApp
    if (target === undefined) throw new Error("no pending app review")
    await page.locator(".search-area__icon").first().click()
    await page.getByPlaceholder("Introduce a query").fill(target.keyword)
    const searched = nextCall("POST", /\/records\/search$/)
    await page.getByPlaceholder("Introduce a query").press("Enter")
    expect((await searched).request().postDataJSON()).toMatchObject({ query: { text: { q: target.keyword } } })
    await expect.poll(async () => texts(await shownReviews()), POLL).toEqual([target.text])
  })

  it("settings: new guidelines and min_submitted 2 land on the server", async () => {
    await page.locator(".button-settings").click()
    await page.waitForURL(/\/dataset\/[^/]+\/settings/)
    // A reload on a deep link: the SPA fallback serves index.html, and the session survives.
    await page.reload()
    await page.getByText("Dataset settings").waitFor()

    const guidelines = page.locator("#contentId")
    await guidelines.fill("Pick the review's sentiment; discard spam.")
    const patched = nextCall("PATCH", /^\/api\/v1\/datasets\/[^/]+$/)
    await page.locator("form", { has: guidelines }).getByRole("button", { name: "Update" }).click()
    expect((await patched).status()).toBe(200)
    expect((await run(client.datasets.get({ path: { id: seeded.datasetId } }))).guidelines)
      .toBe("Pick the review's sentiment; discard spam.")

    // The UI sends the number input's value as it is: the string "2" (Argilla's pydantic accepts it).
    const minimum = page.locator("#task-distribution")
    await minimum.fill("2")
    const distribution = nextCall("PATCH", /^\/api\/v1\/datasets\/[^/]+$/)
    await page.locator("form", { has: minimum }).getByRole("button", { name: "Update" }).click()
    const sent = await distribution
    expect(sent.request().postDataJSON()).toEqual({ distribution: { strategy: "overlap", min_submitted: "2" } })
    expect(sent.status()).toBe(200)
    expect((await run(client.datasets.get({ path: { id: seeded.datasetId } }))).distribution)
      .toEqual({ strategy: "overlap", min_submitted: 2 })
  })

  it("no API call the UI made failed (no 5xx, no 4xx) and the page threw nothing", () => {
    const failed = calls.filter((call) => call.status >= 400)
      .map((call) => `${call.status} ${call.method} ${call.path}${call.body === null ? "" : ` ${call.body}`}`)
    console.log(`argilla ui e2e: ${calls.length} API calls, ${failed.length} failed${failed.length > 0 ? `:\n  ${failed.join("\n  ")}` : ""}`)
    expect(calls.length).toBeGreaterThan(20)
    expect(failed).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
