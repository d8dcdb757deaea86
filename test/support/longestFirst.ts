/**
 * The order files start in: the longest first, from each file's duration in a full CI run (durations.json, as
 * `npm run test:durations -- <log>` reads them from a run's output). Vitest's own order needs its results cache, which
 * a fresh clone has not got: it then starts the largest files first, and the slowest process-tier files (benchmarks
 * that start servers, the SDK suite) were left to the end, where they ran alone on a machine the other pool had
 * already left idle. A file not listed yet (a new one) is taken for an ordinary file of `UNLISTED_SECONDS`.
 */
import { readFileSync } from "node:fs"
import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

const durations: Readonly<Record<string, number>> = JSON.parse(
  readFileSync(new URL("./durations.json", import.meta.url), "utf8")
)

/** About the median of a listed file's duration: a new file neither jumps the long ones nor waits behind the short. */
const UNLISTED_SECONDS = 20

export class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const root = this.ctx.config.root
    const seconds = (file: TestSpecification) =>
      durations[`${file.project.name}:${relative(root, file.moduleId)}`] ?? UNLISTED_SECONDS
    return [...files].sort((a, b) => seconds(b) - seconds(a))
  }
}
