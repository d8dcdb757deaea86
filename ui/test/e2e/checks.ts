/** What the end-to-end tests check on every screen they show: axe finds nothing serious, nothing scrolls sideways. */
import { AxeBuilder } from "@axe-core/playwright"
import type { Page } from "playwright-core"
import { expect } from "vitest"

/**
 * The page's serious or critical accessibility violations as it is now, one line each, prefixed by `screen`. Axe
 * details only the violations (`resultTypes`): the same rules run and find the same violations, but the nodes that
 * pass, and those it cannot decide, are not each described and sent back from the page.
 */
export const axeViolations = async (page: Page, screen: string): Promise<Array<string>> => {
  const result = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze()
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${screen}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
}

/** No serious or critical accessibility violation on the page as it is now. */
export const checkA11y = async (page: Page, screen: string) => expect(await axeViolations(page, screen)).toEqual([])

/** How many pixels wider than the viewport the page is: more than 0 means it scrolls sideways. */
export const sidewaysOverflow = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

export const noSidewaysScroll = async (page: Page) => expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0)
