/** Debian's Chromium for playwright-core (browsers cannot be downloaded here), and what the test run needs around it. */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { chromium } from "playwright-core"

export const CHROMIUM = "/usr/bin/chromium"
export const hasChromium = existsSync(CHROMIUM)

export const repoPath = (relative: string) => fileURLToPath(new URL(`../../../${relative}`, import.meta.url))

/**
 * Screenshots go to docs/screenshots (the README shows them) only when asked with GLOSS_SCREENSHOTS=1, so an
 * ordinary test run leaves the working tree clean; otherwise they are still taken, into a temporary folder.
 */
export const SCREENSHOTS = process.env["GLOSS_SCREENSHOTS"] === "1"
  ? repoPath("docs/screenshots")
  : join(tmpdir(), "gloss-screenshots")

/** Builds the UI into dist/ui, where the server under test serves it from. */
export const buildUi = () => {
  const vite = repoPath("node_modules/vite/bin/vite.js")
  execFileSync(process.execPath, [vite, "build", "--config", repoPath("ui/vite.config.ts"), "--logLevel", "warn"], {
    cwd: repoPath("."),
    stdio: "inherit",
    // Vitest sets NODE_ENV=test, which would give React's development build.
    env: { ...process.env, NODE_ENV: "production" }
  })
  mkdirSync(SCREENSHOTS, { recursive: true })
}

export const launch = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // No network here: keep Chromium from calling home at start.
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
  })
