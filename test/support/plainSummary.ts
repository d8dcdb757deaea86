import { writeFileSync } from "node:fs"
import type { Reporter, TestModule } from "vitest/node"

/**
 * Ends every run with one plain line, `tests: N passed, N failed, N skipped`, after vitest's own summary.
 *
 * Why: CI logs are read by tools that know pytest's or go test's closing lines, not vitest's boxed summary
 * (`Tests  1069 passed (1069)`); a log they cannot read counts as a run that executed no test.
 * With GLOSS_TEST_SUMMARY_FILE set the line goes to that file instead, so `.ci/run` can print it as its very last
 * line, after its own timing.
 */
export default class PlainSummary implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") counts.passed++
        else if (state === "failed") counts.failed++
        else counts.skipped++
      }
    }
    const line = `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`
    const file = process.env["GLOSS_TEST_SUMMARY_FILE"]
    if (file) writeFileSync(file, line)
    else process.stdout.write(`\n${line}`)
  }
}
