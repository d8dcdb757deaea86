/**
 * The team in the browser, end to end, in headless Chromium over a Gloss that starts with no owner: the first owner
 * is created on the set-up page with the token from the server's log; the owner invites an annotator, who joins
 * through the link in another browser and answers a record; the owner creates a user, adds and removes workspace
 * members, renames and deletes a workspace, and deletes the user; the annotator changes their password and replaces
 * their API key. Every new screen is checked at 1280 and 400 px, in three themes (teamChecks.ts).
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Api } from "../../../src/contract/Api.js"
import type { DatasetId, WorkspaceId } from "../../../src/domain/Ids.js"
import { TestServer } from "../../../test/support/server.js"
import { buildUi, hasChromium, launch, signIn } from "./browser.js"
import { checkScreen } from "./teamChecks.js"
import { seedTeamDataset } from "./teamSeed.js"
import { OwnerlessServerLive, serverLog, setupTokenFromLog } from "./teamServer.js"

if (!hasChromium) console.warn("ui e2e: skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)")

const runtime = ManagedRuntime.make(OwnerlessServerLive)
let url = ""
let browser: Browser

const OWNER = { username: "ada", password: "ada-first-password", workspace: "research" }
const INVITEE = { username: "grace", password: "grace-password-1", newPassword: "grace-password-2" }
const VIEWPORT = { width: 1280, height: 900 }

/** What the tests pass from one to the next (they run in order, as one story). */
const story: {
  ownerContext?: BrowserContext
  owner?: Page
  ownerKey?: string
  workspaceId?: WorkspaceId
  datasetId?: DatasetId
  datasetName?: string
  invitee?: Page
} = {}

const need = <A>(value: A | undefined, what: string): A => {
  if (value === undefined) throw new Error(`an earlier test did not leave ${what}`)
  return value
}

const apiClient = (headers: Record<string, string>) =>
  Effect.runPromise(
    HttpApiClient.make(Api, {
      baseUrl: url,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeaders(headers))
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

const ownerApi = () => apiClient({ "X-Gloss-Api-Key": need(story.ownerKey, "the owner's API key") })

/** The signed-in user of `page`, as `GET /api/v1/me` answers with the page's session. */
const meOf = async (page: Page) => {
  const token = await page.evaluate(() => localStorage.getItem("gloss.token"))
  const response = await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })
  expect(response.status).toBe(200)
  return (await response.json()) as { id: string; username: string; role: string; api_key: string }
}

const statusOf = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first().innerText()

