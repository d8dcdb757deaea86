/**
 * `npm run docs:screenshots`: takes the tutorial's screenshots (docs/screenshots/tutorial-*.png, 1280 px wide) from
 * the real UI, following docs/tutorial/first-dataset.md: a Gloss server on a temporary SQLite database started as
 * the tutorial starts it (no owner), the UI built and served by it, Debian's Chromium driven through each step — the
 * set-up page, the new dataset, the import of the tutorial's CSV, the invitation and the colleague accepting it, both
 * people annotating (one page in bulk), review, team progress and the export dialog. Then, on a second server started with
 * no owner, the team's pages (docs/screenshots/team-*.png): the first-start set-up page opened from the link in the
 * server's log, People with the invitation dialog, and Workspaces with a workspace's members. The other screenshots
 * in that folder come from the end-to-end tests (`GLOSS_SCREENSHOTS=1 npx vitest run --project ui-e2e`).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { TestServer, TestServerOn } from "../../test/support/server.js"
import { buildUi, hasChromium, launch, repoPath } from "../../ui/test/e2e/browser.js"
import { OwnerlessServerLive, setupTokenFromLog } from "../../ui/test/e2e/teamServer.js"
import { readTutorial, reviews, reviewsCsv, startEnv } from "./tutorial.js"

const OUT = repoPath("docs/screenshots")
const WIDTH = 1280
const HEIGHT = 800

/** Which label each person gives each review (by its external id): they disagree on 3, 5 and 8. */
const ANSWERS: Readonly<Record<"owner" | "colleague", Readonly<Record<string, "positive" | "negative" | "neutral">>>> = {
  owner: { "review-1": "positive", "review-2": "negative", "review-3": "neutral", "review-4": "positive", "review-5": "neutral", "review-6": "negative", "review-7": "positive", "review-8": "negative" },
  colleague: { "review-1": "positive", "review-2": "negative", "review-3": "positive", "review-4": "positive", "review-5": "negative", "review-6": "negative", "review-7": "positive", "review-8": "neutral" }
}

const markdown = readTutorial()
const csv = reviewsCsv(markdown)
/** review id → its text, from the tutorial's CSV. */
const REVIEWS: ReadonlyArray<readonly [string, string]> = reviews(markdown).map((r) => [r.external_id, r.text] as const)
const reviewOf = (shown: string) => {
  const found = REVIEWS.find(([, text]) => shown.includes(text))
  if (found === undefined) throw new Error(`no review of the tutorial's CSV reads ${JSON.stringify(shown.slice(0, 80))}`)
  return found[0]
}

const shoot = async (page: Page, name: string) => {
  const file = path.join(OUT, `tutorial-${name}.png`)
  await page.screenshot({ path: file })
  console.log(`${path.relative(repoPath("."), file)}: ${Math.round(fs.statSync(file).size / 1024)} kB`)
}

