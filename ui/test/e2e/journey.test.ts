/**
 * The web UI end to end, in headless Chromium over a real Gloss: an owner seeds a dataset with suggestions
 * through the API; an annotator signs in and answers three records with the keyboard only (one with a span);
 * the server then holds exactly those responses and the progress reads 3 of N; a second annotator gets another
 * pending order, and saves a draft, discards, and submits the draft (POST, then PUT). Every screen is checked by
 * axe and photographed into docs/screenshots.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Api } from "../../../src/contract/Api.js"
import { CLIENT_ID, CLIENT_SECRET, startFakeProvider } from "../../../test/oauth/fakeProvider.js"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { buildUi, firstScreenJs, hasChromium, launch, nextRecordMillis, photograph, signIn } from "./browser.js"
import { checkA11y } from "./checks.js"
import { KEYWORDS, seed, type Seeded, TEXTS } from "./seed.js"

if (!hasChromium) console.warn("ui e2e: skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)")

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: Seeded
let browser: Browser

const owner = () =>
  Effect.runPromise(
    HttpApiClient.make(Api, {
      baseUrl: url,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("X-Gloss-Api-Key", OWNER.apiKey))
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )


const shoot = (page: Page, name: string) => photograph(page, name)

const cardText = (page: Page) => page.locator(".record-card .span-text").innerText()

/** Keyboard only: Tab until the link named `name` has focus, then Enter. */
const tabTo = async (page: Page, name: string) => {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab")
    if ((await page.evaluate(() => document.activeElement?.textContent ?? "")) === name) return
  }
  throw new Error(`no focusable element named ${name}`)
}

const openDataset = async (page: Page) => {
  await page.locator("table.datasets").waitFor()
  await tabTo(page, seeded.datasetName)
  await page.keyboard.press("Enter")
  await page.locator(".record-card").waitFor()
}

/** Which seeded text a record shows. */
const indexOfText = (text: string) => TEXTS.indexOf(text.trim())

