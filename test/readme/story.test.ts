/**
 * The README's API examples are one story — a dataset from scratch, records, a response, searches — and this runs
 * it: the shell blocks marked `<!-- readme-story -->`, in order, in one bash, against a fresh server started as the
 * README's "Run it" starts it (USERNAME=admin, API_KEY=admin.apikey, WORKSPACE=team). curl fails on any 4xx or 5xx, so a
 * README example that drifts from the API fails here. Needs bash, curl and jq (scripts/services.sh installs them).
 */
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestServer, TestServerLive } from "../support/server.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const MARK = "<!-- readme-story -->"

/** The shell blocks that follow the mark, in the README's order. */
export const storyBlocks = (readme: string): ReadonlyArray<string> =>
  readme.split(MARK).slice(1).map((after) => {
    const block = /^\s*```sh\n([\s\S]*?)\n```/.exec(after)
    if (block === null) throw new Error(`a ${MARK} is not followed by a sh block`)
    return block[1]!
  })

const missingTools = ["bash", "curl", "jq"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0)
if (missingTools.length > 0) {
  const reason = `${missingTools.join(", ")} missing (scripts/services.sh installs them)`
  if (process.env["CI"] === "true") throw new Error(`the README story cannot run: ${reason}`)
  console.warn(`readme: skipping the README story: ${reason}`)
}

describe("README", () => {
  it("marks the story's blocks: the dataset, the records, a response and the searches", () => {
    const blocks = storyBlocks(fs.readFileSync(path.join(ROOT, "README.md"), "utf8"))
    expect(blocks.length).toBe(4)
    expect(blocks[0]).toContain("http://localhost:6900/api/v1")
  })
})

/** Runs `script` in bash (stopped after a minute), collecting its output. */
const bash = (script: string) =>
  Effect.async<{ readonly status: number | null; readonly stdout: string; readonly stderr: string }>((resume) => {
    const child = spawn("bash", ["-c", script], { stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.on("close", (status) => {
      clearTimeout(timer)
      resume(Effect.succeed({ status, stdout, stderr }))
    })
    return Effect.sync(() => child.kill("SIGKILL"))
  })

const QUICKSTART = { USERNAME: "admin", PASSWORD: "change-me-please", API_KEY: "admin.apikey", WORKSPACE: "team" }

layer(TestServerLive("sqlite", QUICKSTART), { excludeTestServices: true, timeout: 60_000 })("README story", (it) => {
  it.effect.skipIf(missingTools.length > 0)("runs in order against a fresh server, every call answered 2xx, with the outputs it promises", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const blocks = storyBlocks(fs.readFileSync(path.join(ROOT, "README.md"), "utf8"))
      const script = [
        "set -euo pipefail",
        // Every call of the story must succeed: an error answer stops the script with its body.
        "curl() { command curl --fail-with-body --max-time 30 \"$@\"; }",
        ...blocks.map((block) => block.replaceAll("http://localhost:6900", url))
      ].join("\n")
      // Asynchronously: the server answering the script runs in this process.
      const run = yield* bash(script)
      const output = `${run.stdout}${run.stderr}`
      expect(run.status, output).toBe(0)
      const lines = run.stdout.trim().split("\n")
      expect(lines.slice(0, 5)).toEqual(["text", "sentiment", "stars", "embedding", "\"ready\""])
      expect(lines).toContain("submitted")
      expect(lines).toContain("completed")
      expect(lines.filter((line) => /^r\d$/.test(line))).toEqual(["r1", "r2", "r3"])
      expect(lines).toContain("{\"total\":3,\"completed\":1,\"pending\":2}")
      const textHit = lines.find((line) => line.includes("\"hits\""))
      expect(JSON.parse(textHit ?? "{}")).toMatchObject({ total: 1, hits: [{ id: "r1" }] })
      // A rare word in a three-record dataset gets a real BM25 score, not FTS5's 1e-06 floor.
      expect((JSON.parse(textHit ?? "{}") as { hits: Array<{ score: number }> }).hits[0]!.score).toBeGreaterThan(0.01)
      const similar = JSON.parse(lines.at(-1) ?? "[]") as Array<{ id: string }>
      expect(similar.map((hit) => hit.id)).toEqual(["r3", "r2"])
    }))
})