/** Polls `check` until it holds (or fails after 15 s with `what`). */
const until = async (what: string, check: () => Promise<boolean>) => {
  const end = Date.now() + 15_000
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Answers, in the focus view, every pending record the queue shows, as `who` would: the label, then Submit. */
const answerAll = async (page: Page, who: keyof typeof ANSWERS, onEach?: (n: number) => Promise<void>) => {
  for (let n = 0; ; n++) {
    const card = page.locator(".record-card")
    await until("a record or the end of the queue", async () => (await card.count()) === 0 || (await card.innerText()).length > 0)
    if ((await card.count()) === 0) return
    const shown = await card.innerText()
    if (!REVIEWS.some(([, text]) => shown.includes(text))) return
    const id = reviewOf(shown)
    const text = REVIEWS.find(([r]) => r === id)?.[1] ?? "-"
    const label = ANSWERS[who][id] ?? "neutral"
    await page.getByRole("radio", { name: new RegExp(label) }).click()
    await onEach?.(n)
    await page.getByRole("button", { name: "Submit", exact: true }).click()
    await until(`the record after ${id}`, async () => (await card.count()) === 0 || !(await card.innerText()).includes(text))
  }
}

/** The owner the reader creates on the set-up page. */
const ADMIN = { username: "admin", firstName: "Ada", password: "change-me-please", workspace: "team" }
const COLLEAGUE = { username: "maria", firstName: "Maria", password: "maria-password" }

const main = async (browser: Browser, url: string) => {
  const owner = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, colorScheme: "light" })
  const page = await owner.newPage()
  page.setDefaultTimeout(15_000)

  // 1. The set-up page (from the server's own machine: no token asked), then the empty datasets page.
  await page.goto(`${url}/setup`)
  await page.locator("#new-username").fill(ADMIN.username)
  await page.locator("#first-name").fill(ADMIN.firstName)
  await page.locator("#new-password").fill(ADMIN.password)
  await page.locator("#repeat-password").fill(ADMIN.password)
  await page.locator("#first-workspace").fill(ADMIN.workspace)
  await shoot(page, "setup")
  await page.getByRole("button", { name: "Create owner and workspace" }).click()
  await page.waitForURL(`${url}/`)
  await page.getByRole("heading", { name: "No datasets yet" }).waitFor()
  await shoot(page, "home-empty")

  // 2. The new dataset.
  await page.getByRole("link", { name: "New dataset" }).click()
  await page.getByLabel("Name", { exact: true }).first().fill("product-reviews")
  await page.getByLabel("Responses needed per record").fill("2")
  await page.getByLabel("Guidelines (markdown)").fill("Label the review by its overall tone. Mixed reviews are **neutral**.")
  const question = page.getByRole("group", { name: "question 1" })
  await question.getByLabel("Name").fill("sentiment")
  await question.getByLabel("Title").fill("Sentiment")
  await question.getByLabel("Options").fill("positive\nnegative\nneutral")
  await shoot(page, "new-dataset")
  await page.getByRole("button", { name: "Create and publish" }).click()
  await page.waitForURL(/\/dataset\/[^/]+\/settings$/)
  const datasetId = /\/dataset\/([^/]+)\/settings/.exec(page.url())?.[1] ?? ""

  // 3. The import of the tutorial's CSV.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-tutorial-"))
  const file = path.join(dir, "reviews.csv")
  fs.writeFileSync(file, csv)
  await page.getByRole("link", { name: "Import records" }).click()
  await page.getByLabel(/CSV \(with a header row\)/).setInputFiles(file)
  await until("the column mapping", async () => (await page.getByLabel("text", { exact: true }).inputValue()) === "field:text")
  await page.getByRole("heading", { name: "2. Map the columns" }).scrollIntoViewIfNeeded()
  await shoot(page, "import")
  await page.getByRole("button", { name: "Import records" }).click()
  await until("the import report", async () => (await page.getByRole("status").innerText()).includes("Finished."))
  await page.getByRole("heading", { name: "4. Import" }).scrollIntoViewIfNeeded()
  await shoot(page, "import-done")

  // 4. The invitation, and the colleague accepting it in a browser of her own.
  await page.getByRole("link", { name: "People" }).click()
  await page.getByRole("button", { name: "Invite" }).click()
  await page.getByRole("dialog").getByRole("checkbox", { name: ADMIN.workspace }).check()
  await page.getByRole("button", { name: "Create link" }).click()
  const linkField = page.locator("input[aria-label='Invitation link']")
  await until("the invitation link", async () => (await linkField.inputValue()).includes("token="))
  await shoot(page, "invite")
  const link = await linkField.inputValue()
  await page.keyboard.press("Escape")
  const other = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, colorScheme: "light" })
  const theirs = await other.newPage()
  theirs.setDefaultTimeout(15_000)
  await theirs.goto(link)
  await theirs.locator("#new-username").fill(COLLEAGUE.username)
  await theirs.locator("#first-name").fill(COLLEAGUE.firstName)
  await theirs.locator("#new-password").fill(COLLEAGUE.password)
  await theirs.locator("#repeat-password").fill(COLLEAGUE.password)
  await shoot(theirs, "accept")
  await theirs.getByRole("button", { name: "Accept and sign in" }).click()
  await theirs.waitForURL(`${url}/`)

  // The owner answers: a screenshot after two records, then the rest.
  await page.goto(`${url}/dataset/${datasetId}/annotation-mode`)
  await page.locator(".record-card").waitFor()
  await answerAll(page, "owner", async (n) => {
    if (n === 2) await shoot(page, "annotate")
  })

  // The colleague: one page in bulk (the reviews she finds negative), then the rest one by one.
  await theirs.getByRole("link", { name: "product-reviews" }).click()
  await theirs.locator(".record-card").waitFor()
  await theirs.getByRole("button", { name: "Bulk", exact: true }).click()
  await theirs.locator(".bulk-card").first().waitFor()
  const cards = theirs.locator(".bulk-card")
  for (let i = 0; i < (await cards.count()); i++) {
    const card = cards.nth(i)
    if (ANSWERS.colleague[reviewOf(await card.innerText())] === "negative") await card.getByRole("checkbox").first().click()
  }
  await theirs.getByRole("radio", { name: /negative/i }).click()
  await theirs.locator("main h1, .bulk-card").first().scrollIntoViewIfNeeded()
  await shoot(theirs, "bulk")
  await theirs.getByRole("button", { name: "Submit", exact: true }).click()
  const negative = Object.values(ANSWERS.colleague).filter((label) => label === "negative").length
  await until("the bulk answers", async () => (await theirs.locator(".my-submitted").innerText()).startsWith(`${negative} of`))
  await theirs.getByRole("button", { name: "Focus", exact: true }).click()
  await theirs.locator(".record-card").waitFor()
  await answerAll(theirs, "colleague")
  await other.close()

  // 5. Review: the records where they disagree; then progress by annotator.
  await page.goto(`${url}/dataset/${datasetId}/annotation-mode`)
  await page.getByRole("button", { name: "Review" }).click()
  await page.locator(".review-panel").waitFor()
  await page.getByLabel("Review queue", { exact: true }).selectOption("disagreement")
  await until("a disagreement", async () => (await page.locator(".review-panel").innerText()).includes("Disagreement"))
  await shoot(page, "review")
  await page.goto(`${url}/dataset/${datasetId}/team`)
  await until("the team's progress", async () => (await page.getByRole("table").innerText()).includes(COLLEAGUE.username))
  await shoot(page, "team-progress")

  // 6. The export dialog, as the reader fills it in.
  await page.goto(`${url}/dataset/${datasetId}/annotation-mode`)
  await page.getByRole("button", { name: "Export", exact: true }).click()
  await page.getByRole("dialog").getByRole("radio", { name: /Argilla dataset/ }).check()
  await shoot(page, "export")
  await owner.close()
  fs.rmSync(dir, { recursive: true, force: true })
}

