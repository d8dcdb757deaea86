/**
 * Small screens and themes, in headless Chromium over a real Gloss: at 400×800, on every screen of the table
 * below and in every theme, no page scrolls sideways, every control that can take the focus lies within the
 * viewport once focused and is not covered by anything, each is at least 24 px in both directions (inline links in
 * text aside), and axe finds no serious or critical violation. The data is made to break layouts
 * (`responsiveSeed.ts`): long words and URLs, a wide markdown table, a wide image, a chat, a custom field, a span
 * question and thirty long labels.
 */
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { buildUi, hasChromium, launch, photograph, photographFailure, signIn } from "./browser.js"
import { axeViolations } from "./checks.js"
import { type ResponsiveSeeded, seedResponsive } from "./responsiveSeed.js"

/**
 * The screens checked, one line each: where it is, what shows it is ready, and what to do once it is (open a
 * dialog, a menu). Screens other parts of the UI add belong here too.
 */
interface Screen {
  readonly name: string
  readonly path: (seeded: ResponsiveSeeded) => string
  readonly ready: string
  readonly setup?: (page: Page) => Promise<void>
  /** who looks at it: nobody (before signing in), the annotator (the default), or the owner */
  readonly as?: Viewer
}

type Viewer = "signed out" | "annotator" | "owner"

const annotation = (s: ResponsiveSeeded) => `/dataset/${s.datasetId}/annotation-mode`
const dataset = (s: ResponsiveSeeded, rest: string) => `/dataset/${s.datasetId}/${rest}`

const SCREENS: ReadonlyArray<Screen> = [
  { name: "sign-in", path: () => "/sign-in", ready: "#username", as: "signed out" },
  { name: "home", path: () => "/", ready: "table.datasets a" },
  { name: "annotation", path: annotation, ready: ".record-card .field-image" },
  {
    name: "annotation with the help sheet open",
    path: annotation,
    ready: ".record-card .field-image",
    setup: async (page) => {
      await page.getByRole("button", { name: /Shortcuts/ }).click()
      await page.locator(".help-sheet[open]").waitFor()
    }
  },
  {
    name: "annotation with the span editor taking keys",
    path: annotation,
    ready: ".record-card .field-image",
    setup: async (page) => {
      await page.locator(".record-card .span-text").first().focus()
      await page.keyboard.press("ArrowRight")
      await page.locator(".span-cursor").waitFor()
    }
  },
  { name: "user settings", path: () => "/user-settings", ready: "input[aria-label='API key']" },
  { name: "review", path: (s) => `${annotation(s)}?review=1`, ready: ".review-mode", as: "owner" },
  { name: "team progress", path: (s) => dataset(s, "team"), ready: "main.team-page", as: "owner" },
  { name: "agreement", path: (s) => dataset(s, "agreement"), ready: "main.agreement-page .agreement-status", as: "owner" },
  { name: "dataset settings", path: (s) => dataset(s, "settings"), ready: ".settings-body", as: "owner" },
  { name: "import records", path: (s) => dataset(s, "import"), ready: "main.settings-page h1", as: "owner" },
  { name: "new dataset", path: () => "/new-dataset", ready: "main.new-dataset", as: "owner" },
  { name: "bulk view", path: (s) => `${annotation(s)}?view=bulk`, ready: ".bulk-records" },
  {
    name: "bulk view with a record expanded",
    path: (s) => `${annotation(s)}?view=bulk`,
    ready: ".bulk-records",
    setup: async (page) => {
      await page.locator(".bulk-expand").first().click()
      await page.locator(".bulk-card-body:not(.compact)").first().waitFor()
    }
  }
]

interface Theme {
  readonly name: string
  /** what My settings stored (null: nothing, the system decides) */
  readonly stored: "light" | "dark" | "high-contrast" | null
  readonly colorScheme: "light" | "dark"
  readonly forcedColors?: "active"
  /** the page's background colour in this theme */
  readonly background: string
}

const THEMES: ReadonlyArray<Theme> = [
  // The stored choice wins over the system's.
  { name: "light", stored: "light", colorScheme: "dark", background: "rgb(246, 247, 249)" },
  { name: "dark", stored: null, colorScheme: "dark", background: "rgb(18, 20, 24)" },
  { name: "high contrast", stored: "high-contrast", colorScheme: "light", background: "rgb(0, 0, 0)" },
  // Windows' high-contrast mode: the system's colours replace the theme's (Chromium's dark forced palette).
  { name: "forced colors", stored: null, colorScheme: "dark", forcedColors: "active", background: "rgb(0, 0, 0)" }
]

