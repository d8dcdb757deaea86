/**
 * Reads each test file's duration from the output of a full run (`npm test` or `.ci/run`, the lines vitest prints as
 * `✓ |project| file (N tests) 1234ms`) and writes test/support/durations.json, which the suite's sequencer
 * (test/support/longestFirst.ts) starts the longest files first from. Run it after a CI run on a changed suite:
 *   npm run test:durations -- ci.log
 */
import { readFileSync, writeFileSync } from "node:fs"

const [log] = process.argv.slice(2)
if (log === undefined) {
  console.error("usage: npm run test:durations -- <the output of a full test run>")
  process.exit(2)
}
// eslint-disable-next-line no-control-regex
const text = readFileSync(log, "utf8").replace(/\x1b\[[0-9;]*m/g, "")
const seconds = new Map<string, number>()
for (const match of text.matchAll(/✓ \|([\w-]+)(?: \(\w+\))?\| (\S+) \(\d+ tests?\) (\d+)ms/g)) {
  seconds.set(`${match[1]}:${match[2]}`, Math.round(Number(match[3]) / 100) / 10)
}
if (seconds.size === 0) {
  console.error(`no test file durations in ${log}: give the output of a full run`)
  process.exit(1)
}
const sorted = Object.fromEntries([...seconds].sort((a, b) => b[1] - a[1]))
writeFileSync(new URL("../test/support/durations.json", import.meta.url), `${JSON.stringify(sorted, null, 1)}\n`)
console.log(`wrote test/support/durations.json: ${seconds.size} files`)