/**
 * The team's pages, on a server that starts with no owner: the set-up page as a browser elsewhere sees it (the
 * token from the server's log filled in), then, signed in as that owner, People with the invitation dialog and
 * Workspaces with the members of one.
 */
const teamShots = async (browser: Browser) => {
  const server = ManagedRuntime.make(OwnerlessServerLive)
  try {
    const { url } = await server.runPromise(TestServer)
    const token = setupTokenFromLog()
    if (token === undefined) throw new Error("the ownerless server logged no set-up link")
    // A forwarding header: the server asks for the token, as it does from any machine but its own.
    const context = await browser.newContext({
      viewport: { width: WIDTH, height: HEIGHT },
      colorScheme: "light",
      extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.7" }
    })
    const page = await context.newPage()
    page.setDefaultTimeout(30_000)
    const shootTeam = async (name: string) => {
      const file = path.join(OUT, `team-${name}.png`)
      await page.screenshot({ path: file })
      console.log(`${path.relative(repoPath("."), file)}: ${Math.round(fs.statSync(file).size / 1024)} kB`)
    }

    await page.goto(`${url}/setup?token=${token}`)
    await page.locator("#new-username").fill("maria")
    await page.locator("#first-name").fill("Maria")
    await page.locator("#new-password").fill("change-me-please")
    await page.locator("#repeat-password").fill("change-me-please")
    await page.locator("#first-workspace").fill("reviews-team")
    await shootTeam("setup")
    await page.getByRole("button", { name: "Create owner and workspace" }).click()
    await page.waitForURL(`${url}/`)

    // A few colleagues and a second workspace, through the API with the owner's session.
    const session = await page.evaluate(() => localStorage.getItem("gloss.token"))
    const api = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${url}/api${route}`, {
        method,
        headers: { authorization: `Bearer ${session}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`)
      return (await response.json()) as { readonly id: string; readonly items?: ReadonlyArray<{ readonly id: string; readonly name: string }> }
    }
    const team = (await api("GET", "/v1/me/workspaces")).items?.[0]
    if (team === undefined) throw new Error("set-up made no workspace")
    const support = await api("POST", "/v1/workspaces", { name: "support-tickets" })
    const people = [["jonas", "Jonas", "Berg", "annotator"], ["lea", "Lea", "Novak", "annotator"], ["sam", "Sam", "Okafor", "admin"]] as const
    for (const [username, first, last, role] of people) {
      const user = await api("POST", "/v1/users", { username, first_name: first, last_name: last, role, password: "a-long-password" })
      await api("POST", `/v1/workspaces/${team.id}/users`, { user_id: user.id })
      if (username !== "lea") await api("POST", `/v1/workspaces/${support.id}/users`, { user_id: user.id })
    }
    await api("POST", "/gloss/invitations", { role: "annotator", workspace_ids: [support.id], expires_in_hours: 72 })

    await page.getByRole("link", { name: "People" }).click()
    await until("the users", async () => (await page.locator("table.people-table").innerText()).includes("Okafor"))
    await page.getByRole("button", { name: "Invite" }).click()
    await page.getByRole("dialog").getByRole("checkbox", { name: "reviews-team" }).check()
    await shootTeam("people-invite")

    await page.keyboard.press("Escape")
    await page.getByRole("link", { name: "Workspaces" }).click()
    await page.getByRole("button", { name: "Members of reviews-team" }).click()
    await until("the members", async () => (await page.locator("ul.members").innerText()).includes("sam"))
    await shootTeam("workspaces")
    await context.close()
  } finally {
    await server.dispose()
  }
}

if (!hasChromium) throw new Error("docs:screenshots needs Chromium at /usr/bin/chromium (apt-get install chromium)")
buildUi()
fs.mkdirSync(OUT, { recursive: true })
const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-screenshots-"))
// The tutorial starts the server without the owner variables (startEnv reads none from it).
const env = { USERNAME: "", PASSWORD: "", API_KEY: "", ...startEnv(markdown), GLOSS_HOME_PATH: home, GLOSS_LOG_LEVEL: "warning", HF_HUB_DISABLE_TELEMETRY: "1" }
const runtime = ManagedRuntime.make(TestServerOn("sqlite", env))
let browser: Browser | undefined
try {
  const { url } = await runtime.runPromise(TestServer)
  browser = await launch()
  await main(browser, url)
  await teamShots(browser)
} finally {
  await browser?.close()
  await runtime.dispose()
  fs.rmSync(home, { recursive: true, force: true })
}
