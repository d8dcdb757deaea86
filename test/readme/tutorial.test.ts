/**
 * The tutorial (docs/tutorial/first-dataset.md) must stay right for the code as it is:
 * - every `npm run gloss -- …` it shows names a real command, with options that command has, its required options
 *   and as many arguments as it takes (read from the command line's own definitions, through the generated
 *   reference page's usage lines);
 * - every screenshot it shows exists, and `npm run docs:screenshots` takes exactly those;
 * - its story runs: a server started with the tutorial's variables, the `<!-- tutorial-check -->` blocks in order
 *   in one bash (the CSV, the colleague's account, the login and the export), with the browser's part — the dataset
 *   and the import — done through the API as the UI does it; the colleague then sees the dataset, and the export
 *   holds every record.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { cliPage } from "../../scripts/docs/reference.js"
import { glossCommands, markedBlocks, readTutorial, reviews, reviewsCsv, startEnv } from "../../scripts/docs/tutorial.js"
import { clientFor, OWNER, TestServer, TestServerLive } from "../support/server.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const tutorial = readTutorial()

interface Usage {
  readonly path: ReadonlyArray<string>
  /** option name → whether it takes a value, and whether it is required */
  readonly options: ReadonlyMap<string, { readonly value: boolean; readonly required: boolean }>
  readonly args: number
}