const WIDTH = 400
const HEIGHT = 800

/** The screens photographed for the documentation (GLOSS_SCREENSHOTS=1); any other only when its check fails. */
const README_SHOTS = new Set(["narrow-high-contrast-annotation", "narrow-dark-home", "narrow-light-user-settings"])

if (!hasChromium) console.warn("ui e2e: skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)")

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: ResponsiveSeeded
let browser: Browser


/**
 * Focuses, one after the other, every element that can take the focus and is shown, and reports those that then
 * lie outside the viewport's width, are covered by another element at their centre, or are smaller than 24 px
 * (inline links inside text are exempt, as WCAG 2.5.8 has it; a radio or checkbox counts with its label).
 */
const layoutProblems = (page: Page) =>
  page.evaluate(() => {
    const problems: Array<string> = []
    const describe = (el: Element) => {
      const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)
      const type = el.getAttribute("type")
      const tag = `${el.tagName.toLowerCase()}${type === null ? "" : `[type=${type}]`}`
      return `${tag}${el.className === "" ? "" : `.${String(el.className).split(" ").join(".")}`} "${name}"`
    }
    const root = document.documentElement
    if (root.scrollWidth > window.innerWidth) problems.push(`the page is ${root.scrollWidth} px wide`)
    const candidates = document.querySelectorAll<HTMLElement>(
      "a[href], button, input, select, textarea, summary, iframe, [tabindex]:not([tabindex='-1'])"
    )
    for (const el of Array.from(candidates)) {
      if (el.matches(":disabled") || !el.checkVisibility({ visibilityProperty: true })) continue
      el.focus()
      // Behind an open modal dialog everything is inert: it cannot be reached, nor should it be.
      if (document.activeElement !== el) continue
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5) {
        problems.push(`${describe(el)} spans ${Math.round(box.left)}–${Math.round(box.right)} px`)
      }
      // A link that wraps has several boxes, and the middle of their union may fall between the lines.
      const first = el.getClientRects()[0] ?? box
      const x = Math.min(Math.max(first.left + first.width / 2, 0), window.innerWidth - 1)
      const y = Math.min(Math.max(first.top + first.height / 2, 0), window.innerHeight - 1)
      const hit = document.elementFromPoint(x, y)
      const label = el instanceof HTMLInputElement ? el.labels?.[0] ?? null : el.closest("label")
      if (hit !== null && !el.contains(hit) && !(label?.contains(hit) ?? false)) {
        problems.push(`${describe(el)} is covered by ${describe(hit)}`)
      }
      const inlineLink = el.tagName === "A" && getComputedStyle(el).display === "inline"
      const target = (el.matches("input[type=radio], input[type=checkbox]") ? label : null) ?? el
      const size = target.getBoundingClientRect()
      if (!inlineLink && (size.width < 24 || size.height < 24)) {
        problems.push(`${describe(el)} is ${Math.round(size.width)}×${Math.round(size.height)} px`)
      }
    }
    return problems
  })

/**
 * Puts the page in a theme without loading it again, as the app and the system do: the `data-theme` attribute
 * My settings sets (theme.ts; public/theme.js sets it from the stored choice before the first paint, which the
 * last test of this file checks), and the system's colour scheme and forced colours, emulated.
 */
const wear = async (page: Page, theme: Theme) => {
  await page.emulateMedia({ colorScheme: theme.colorScheme, forcedColors: theme.forcedColors ?? "none" })
  await page.evaluate((stored) => {
    if (stored === null) document.documentElement.removeAttribute("data-theme")
    else document.documentElement.setAttribute("data-theme", stored)
  }, theme.stored)
}

interface Findings {
  background?: string
  axe?: ReadonlyArray<unknown>
  layout?: ReadonlyArray<string>
}

