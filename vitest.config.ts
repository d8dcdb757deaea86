/// <reference types="@vitest/browser/providers/playwright" />
import { existsSync } from "node:fs"
import { defineConfig } from "vitest/config"

/**
 * The web UI's browser tests (components in Vitest browser mode, the end-to-end journey with playwright-core) run
 * in Debian's Chromium: browsers cannot be downloaded here. Without it they are skipped with a printed reason,
 * except under CI=true, where that is a failure.
 */
const CHROMIUM = "/usr/bin/chromium"
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) {
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or run scripts/services.sh)`
  if (process.env["CI"] === "true") throw new Error(`UI browser tests cannot run: ${reason}`)
  console.warn(`ui: skipping the browser tests of ui/test/browser and ui/test/e2e: ${reason}`)
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // vitest's own summary, then a plain `tests: N passed, N failed, N skipped` line that CI log readers know.
    reporters: ["default", "./test/support/plainSummary.ts"],
    // Database tests share one PostgreSQL server; files use their own schemas, so they may run in parallel.
    pool: "forks",
    projects: [
      { extends: true, test: { name: "server", include: ["test/**/*.test.ts"] } },
      { extends: true, test: { name: "ui", include: ["ui/test/unit/**/*.test.ts", "ui/test/e2e/**/*.test.ts"] } },
      ...(hasChromium
        ? [{
          esbuild: { jsx: "automatic" as const },
          optimizeDeps: {
            include: ["react", "react/jsx-dev-runtime", "react-dom/client", "@tanstack/react-query", "effect", "marked", "dompurify", "vitest-browser-react"]
          },
          test: {
            name: "ui-browser",
            include: ["ui/test/browser/**/*.test.tsx"],
            testTimeout: 30_000,
            browser: {
              enabled: true,
              provider: "playwright" as const,
              headless: true,
              screenshotFailures: false,
              instances: [{
                browser: "chromium" as const,
                launch: {
                  executablePath: CHROMIUM,
                  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
                }
              }]
            }
          }
        }]
        : [])
    ]
  }
})