/** The usage lines of the command line reference (`gloss users create --username text … <file>`). */
const usages = (): ReadonlyArray<Usage> =>
  [...cliPage().matchAll(/```sh\n(gloss [^\n]+)\n```/g)].map((m) => {
    const words = (m[1] ?? "").split(" ").slice(1)
    const commandPath = words.slice(0, words.findIndex((w) => !/^[a-z][a-z-]*$/.test(w)) >>> 0)
    const options = new Map<string, { value: boolean; required: boolean }>()
    for (const option of (m[1] ?? "").matchAll(/(\[\(?)?(?:-\w, )?--([a-z][a-z-]*)( (?!\[|--|<)\S)?/g)) {
      options.set(option[2] ?? "", { value: option[3] !== undefined, required: option[1] === undefined })
    }
    return { path: commandPath, options, args: (m[1]?.match(/<[^>]+>/g) ?? []).length }
  })

/** What is wrong with `npm run gloss -- <command>` (empty: nothing). */
const problemsOf = (command: string, known: ReadonlyArray<Usage>): ReadonlyArray<string> => {
  const partial = command.endsWith("…")
  const words = command.replace(/<[^>]*>/g, "X").replace(/\s*…$/, "").split(/\s+/)
  const isGroup = (u: Usage) => known.some((other) => other.path.length > u.path.length && u.path.every((w, i) => other.path[i] === w))
  const usage = known
    .filter((u) => u.path.length > 0 && !isGroup(u) && u.path.every((w, i) => words[i] === w))
    .toSorted((a, b) => b.path.length - a.path.length)[0]
  if (usage === undefined) return [`${command}: no such command`]
  const problems: Array<string> = []
  const given = new Set<string>()
  let args = 0
  for (let i = usage.path.length; i < words.length; i++) {
    const word = words[i] ?? ""
    if (!word.startsWith("--")) {
      args++
      continue
    }
    const option = usage.options.get(word.slice(2))
    if (option === undefined) problems.push(`${command}: gloss ${usage.path.join(" ")} has no ${word}`)
    else if (option.value) i++
    given.add(word.slice(2))
  }
  if (!partial) {
    for (const [name, option] of usage.options) {
      if (option.required && !given.has(name)) problems.push(`${command}: --${name} is required`)
    }
    if (args !== usage.args) problems.push(`${command}: ${args} arguments given, gloss ${usage.path.join(" ")} takes ${usage.args}`)
  }
  return problems
}

describe("the tutorial", () => {
  it("names real commands of the command line, with their options and arguments", () => {
    const commands = glossCommands(tutorial)
    expect(commands.length).toBeGreaterThanOrEqual(5)
    const known = usages()
    expect(commands.flatMap((command) => problemsOf(command, known))).toEqual([])
    // The checker itself catches what it should.
    expect(problemsOf("users create --username x --pasword y", known)).toEqual([
      "users create --username x --pasword y: gloss users create has no --pasword",
      "users create --username x --pasword y: --password is required",
      "users create --username x --pasword y: 1 arguments given, gloss users create takes 0"
    ])
    expect(problemsOf("datasets export a", known)).toEqual(["datasets export a: 1 arguments given, gloss datasets export takes 2"])
    expect(problemsOf("users invite x", known)).toEqual(["users invite x: no such command"])
  })

  it("shows the screenshots the screenshot script takes, and they exist", () => {
    const shown = [...tutorial.matchAll(/\]\(\.\.\/screenshots\/([^)]+)\)/g)].map((m) => m[1] ?? "")
    const script = fs.readFileSync(path.join(ROOT, "scripts/docs/screenshots.ts"), "utf8")
    const taken = [...script.matchAll(/shoot\(\w+, "([^"]+)"\)/g)].map((m) => `tutorial-${m[1]}.png`)
    expect(shown.toSorted()).toEqual(taken.toSorted())
    for (const file of shown) expect(fs.existsSync(path.join(ROOT, "docs/screenshots", file)), file).toBe(true)
  })
})

const START = startEnv(tutorial)

layer(TestServerLive("sqlite", { ...START }), { excludeTestServices: true, timeout: 60_000 })("the tutorial's story", (it) => {
  it.effect("runs against a server started as it says: the colleague's account, the login and the export", () =>
    Effect.gen(function*() {
      const { env, url } = yield* TestServer
      expect(Object.keys(START).toSorted()).toEqual(["PASSWORD", "USERNAME", "WORKSPACE"])
      const owner = yield* clientFor(OWNER.apiKey)
      const me = yield* owner.me.me()
      expect([me.username, me.role]).toEqual([START["USERNAME"], "owner"])

      // The browser's part, as the new dataset form and the importer send it.
      const workspace = (yield* owner.me.workspaces()).items.find((w) => w.name === START["WORKSPACE"])
      if (workspace === undefined) throw new Error(`no workspace ${START["WORKSPACE"]} at start`)
      const dataset = yield* owner.datasets.create({
        payload: { name: "product-reviews", workspace_id: workspace.id, distribution: { strategy: "overlap", min_submitted: 2 } }
      })
      yield* owner.fields.create({ path: { id: dataset.id }, payload: { name: "text", title: "Text", required: true, settings: { type: "text" } } })
      yield* owner.questions.create({
        path: { id: dataset.id },
        payload: {
          name: "sentiment",
          title: "Sentiment",
          required: true,
          settings: { type: "label_selection", options: ["positive", "negative", "neutral"].map((value) => ({ value, text: value })) }
        }
      })
      yield* owner.datasets.publish({ path: { id: dataset.id } })
      const rows = reviews(tutorial).map(({ external_id, text }) => ({ external_id, fields: { text } }))
      yield* owner.records.bulkCreate({ path: { id: dataset.id }, payload: { items: rows } })

      // The shell blocks, in order, in one bash, in a folder of their own; `npm run gloss --` is the command line.
      const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-tutorial-"))
      const blocks = markedBlocks(tutorial, "tutorial-check")
      expect(blocks.length).toBe(3)
      const script = [
        "set -euo pipefail",
        `npm() { [ "$1 $2 $3" = "run gloss --" ] || { echo "unexpected: npm $*" >&2; return 2; }; shift 3; "${ROOT}/node_modules/.bin/tsx" "${ROOT}/src/bin/gloss.ts" "$@"; }`,
        ...blocks.map((block) => block.replaceAll("http://localhost:6900", url).replaceAll("paste-your-api-key-here", OWNER.apiKey))
      ].join("\n")
      const run = yield* Effect.promise(() =>
        promisify(execFile)("bash", ["-c", script], {
          cwd,
          timeout: 170_000,
          // The command line opens the server's database (GLOSS_HOME_PATH…), as the tutorial says it must.
          env: { ...process.env, ...env, GLOSS_CACHE_DIR: path.join(cwd, ".cache"), TSX_TSCONFIG_PATH: path.join(ROOT, "tsconfig.json"), NO_COLOR: "1" }
        }).then((out) => ({ ok: true as const, ...out }), (error: { stdout?: string; stderr?: string; message: string }) => ({ ok: false as const, stdout: error.stdout ?? "", stderr: `${error.message}\n${error.stderr ?? ""}` }))
      )
      expect(run.ok, `${run.stdout}${run.stderr}`).toBe(true)
      expect(fs.readFileSync(path.join(cwd, "reviews.csv"), "utf8")).toBe(reviewsCsv(tutorial))
      const key = /API key: (\S+)/.exec(run.stdout)?.[1]
      expect(run.stdout).toContain("Created annotator 'maria'")
      expect(run.stdout).toContain("Exported dataset product-reviews (8 records)")

      // The colleague's key works, and she sees the dataset: she is a member of the workspace.
      const maria = yield* clientFor(key ?? "")
      const hers = yield* maria.datasets.listMine({ urlParams: {} })
      expect(hers.items.map((d) => d.name)).toEqual(["product-reviews"])
      const exported = JSON.parse(fs.readFileSync(path.join(cwd, "product-reviews-export", "records.json"), "utf8")) as ReadonlyArray<unknown>
      expect(exported.length).toBe(8)
      fs.rmSync(cwd, { recursive: true, force: true })
    }), 180_000)
})