describe.skipIf(!hasChromium)("small screens and themes", () => {
  // One browser context per viewer (its own session), made when a screen first needs it.
  const pages = new Map<Viewer, Page>()
  const pageFor = async (viewer: Viewer) => {
    const known = pages.get(viewer)
    if (known !== undefined) return known
    const page = await (await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } })).newPage()
    pages.set(viewer, page)
    if (viewer === "signed out") return page
    const { password, username } = viewer === "owner" ? OWNER : seeded.annotator
    await page.goto(`${url}/sign-in`)
    await signIn(page, username, password)
    await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"))
    return page
  }

  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedResponsive(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    for (const page of pages.values()) await page.context().close()
    await browser?.close()
    await runtime.dispose()
  })

  // Each screen is loaded once and looked at in every theme: the themes change colours, not what the page holds,
  // and loading every screen once a theme was most of this file's time.
  for (const screen of SCREENS) {
    it(`${screen.name}: in every theme nothing scrolls sideways at ${WIDTH} px, every control is reachable, axe is clean`, async () => {
      const page = await pageFor(screen.as ?? "annotator")
      await page.goto(`${url}${screen.path(seeded)}`)
      await page.locator(screen.ready).first().waitFor()
      // Whatever else the screen loads (a select's options, counts) can widen it: check once it has all come.
      await page.waitForLoadState("networkidle")
      await screen.setup?.(page)
      const found: Record<string, Findings> = {}
      const expected: Record<string, Findings> = {}
      // axe in every theme first: the layout check moves the focus, which ends states such as the span editor's cursor.
      for (const theme of THEMES) {
        await wear(page, theme)
        const shot = `narrow-${theme.name}-${screen.name}`.replaceAll(" ", "-")
        if (README_SHOTS.has(shot)) await photograph(page, shot)
        onTestFailed(async () => {
          await wear(page, theme)
          console.warn(`${shot}: photographed into ${await photographFailure(page, shot)}`)
        })
        found[theme.name] = {
          background: await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
          axe: await axeViolations(page, `${screen.name} (${theme.name})`)
        }
        expected[theme.name] = { background: theme.background, axe: [], layout: [] }
      }
      for (const theme of THEMES) {
        await wear(page, theme)
        found[theme.name] = { ...found[theme.name], layout: await layoutProblems(page) }
      }
      expect(found).toEqual(expected)
    })
  }

  it("a theme chosen in My settings applies at once, and after a reload before the app's own script runs", async () => {
    const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, colorScheme: "light" })
    const page = await context.newPage()
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    const dataTheme = () => page.evaluate(() => document.documentElement.getAttribute("data-theme"))
    await page.goto(`${url}/sign-in?redirect=${encodeURIComponent("/user-settings")}`)
    await signIn(page, seeded.annotator.username, seeded.annotator.password)
    await page.getByRole("radio", { name: "System" }).waitFor()
    expect(await page.getByRole("radio", { name: "System" }).isChecked()).toBe(true)
    expect(await dataTheme()).toBeNull()
    expect(await background()).toBe("rgb(246, 247, 249)")

    // By keyboard: arrows move through the radio group, and each choice applies at once.
    await page.getByRole("radio", { name: "System" }).focus()
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("ArrowDown")
    expect(await dataTheme()).toBe("dark")
    expect(await background()).toBe("rgb(18, 20, 24)")
    await page.keyboard.press("ArrowDown")
    expect(await page.getByRole("radio", { name: "High contrast" }).isChecked()).toBe(true)
    expect(await dataTheme()).toBe("high-contrast")
    expect(await background()).toBe("rgb(0, 0, 0)")
    expect(await layoutProblems(page)).toEqual([])

    // Without the app's script (blocked), the stored theme is still in place: public/theme.js set it first.
    await page.route(/\/assets\/index-[^/]*\.js$/, (route) => route.abort())
    await page.reload()
    expect(await page.locator("#root").innerHTML()).toBe("")
    expect(await dataTheme()).toBe("high-contrast")
    expect(await background()).toBe("rgb(0, 0, 0)")
    await page.unroute(/\/assets\/index-[^/]*\.js$/)

    // Back to the system's theme: nothing stored, no attribute.
    await page.reload()
    await page.getByRole("radio", { name: "System" }).check()
    expect(await dataTheme()).toBeNull()
    expect(await page.evaluate(() => localStorage.getItem("gloss.theme"))).toBeNull()
    expect(await background()).toBe("rgb(246, 247, 249)")
    await context.close()
  }, 60_000)
})