describe.skipIf(!hasChromium)("web UI, end to end", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seed(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("serves the built UI: history fallback, caching, CSP; /api stays JSON", async () => {
    const index = await fetch(`${url}/dataset/x/annotation-mode`, { headers: { accept: "text/html" } })
    expect(index.status).toBe(200)
    expect(index.headers.get("cache-control")).toBe("no-cache")
    expect(index.headers.get("content-security-policy")).toContain("default-src 'self'")
    const html = await index.text()
    expect(html).toContain('<base href="/">')
    const asset = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1]
    const js = await fetch(`${url}/${asset}`, { headers: { "accept-encoding": "gzip" } })
    expect(js.headers.get("cache-control")).toContain("immutable")
    expect(js.headers.get("content-type")).toContain("javascript")
    const api = await fetch(`${url}/api/v1/nothing-here`, { headers: { accept: "text/html" } })
    expect(api.status).toBe(404)
    expect(await api.json()).toEqual({ detail: "Not Found" })
    expect((await fetch(`${url}/assets/missing.js`)).status).toBe(404)
    expect((await fetch(`${url}/sandbox.html`)).headers.get("content-security-policy")).toContain("'unsafe-eval'")
  })

  it("ships under 250 kB of gzipped JavaScript for the first screen", () => {
    const { bytes, files } = firstScreenJs()
    console.log(`first-screen JS: ${(bytes / 1024).toFixed(1)} kB gzipped (${files.join(", ")})`)
    expect(bytes).toBeLessThan(250 * 1024)
  })

  it("an annotator answers three records with the keyboard only; the server holds exactly those", async () => {
    const [alice, bob] = seeded.annotators
    if (alice === undefined || bob === undefined) throw new Error("seed made no annotators")
    const context = await browser.newContext({ viewport: { width: 1440, height: 960 }, colorScheme: "light" })
    const page = await context.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (e) => errors.push(e.message))
    // The CSP must not block anything the app itself does (Chromium reports it on the console).
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/.test(m.text())) errors.push(m.text())
    })

    // Sign-in, then back to where the user was going.
    await page.goto(`${url}/user-settings`)
    await page.waitForURL(/\/sign-in\?redirect=%2Fuser-settings/)
    await checkA11y(page, "sign-in")
    await shoot(page, "sign-in")
    await signIn(page, alice.username, "wrong-password")
    await expect.poll(() => page.locator("[role=alert]").innerText()).toContain("Wrong username or password")
    // How a new server gets its first account, one click away.
    await page.getByText("No account yet?").click()
    expect(await page.locator(".first-time").innerText()).toContain("USERNAME=admin PASSWORD=change-me-please npm start")
    await page.locator("#password").fill("")
    await page.locator("#password").focus()
    await page.keyboard.type(alice.password)
    await page.keyboard.press("Enter")
    await page.waitForURL(/\/user-settings$/)
    await expect.poll(() => page.locator("input[aria-label='API key']").inputValue()).toBe(alice.apiKey)
    await checkA11y(page, "user settings")
    await shoot(page, "user-settings")

    // The session survives a reload.
    await page.reload()
    await page.locator("input[aria-label='API key']").waitFor()
    expect(page.url()).toMatch(/\/user-settings$/)

    // Home → the dataset, by keyboard.
    await page.goto(`${url}/`)
    await expect.poll(() => page.locator("table.datasets").innerText()).toContain(`0 of ${seeded.records} completed`)
    await checkA11y(page, "home")
    await shoot(page, "home")
    await openDataset(page)

    // The pending order, read by moving through the queue (how fast a move is: `npm run bench -- ui`).
    const order: Array<number> = []
    for (let i = 0; i < 5; i++) {
      order.push(indexOfText(await cardText(page)))
      if (i < 4) await nextRecordMillis(page, "ArrowRight")
    }
    for (let i = 0; i < 4; i++) await nextRecordMillis(page, "ArrowLeft")
    expect(order.every((i) => i >= 0)).toBe(true)
    await expect.poll(() => page.url()).toMatch(/_page=1/)

    // Record 1: Neutral (key 3) and submit (Enter).
    await page.keyboard.press("3")
    await page.keyboard.press("Enter")
    await expect.poll(async () => indexOfText(await cardText(page))).toBe(order[1])

    // Record 2: Positive, then a span: ↓ to Entities, 2 = Place, Shift+Enter into the text, → first token, Enter.
    await page.keyboard.press("1")
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("2")
    await page.keyboard.press("Shift+Enter")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("Enter")
    await expect.poll(() => page.locator("ul.span-list").innerText()).toContain("Place")
    await checkA11y(page, "annotation with a span")
    await shoot(page, "annotation-span")
    await page.keyboard.press("Escape")
    await page.keyboard.press("Enter")
    await expect.poll(async () => indexOfText(await cardText(page))).toBe(order[2])

    // Record 3: accept the suggestion as it is.
    await page.keyboard.press("Enter")
    await expect.poll(async () => indexOfText(await cardText(page))).toBe(order[3])
    await expect.poll(() => page.locator(".my-submitted").innerText()).toBe(`3 of ${seeded.records}`)
    await expect.poll(() => page.locator("[data-testid=team-progress]").innerText()).toContain(`3 of ${seeded.records} records completed`)
    await checkA11y(page, "annotation")
    await shoot(page, "annotation")

    // The help sheet.
    await page.keyboard.press("?")
    await page.locator("dialog.help-sheet").waitFor()
    await checkA11y(page, "help sheet")
    await shoot(page, "help")
    await page.keyboard.press("Escape")

    // What the server holds: exactly three submitted responses, by this annotator.
    const client = await owner()
    const records = await Effect.runPromise(client.records.list({
      path: { id: seeded.datasetId },
      urlParams: { include: ["responses"], limit: 100 }
    }))
    const responses = records.items.flatMap((r) => (r.responses ?? []).map((response) => ({ record: r, response })))
    expect(responses.length).toBe(3)
    const byText = new Map(responses.map(({ record, response }) => [TEXTS.indexOf(String(record.fields["text"])), response]))
    expect([...byText.keys()].sort()).toEqual(order.slice(0, 3).toSorted())
    for (const { response } of responses) expect(response.status).toBe("submitted")
    expect(byText.get(order[0] ?? -1)?.values?.["sentiment"]?.value).toBe("neutral")
    expect(byText.get(order[1] ?? -1)?.values?.["sentiment"]?.value).toBe("positive")
    const spanText = TEXTS[order[1] ?? 0] ?? ""
    const firstWord = Array.from(/^\p{L}[\p{L}\p{M}]*/u.exec(spanText)?.[0] ?? "").length
    const expectedSpans = [{ label: "LOC", start: 0, end: firstWord }]
    if (order[1] === 0) expectedSpans.push({ label: "ORG", start: 23, end: 32 })
    expect(byText.get(order[1] ?? -1)?.values?.["entities"]?.value).toEqual(
      expect.arrayContaining(expectedSpans.map((s) => expect.objectContaining(s)))
    )
    const suggested = TEXTS.indexOf(spanText) // record 3 accepted its suggestion
    expect(suggested).toBeGreaterThanOrEqual(0)
    expect(byText.get(order[2] ?? -1)?.values?.["sentiment"]?.value).toBe((order[2] ?? 0) % 3 === 1 ? "negative" : "positive")
    const progress = await Effect.runPromise(client.progress.dataset({ path: { id: seeded.datasetId } }))
    expect(progress.completed).toBe(3)

    // Discard, then undo with Ctrl+Z: the record is back, pending, with no response on the server.
    await expect.poll(async () => indexOfText(await cardText(page))).toBe(order[3])
    await page.keyboard.press("Backspace")
    await expect.poll(async () => indexOfText(await cardText(page))).toBe(order[4])
    await expect.poll(() => page.locator(".toast").innerText()).toMatch(/Discarded: record \d+\.\s*Undo/)
    await checkA11y(page, "annotation (undo notice)")
    await page.keyboard.press("Control+z")
    await expect.poll(async () => indexOfText(await cardText(page))).toBe(order[3])
    await expect.poll(() => page.locator(".record-card .badge").innerText()).toMatch(/pending/i)
    const undone = await Effect.runPromise(client.records.list({
      path: { id: seeded.datasetId },
      urlParams: { include: ["responses"], limit: 100 }
    }))
    expect(undone.items.flatMap((r) => r.responses ?? []).length).toBe(3)

    // A custom field renders in a frame that cannot reach the app's token.
    const frame = page.frameLocator("iframe.custom-field")
    await expect.poll(() => frame.locator("body").innerText()).toMatch(/Product \d+ costs/)
    const reach = await page.frames().find((f) => f.url().endsWith("sandbox.html"))?.evaluate(() => {
      const attempts: Array<string> = []
      try {
        attempts.push(String(localStorage.getItem("gloss.token")))
      } catch {
        attempts.push("storage blocked")
      }
      try {
        attempts.push(String(window.parent.document.title))
      } catch {
        attempts.push("parent blocked")
      }
      return attempts
    })
    expect(reach).toEqual(["storage blocked", "parent blocked"])

    // Dark theme follows the system.
    const dark = await browser.newContext({ viewport: { width: 1440, height: 960 }, colorScheme: "dark" })
    const token = await page.evaluate(() => localStorage.getItem("gloss.token"))
    await dark.addInitScript((t) => localStorage.setItem("gloss.token", t ?? ""), token)
    const darkPage = await dark.newPage()
    await darkPage.goto(`${url}/dataset/${seeded.datasetId}/annotation-mode`)
    await darkPage.locator(".record-card").waitFor()
    await expect.poll(() => darkPage.locator(".my-submitted").innerText()).toBe(`3 of ${seeded.records}`)
    await checkA11y(darkPage, "annotation (dark)")
    await shoot(darkPage, "annotation-dark")
    await dark.close()

    // Search and metadata filters narrow the queue, and stay in the URL.
    const unanswered = TEXTS.findIndex((_, i) => !order.slice(0, 3).includes(i))
    await page.getByRole("searchbox", { name: "Search records" }).fill(KEYWORDS[unanswered] ?? "")
    await page.keyboard.press("Enter")
    await expect.poll(() => page.locator(".record-nav").innerText()).toContain("Record 1 of 1")
    // The count and the card come from separate answers: wait for the card as well.
    await expect.poll(() => cardText(page)).toContain(KEYWORDS[unanswered])
    await page.getByRole("searchbox", { name: "Search records" }).fill("")
    await page.keyboard.press("Enter")
    await page.locator(".filters summary").click()
    await page.getByRole("checkbox", { name: "app" }).check()
    await page.getByRole("button", { name: "Apply filters" }).click()
    const appPending = TEXTS.filter((_, i) => i % 2 === 1 && !order.slice(0, 3).includes(i)).length
    await expect.poll(() => page.locator(".record-nav").innerText()).toContain(`Record 1 of ${appPending}`)
    expect(decodeURIComponent(page.url())).toContain('_metadata={"source":{"kind":"terms","values":["app"]}}')
    // The record shows its metadata, by the property's title.
    await expect.poll(() => page.getByRole("region", { name: "Metadata" }).innerText()).toMatch(/Source\s+app/)

    // A rejected token (401) sends the user to sign-in and back.
    await page.evaluate(() => localStorage.setItem("gloss.token", "expired"))
    await page.goto(`${url}/dataset/${seeded.datasetId}/annotation-mode?_status=submitted`)
    await page.waitForURL(/\/sign-in\?redirect=/)
    await signIn(page, alice.username, alice.password)
    await page.waitForURL(/_status=submitted/)
    await page.locator(".record-card").waitFor()
    await expect.poll(() => page.locator(".record-card .badge").innerText()).toMatch(/submitted/i)

    // Sign out.
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(/\/sign-in/)
    expect(await page.evaluate(() => localStorage.getItem("gloss.token"))).toBeNull()
    expect(errors).toEqual([])
    await context.close()

    // A second annotator: another pending order; then draft (POST), discard (POST), and the draft submitted (PUT).
    const other = await browser.newContext({ viewport: { width: 1440, height: 960 } })
    const bobPage = await other.newPage()
    await bobPage.goto(`${url}/`)
    await signIn(bobPage, bob.username, bob.password)
    await openDataset(bobPage)
    const bobOrder: Array<number> = []
    for (let i = 0; i < 5; i++) {
      bobOrder.push(indexOfText(await cardText(bobPage)))
      if (i < 4) await nextRecordMillis(bobPage, "ArrowRight")
    }
    const stillPending = order.filter((i) => !order.slice(0, 3).includes(i))
    expect(bobOrder).not.toEqual(stillPending.concat(bobOrder).slice(0, 5))
    expect(bobOrder.some((i) => order.slice(0, 3).includes(i))).toBe(false)
    for (let i = 0; i < 4; i++) await nextRecordMillis(bobPage, "ArrowLeft")
    await bobPage.keyboard.press("Control+s")
    await expect.poll(async () => indexOfText(await cardText(bobPage))).toBe(bobOrder[1])
    await bobPage.keyboard.press("Backspace")
    await expect.poll(async () => indexOfText(await cardText(bobPage))).toBe(bobOrder[2])
    await expect.poll(() => bobPage.locator("[data-testid=my-progress]").innerText()).toMatch(/Draft 1[\s\S]*Discarded 1/)
    await bobPage.getByRole("button", { name: /^Draft/ }).click()
    await expect.poll(async () => indexOfText(await cardText(bobPage))).toBe(bobOrder[0])
    await bobPage.getByRole("button", { name: "Submit", exact: true }).click()
    await expect.poll(() => bobPage.locator(".my-submitted").innerText()).toBe(`1 of ${seeded.records}`)
    const bobResponses = (await Effect.runPromise(client.records.list({
      path: { id: seeded.datasetId },
      urlParams: { include: ["responses"], limit: 100 }
    }))).items.flatMap((r) => (r.responses ?? []).filter((x) => x.user_id !== byText.get(order[0] ?? -1)?.user_id))
    expect(bobResponses.map((r) => r.status).sort()).toEqual(["discarded", "submitted"])
    await other.close()
  }, 180_000)

  it("works under GLOSS_BASE_URL: assets, routes and API calls all carry the prefix", async () => {
    const based = ManagedRuntime.make(TestServerLive("sqlite", { GLOSS_BASE_URL: "/gloss" }))
    try {
      const baseUrl = (await based.runPromise(TestServer)).url
      expect(baseUrl).toMatch(/\/gloss$/)
      const page = await browser.newPage()
      await page.goto(`${baseUrl}/user-settings`)
      await page.waitForURL(/\/gloss\/sign-in\?redirect=%2Fuser-settings/)
      await signIn(page, OWNER.username, OWNER.password)
      await page.waitForURL(`${baseUrl}/user-settings`)
      await expect.poll(() => page.locator("input[aria-label='API key']").inputValue()).toBe(OWNER.apiKey)
      await page.getByRole("link", { name: "Gloss" }).click()
      await page.getByRole("heading", { name: "No datasets yet" }).waitFor()
      expect(page.url()).toBe(`${baseUrl}/`)
      await page.close()
    } finally {
      await based.dispose()
    }
  }, 60_000)

  it("signs in with Hugging Face: the button, the provider round trip, back where the user was going", async () => {
    const provider = await startFakeProvider()
    const configFile = path.join(mkdtempSync(path.join(tmpdir(), "gloss-oauth-")), ".oauth.yml")
    writeFileSync(configFile, "providers:\n  - name: huggingface\nallowed_workspaces:\n  - name: community\nallow_http_redirect: true\n")
    const withOAuth = ManagedRuntime.make(TestServerLive("sqlite", {
      HF_ENDPOINT: provider.url,
      GLOSS_AUTH_OAUTH_CFG: configFile,
      OAUTH2_HUGGINGFACE_CLIENT_ID: CLIENT_ID,
      OAUTH2_HUGGINGFACE_CLIENT_SECRET: CLIENT_SECRET
    }))
    try {
      const serverUrl = (await withOAuth.runPromise(TestServer)).url
      provider.approveAs({ sub: "42", preferred_username: "grace", name: "Grace Hopper" })
      const page = await browser.newPage()
      await page.goto(`${serverUrl}/user-settings`)
      await page.waitForURL(/\/sign-in\?redirect=%2Fuser-settings/)
      await page.getByRole("link", { name: "Sign in with Hugging Face" }).click()
      // Server → provider → the callback page → the page the user asked for, signed in as the new annotator.
      await page.waitForURL(`${serverUrl}/user-settings`)
      await page.getByText("grace").first().waitFor()
      const token = await page.evaluate(() => localStorage.getItem("gloss.token"))
      const me = await fetch(`${serverUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })
      expect(await me.json()).toMatchObject({ username: "grace", first_name: "Grace Hopper", role: "annotator" })

      // A callback whose state does not match the cookie is refused, and the page says so.
      await page.goto(`${serverUrl}/oauth/huggingface/callback?code=forged&state=forged`)
      await page.getByRole("alert").filter({ hasText: "'state' parameter does not match" }).waitFor()
      await page.close()
    } finally {
      await withOAuth.dispose()
      await provider.close()
    }
  }, 60_000)
})
