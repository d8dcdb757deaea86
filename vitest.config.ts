/// <reference types="@vitest/browser/providers/playwright" />
import { existsSync } from "node:fs"
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config"
import { type Tier, tiers } from "./test/support/tiers.js"

/**
 * The test suite in tiers (test/support/tiers.ts says which file is in which; test/unit/test-tiers.test.ts checks
 * that every file is in exactly one):
 *
 *   npm run test:unit          no services and no child processes                  project unit
 *   npm run test:integration   in-process server on SQLite and PostgreSQL, Redis    project integration
 *   npm run test:engines       Elasticsearch and OpenSearch                         project engines
 *   npm run test:process       spawned servers and CLI, benchmarks, Python, README  project process
 *   npm run test:browser       Chromium: components, end-to-end journeys           projects browser, browser-e2e
 *   npm test                   all of them (what CI runs)
 *
 * Files run in parallel, so files that share a service keep apart: each has its own database (freshDatabase), Redis
 * key prefix (testSettings), index names (random dataset ids), ports (0: the system picks) and temporary folders.
 *
 * The web UI's browser tests (components in Vitest browser mode, the end-to-end journeys with playwright-core) run
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

/**
 * How the files share this 2-core machine, where a full run is bound by CPU and most of a file's CPU went into
 * starting a process and importing the server's modules again:
 *
 * - The tiers whose tests run the server in the test process (unit, integration, engines) run in forks that keep
 *   their imported modules from one file to the next (`isolate: false`): each file builds its own layers, database
 *   and server, and none changes global state, so a fork imports Effect and the server once, not once a file. Vitest
 *   runs such a pool's projects one after another.
 * - The tiers that spawn processes or drive Chromium (process, browser-e2e) run beside them in threads, a fresh one
 *   per file: their files register clean-ups when their helpers are imported, so they must not share modules.
 *
 * WORKERS files at a time in each pool (most of a file's time is spent waiting on PostgreSQL, Redis, a cluster, a
 * child process or Chromium). GLOSS_TEST_WORKERS overrides it.
 */
const WORKERS = Number(process.env["GLOSS_TEST_WORKERS"] ?? 2)

/** In a fork that keeps its modules. */
const KEEP = { pool: "forks", poolOptions: { forks: { isolate: false } } } as const
/** In a thread of its own. */
const FRESH = { pool: "threads" } as const

/**
 * Limits catch a hang; they do not time a test. In a full run every file shares the two cores with a load average
 * near ten, so a test takes two to four times what it takes alone, and the official CI's machine is slower still:
 * tests of 20-27 s there sat under a 30 s limit, and two browser tests (eight axe passes over the settings tabs, a
 * thousand-user table) failed it. A test's own longer limit, where it has one, stands.
 */
const TEST_TIMEOUT = 60_000
/** A spawned process or a Chromium page waits for a CPU the most: process start-ups, browser steps. */
const PROCESS_TEST_TIMEOUT = 120_000

const project = (name: string, tier: Tier, test: TestProjectInlineConfiguration["test"] = {}): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include: [...tier.include], exclude: [...configDefaults.exclude, ...(tier.exclude ?? [])], ...test }
})

export default defineConfig({
  test: {
    testTimeout: TEST_TIMEOUT,
    hookTimeout: 60_000,
    // vitest's own summary, then a plain `tests: N passed, N failed, N skipped` line that CI log readers know.
    reporters: ["default", "./test/support/plainSummary.ts"],
    pool: "forks",
    // Everything but the unit tier runs after it, together.
    sequence: { groupOrder: 1 },
    poolOptions: {
      forks: { maxForks: WORKERS, minForks: 1, isolate: false },
      threads: { maxThreads: WORKERS, minThreads: 1, isolate: true }
    },
    projects: [
      // First and alone: quick, CPU-bound, and one of them times a computation. In forks, not threads: a thread
      // cannot be terminated while a worker thread it started is inside a native call (the interrupted SQLite reader
      // test leaves one finishing its statement), and vitest then fails the run with "Failed to terminate worker".
      // The forks pool is the same for unit, integration and engines, so all three keep modules.
      project("unit", tiers.unit.unit, { ...KEEP, sequence: { groupOrder: 0 } }),
      project("integration", tiers.integration.integration, KEEP),
      project("engines", tiers.engines.engines, KEEP),
      project("process", tiers.process.process, { ...FRESH, testTimeout: PROCESS_TEST_TIMEOUT }),
      // The journeys are served the UI built once for the run (test/support/buildUiOnce.ts), not once a file.
      // Their `expect.poll`s wait for what a screen shows once the server has answered: vitest's default of 1 s
      // is a unit test's, and on a loaded machine a screen's first data takes longer (the bulk view's pager read
      // "no records of 0", its loading state, when a 1 s poll gave up). Playwright's own waits are longer still.
      project("browser-e2e", tiers.browser["browser-e2e"], {
        ...FRESH,
        testTimeout: PROCESS_TEST_TIMEOUT,
        expect: { poll: { timeout: 10_000 } },
        ...(hasChromium ? { globalSetup: ["./test/support/buildUiOnce.ts"] } : {})
      }),
      ...(hasChromium
        ? [{
          esbuild: { jsx: "automatic" as const },
          optimizeDeps: {
            include: ["react", "react/jsx-dev-runtime", "react-dom/client", "@tanstack/react-query", "effect", "marked", "dompurify", "vitest-browser-react"]
          },
          test: {
            name: "browser",
            include: [...tiers.browser.browser.include],
            sequence: { groupOrder: 1 },
            testTimeout: PROCESS_TEST_TIMEOUT,
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