describe.skipIf(!hasChromium)("the team, end to end", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("first start: the set-up link from the log creates the owner and a workspace, and signs in; then set-up is done", async () => {
    const token = setupTokenFromLog()
    expect(token, `no set-up link in the server's log:\n${serverLog.join("\n")}`).toBeDefined()

    // From the server's own machine the page asks for no token.
    const local = await browser.newContext({ viewport: VIEWPORT })
    const localPage = await local.newPage()
    await localPage.goto(`${url}/setup`)
    await localPage.getByRole("heading", { name: "Set up Gloss" }).waitFor()
    expect(await localPage.locator("#setup-token").count()).toBe(0)
    await local.close()

    // Through a proxy (any forwarding header) the token is needed: the owner's browser is elsewhere.
    const context = await browser.newContext({ viewport: VIEWPORT, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.7" } })
    await context.grantPermissions(["clipboard-read", "clipboard-write"])
    const page = await context.newPage()
    story.ownerContext = context
    story.owner = page
    await page.goto(`${url}/`)
    await page.waitForURL(/\/sign-in/)
    await expect.poll(() => page.getByTestId("no-owner").innerText()).toContain("This server has no owner yet")
    await page.getByRole("link", { name: "Set it up" }).click()
    await page.waitForURL(/\/setup$/)
    expect(await page.locator("#setup-token").inputValue()).toBe("")

    await page.goto(`${url}/setup?token=${token}`)
    expect(await page.locator("#setup-token").inputValue()).toBe(token)
    await page.locator("#new-username").fill(OWNER.username)
    await page.locator("#first-name").fill("Ada")
    await page.locator("#new-password").fill(OWNER.password)
    await page.locator("#repeat-password").fill(`${OWNER.password}!`)
    await page.locator("#first-workspace").fill(OWNER.workspace)
    await checkScreen(page, "setup")
    await page.getByRole("button", { name: "Create owner and workspace" }).click()
    await expect.poll(() => page.getByRole("alert").innerText()).toBe("The two passwords differ.")
    await page.locator("#repeat-password").fill(OWNER.password)
    // A wrong token: the server's own words.
    await page.locator("#setup-token").fill("not-the-token")
    await page.getByRole("button", { name: "Create owner and workspace" }).click()
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("The set-up token is wrong")
    await page.locator("#setup-token").fill(token ?? "")
    await page.getByRole("button", { name: "Create owner and workspace" }).click()
    await page.waitForURL(`${url}/`)
    await page.getByRole("heading", { name: "No datasets yet" }).waitFor()

    const me = await meOf(page)
    expect(me).toMatchObject({ username: OWNER.username, role: "owner" })
    story.ownerKey = me.api_key
    const workspaces = await Effect.runPromise((await ownerApi()).me.workspaces())
    expect(workspaces.items.map((w) => w.name)).toEqual([OWNER.workspace])
    story.workspaceId = need(workspaces.items[0], "the first workspace").id

    // Set-up is done for good.
    await page.goto(`${url}/setup`)
    await page.getByRole("heading", { name: "This server is set up" }).waitFor()
    await checkScreen(page, "setup done")
    const status = await fetch(`${url}/api/gloss/setup`)
    expect(await status.json()).toMatchObject({ needed: false })
    const signedOut = await browser.newContext({ viewport: VIEWPORT })
    const signInPage = await signedOut.newPage()
    await signInPage.goto(`${url}/sign-in`)
    await signInPage.locator("#username").waitFor()
    await signInPage.waitForLoadState("networkidle")
    expect(await signInPage.getByTestId("no-owner").count()).toBe(0)
    await signedOut.close()
  }, 180_000)

  it("the owner invites an annotator, who joins through the link in another browser and answers a record", async () => {
    const page = need(story.owner, "the owner's page")
    const seeded = await Effect.runPromise(
      seedTeamDataset(url, need(story.ownerKey, "the owner's key"), need(story.workspaceId, "a workspace"), "team-reviews")
    )
    story.datasetId = seeded.datasetId
    story.datasetName = seeded.datasetName

    await page.goto(`${url}/`)
    await page.getByRole("link", { name: "People" }).click()
    await page.waitForURL(/\/users$/)
    await expect.poll(() => statusOf(page)).toBe("Users 1–1 of 1")
    await expect.poll(() => page.locator("table.people-table").innerText()).toMatch(/ada\s+Ada\s+owner\s+All \(owner\)/)
    await page.getByRole("button", { name: "Invite" }).click()
    const dialog = page.getByRole("dialog", { name: "Invite someone" })
    await dialog.waitFor()
    expect(await dialog.getByRole("radio", { name: /Annotator/ }).isChecked()).toBe(true)
    // The only workspace is already ticked.
    expect(await dialog.getByRole("checkbox", { name: OWNER.workspace }).isChecked()).toBe(true)
    await dialog.getByLabel("The link works for").selectOption({ label: "1 day" })
    await checkScreen(page, "people invite dialog")
    await dialog.getByRole("button", { name: "Create link" }).click()
    const linkBox = page.getByRole("textbox", { name: "Invitation link" })
    await linkBox.waitFor()
    const link = await linkBox.inputValue()
    expect(link).toMatch(new RegExp(`^${url}/invite\\?token=[^&]+$`))
    await page.getByRole("button", { name: "Copy link" }).click()
    await expect.poll(() => page.getByRole("dialog").getByRole("status").innerText()).toBe("Link copied to the clipboard.")
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)
    await checkScreen(page, "people invite link")
    await page.getByRole("button", { name: "Done" }).click()
    await expect.poll(() => page.locator(".invitations").innerText()).toMatch(/annotator in research\s+by ada, expires in 23 hours/)
    await checkScreen(page, "people")

    // The invitee, in a browser of their own.
    const other = await browser.newContext({ viewport: VIEWPORT })
    const invitee = await other.newPage()
    story.invitee = invitee
    await invitee.goto(`${url}/invite?token=nothing-like-a-token`)
    await invitee.getByRole("heading", { name: "This invitation cannot be used" }).waitFor()
    await checkScreen(invitee, "invite unusable")
    await invitee.goto(link)
    await invitee.getByRole("heading", { name: "Join Gloss" }).waitFor()
    expect(await invitee.locator("main").innerText()).toMatch(/ada invites you as an annotator[\s\S]*Workspace\s+research/)
    await invitee.locator("#new-username").fill(OWNER.username)
    await invitee.locator("#first-name").fill("Grace")
    await invitee.locator("#last-name").fill("Hopper")
    await invitee.locator("#new-password").fill(INVITEE.password)
    await invitee.locator("#repeat-password").fill(INVITEE.password)
    await checkScreen(invitee, "invite")
    await invitee.getByRole("button", { name: "Accept and sign in" }).click()
    await expect.poll(() => invitee.getByRole("alert").innerText()).toBe(`The username “${OWNER.username}” is taken: choose another.`)
    await invitee.locator("#new-username").fill(INVITEE.username)
    await invitee.getByRole("button", { name: "Accept and sign in" }).click()
    await invitee.waitForURL(`${url}/`)
    expect(await meOf(invitee)).toMatchObject({ username: INVITEE.username, role: "annotator" })

    // Signed in, in the workspace: the dataset is there to answer.
    await invitee.getByRole("link", { name: seeded.datasetName }).click()
    await invitee.locator(".record-card").waitFor()
    await invitee.getByRole("radio", { name: /Positive/ }).click()
    await invitee.getByRole("button", { name: "Submit", exact: true }).click()
    const owner = await ownerApi()
    const grace = (await Effect.runPromise(owner.users.list())).items.find((u) => u.username === INVITEE.username)
    await expect.poll(async () => {
      const records = await Effect.runPromise(owner.records.list({ path: { id: seeded.datasetId }, urlParams: { include: ["responses"] } }))
      return records.items.flatMap((r) => r.responses ?? []).map((r) => [r.user_id, r.status, r.values?.["sentiment"]?.value])
    }).toEqual([[grace?.id, "submitted", "positive"]])

    // The link is used up; the owner's list of pending invitations is empty.
    const again = await browser.newContext({ viewport: VIEWPORT })
    const againPage = await again.newPage()
    await againPage.goto(link)
    await againPage.getByRole("heading", { name: "This invitation cannot be used" }).waitFor()
    await again.close()
    await page.reload()
    await expect.poll(() => page.getByRole("region", { name: "Pending invitations" }).innerText()).toContain("None")
  }, 180_000)

  it("the owner creates a user, adds one member and removes another, renames and deletes a workspace", async () => {
    const page = need(story.owner, "the owner's page")
    const owner = await ownerApi()
    const workspaceId = need(story.workspaceId, "a workspace")

    // The People page asks for the users once, and for members once per workspace: never once per user. The page
    // leaves the People page of the previous test first: a refetch that screen still had in flight on a loaded
    // machine would otherwise be counted as this visit's.
    await page.goto("about:blank")
    const calls: Array<string> = []
    const onRequest = (request: { url: () => string; method: () => string }) => {
      const { pathname } = new URL(request.url())
      if (pathname.startsWith("/api/")) calls.push(`${request.method()} ${pathname}`)
    }
    page.on("request", onRequest)
    await page.goto(`${url}/users`)
    await expect.poll(() => page.locator("table.people-table").innerText()).toMatch(/grace\s+Grace Hopper\s+annotator\s+research/)
    page.off("request", onRequest)
    expect(calls.filter((call) => call.includes("/users")), JSON.stringify(calls)).toEqual(["GET /api/v1/users", `GET /api/v1/workspaces/${workspaceId}/users`])

    // A new user, in no workspace yet.
    await page.getByRole("button", { name: "New user" }).click()
    const create = page.getByRole("dialog", { name: "New user" })
    await create.getByLabel("Username").fill("carol")
    await create.getByLabel("First name").fill("Carol")
    await create.getByLabel("Role").selectOption("annotator")
    await create.getByLabel("Password", { exact: true }).fill("carol-password")
    await checkScreen(page, "people new user dialog")
    await create.getByRole("button", { name: "Create user" }).click()
    await expect.poll(() => statusOf(page)).toBe("carol was created.")
    await expect.poll(() => page.locator("table.people-table").innerText()).toMatch(/carol\s+Carol\s+annotator\s+None/)
    await expect.poll(() => page.locator("table.people-table").innerText()).toMatch(/grace\s+Grace Hopper\s+annotator\s+research/)

    // The Workspaces page: counts, and no delete for a workspace with a dataset.
    await page.getByRole("link", { name: "Workspaces" }).click()
    await page.waitForURL(/\/workspaces$/)
    const row = page.getByRole("row", { name: /^research/ })
    await expect.poll(() => row.innerText()).toMatch(/research\s+2\s+1/)
    expect(await row.getByRole("button", { name: "Delete research" }).isDisabled()).toBe(true)
    expect(await row.innerText()).toContain("Holds 1 dataset: delete them first.")
    await checkScreen(page, "workspaces")

    // Members: add carol (found by a search), remove grace.
    await row.getByRole("button", { name: "Members of research" }).click()
    const panel = page.getByRole("region", { name: "Members of research" })
    await expect.poll(() => panel.locator("ul.members").innerText()).toMatch(/ada[\s\S]*grace/)
    await panel.getByLabel("Find a user").fill("caro")
    await panel.getByRole("button", { name: "Add to workspace" }).click()
    await expect.poll(() => panel.getByRole("status").innerText()).toBe("carol was added to research.")
    await expect.poll(() => row.innerText()).toMatch(/research\s+3\s+1/)
    await panel.getByRole("button", { name: "Remove grace from research" }).click()
    await expect.poll(() => panel.getByRole("status").innerText()).toBe("grace was removed from research.")
    // The focus does not fall to the top of the page with the removed member's button.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Members of research")
    await checkScreen(page, "workspaces members")
    const members = await Effect.runPromise(owner.workspaces.listUsers({ path: { id: workspaceId } }))
    expect(members.items.map((u) => u.username).sort()).toEqual(["ada", "carol"])

    // A second workspace: created, renamed, deleted (it holds nothing).
    await page.getByLabel("New workspace").fill("scratch")
    await page.getByRole("button", { name: "Create", exact: true }).click()
    await expect.poll(() => statusOf(page)).toBe("scratch was created.")
    await page.getByRole("button", { name: "Rename scratch" }).click()
    await page.getByLabel("New name of scratch").fill("drafts")
    await page.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => statusOf(page)).toBe("scratch is now drafts.")
    await page.getByRole("button", { name: "Delete drafts" }).click()
    await checkScreen(page, "workspaces delete dialog")
    await page.getByRole("dialog", { name: "Delete the workspace drafts?" }).getByRole("button", { name: "Delete drafts" }).click()
    await expect.poll(() => statusOf(page)).toBe("drafts was deleted.")
    expect((await Effect.runPromise(owner.me.workspaces())).items.map((w) => w.name)).toEqual(["research"])

    // People: carol becomes an admin, who sees what admins may do; then her account is deleted.
    await page.goto(`${url}/users?q=carol`)
    await page.getByRole("button", { name: "Manage carol" }).click()
    const manage = page.getByRole("dialog", { name: "carol" })
    await manage.getByLabel("Role").selectOption("admin")
    await manage.getByRole("button", { name: "Change role" }).click()
    await expect.poll(() => statusOf(page)).toBe("carol is now an admin.")
    const admin = await browser.newContext({ viewport: VIEWPORT })
    const adminPage = await admin.newPage()
    await adminPage.goto(`${url}/users`)
    await signIn(adminPage, "carol", "carol-password")
    await adminPage.getByText("Owners create, change and delete accounts.").waitFor()
    await adminPage.getByRole("button", { name: "Invite" }).click()
    expect(await adminPage.getByRole("dialog").getByRole("radio").count()).toBe(1)
    await adminPage.keyboard.press("Escape")
    await adminPage.goto(`${url}/workspaces`)
    await expect.poll(() => adminPage.getByRole("row", { name: /^research/ }).innerText()).toMatch(/research\s+2\s+1/)
    expect(await adminPage.getByRole("button", { name: /^Delete/ }).count()).toBe(0)
    expect(await adminPage.getByLabel("New workspace").count()).toBe(0)
    await checkScreen(adminPage, "workspaces as admin")
    await admin.close()

    await page.getByRole("button", { name: "Manage carol" }).click()
    await manage.getByRole("button", { name: "Delete user" }).click()
    const confirmDelete = page.getByRole("dialog", { name: "Delete carol?" })
    await confirmDelete.waitFor()
    await checkScreen(page, "people delete dialog")
    await confirmDelete.getByRole("button", { name: "Delete carol" }).click()
    await expect.poll(() => statusOf(page)).toBe("carol was deleted.")
    expect((await Effect.runPromise(owner.users.list())).items.map((u) => u.username).sort()).toEqual(["ada", "grace"])
  }, 180_000)

  it("My settings: the annotator changes their password and replaces their API key", async () => {
    const page = need(story.invitee, "the invitee's page")
    await page.goto(`${url}/user-settings`)
    const keyBox = page.getByRole("textbox", { name: "API key" })
    await expect.poll(() => keyBox.inputValue()).not.toBe("")
    const oldKey = await keyBox.inputValue()

    await page.getByLabel("Current password").fill("not-my-password")
    await page.getByLabel("New password", { exact: true }).fill(INVITEE.newPassword)
    await page.getByLabel("New password again").fill(INVITEE.newPassword)
    await checkScreen(page, "user settings")
    await page.getByRole("button", { name: "Change password" }).click()
    const problem = page.getByRole("region", { name: "Password" }).getByRole("alert")
    await expect.poll(() => problem.innerText()).not.toBe("")
    await page.getByLabel("Current password").fill(INVITEE.password)
    await page.getByRole("button", { name: "Change password" }).click()
    await expect.poll(() => page.getByRole("region", { name: "Password" }).getByRole("status").innerText()).toBe("Password changed.")

    // The new password signs in; the old one does not.
    const signInWith = (password: string) =>
      fetch(`${url}/api/v1/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: INVITEE.username, password })
      }).then((r) => r.status)
    expect(await signInWith(INVITEE.newPassword)).toBe(201)
    expect(await signInWith(INVITEE.password)).toBe(401)

    // A new key, after a question that says the old one stops working.
    await page.getByRole("button", { name: "New API key" }).click()
    const confirm = page.getByRole("dialog", { name: "Replace your API key?" })
    expect(await confirm.innerText()).toContain("The current key stops working at once")
    await checkScreen(page, "user settings new key")
    await confirm.getByRole("button", { name: "Replace the key" }).click()
    await expect.poll(() => keyBox.inputValue()).not.toBe(oldKey)
    const newKey = await keyBox.inputValue()
    const meWith = (key: string) => fetch(`${url}/api/v1/me`, { headers: { "X-Argilla-Api-Key": key } }).then((r) => r.status)
    expect(await meWith(newKey)).toBe(200)
    expect(await meWith(oldKey)).toBe(401)

    // Signed out and in again with the new password.
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(/\/sign-in/)
    await signIn(page, INVITEE.username, INVITEE.newPassword)
    await page.waitForURL(`${url}/`)
    await page.context().close()
    await story.ownerContext?.close()
  }, 180_000)
})
