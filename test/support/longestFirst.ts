/**
 * The order files start in: the longest first, from each file's duration in a full CI run (durations.json, as
 * `npm run test:durations -- <log>` reads them from a run's output). Vitest's own order needs its results cache, which
 * a fresh clone has not got: it then starts the largest files first, and the slowest process-tier files (benchmarks
 * that start servers, the SDK suite) were left to the end, where they ran alone on a machine the other pool had
 * already left idle. Files not listed (new ones) go first, as vitest places files it knows nothing about.
 */
import { readFileSync } from "node:fs"
import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

const durations: Readonly<Record<string, number>> = JSON.parse(
  readFileSync(new URL("./durations.json", import.meta.url), "utf8")
)

export class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const root = this.ctx.config.root
    const seconds = (file: TestSpecification) =>
      durations[`${file.project.name}:${relative(root, file.moduleId)}`] ?? Number.POSITIVE_INFINITY
    return [...files].sort((a, b) => seconds(b) - seconds(a))
  }
}
