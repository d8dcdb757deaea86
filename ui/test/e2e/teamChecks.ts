/**
 * The checks every screen of the team journeys gets: at 1280 px, and at 400 px in the light, dark and
 * high-contrast themes, axe finds no serious or critical violation; at 400 px nothing scrolls sideways and every
 * control that can take the focus lies within the width and is at least 24 px (inline links in text aside).
 */
import type { Page } from "playwright-core"
import { expect } from "vitest"
import { photographFailure } from "./browser.js"
import { axeViolations } from "./checks.js"

const THEMES = ["light", "dark", "high-contrast"] as const

const layoutProblems = (page: Page) =>
  page.evaluate(() => {
    const problems: Array<string> = []
    const root = document.documentElement
    if (root.scrollWidth > window.innerWidth) problems.push(`the page is ${root.scrollWidth} px wide`)
    const candidates = document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary")
    for (const el of Array.from(candidates)) {
      if (el.matches(":disabled") || !el.checkVisibility({ visibilityProperty: true })) continue
      el.focus()
      if (document.activeElement !== el) continue // behind an open modal dialog
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      const name = `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}"`
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5) problems.push(`${name} spans ${Math.round(box.left)}–${Math.round(box.right)} px`)
      const label = el instanceof HTMLInputElement ? el.labels?.[0] ?? null : null
      const target = (el.matches("input[type=radio], input[type=checkbox]") ? label : null) ?? el
      const size = target.getBoundingClientRect()
      const inlineLink = el.tagName === "A" && getComputedStyle(el).display === "inline"
      if (!inlineLink && (size.width < 24 || size.height < 24)) problems.push(`${name} is ${Math.round(size.width)}×${Math.round(size.height)} px`)
    }
    ;(document.activeElement as HTMLElement | null)?.blur()
    return problems
  })

/** Checks the screen as it is now at both widths and in every theme, then puts the page back at `width`. */
export const checkScreen = async (page: Page, screen: string, width = 1280) => {
  const height = page.viewportSize()?.height ?? 900
  await page.setViewportSize({ width: 1280, height })
  expect(await axeViolations(page, `${screen} (1280 px)`)).toEqual([])
  await page.setViewportSize({ width: 400, height })
  for (const theme of THEMES) {
    await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme)
    expect(await axeViolations(page, `${screen} (400 px, ${theme})`)).toEqual([])
  }
  await page.evaluate(() => document.documentElement.removeAttribute("data-theme"))
  const problems = await layoutProblems(page)
  // The narrow screen as it was, to look at: taken only when its layout check fails.
  if (problems.length > 0) console.warn(`team ${screen}: narrow screen photographed into ${await photographFailure(page, `team-narrow-${screen}`)}`)
  expect(problems).toEqual([])
  await page.setViewportSize({ width, height })
}
