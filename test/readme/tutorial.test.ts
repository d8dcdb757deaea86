/**
 * The tutorial (docs/tutorial/first-dataset.md) must stay right for the code as it is:
 * - every `npm run gloss -- …` it shows names a real command, with options that command has, its required options
 *   and as many arguments as it takes (read from the command line's own definitions, through the generated
 *   reference page's usage lines);
 * - every screenshot it shows exists, and `npm run docs:screenshots` takes exactly those;
 * - its story runs: a server started as it says (no owner variables), then the browser's part through the API as the
 *   UI sends it — the set-up page, the new dataset, the import of the CSV its `<!-- tutorial-check -->` block writes,
 *   the invitation accepted by the colleague, both answering, the export dialog — and the export holds every record
 *   with both annotators' names.
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
import { clientFor, clientWith, TestServerLive } from "../support/server.js"
import { zipEntries } from "../support/zipEntries.js"

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
    expect(commands.length).toBeGreaterThanOrEqual(3)
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
/** The tutorial starts the server without the owner variables: the owner comes from the set-up page. */
const NO_OWNER = { USERNAME: "", PASSWORD: "", API_KEY: "" }

layer(TestServerLive("sqlite", NO_OWNER), { excludeTestServices: true, timeout: 60_000 })("the tutorial's story", (it) => {
  it.effect("runs against a server started as it says: set-up, dataset, import, invitation, answers, export", () =>
    Effect.gen(function*() {
      expect(START).toEqual({})
      const anonymous = yield* clientFor()
      // The set-up page, from the server's own machine (no token needed there), as the tutorial's reader fills it in.
      expect(yield* anonymous.setup.status()).toEqual({ needed: true, token_required: false })
      const session = yield* anonymous.setup.create({
        payload: { username: "admin", password: "change-me-please", first_name: "Ada", workspace: "team" }
      })
      const owner = yield* clientWith({ authorization: `Bearer ${session.access_token}` })
      const me = yield* owner.me.me()
      expect([me.username, me.role]).toEqual(["admin", "owner"])
      expect((yield* anonymous.setup.status()).needed).toBe(false)

      // The new dataset form and the importer, as they send it.
      const workspace = (yield* owner.me.workspaces()).items.find((w) => w.name === "team")
      if (workspace === undefined) throw new Error("the set-up made no workspace 'team'")
      const dataset = yield* owner.datasets.create({
        payload: { name: "product-reviews", workspace_id: workspace.id, distribution: { strategy: "overlap", min_submitted: 2 } }
      })
      yield* owner.fields.create({ path: { id: dataset.id }, payload: { name: "text", title: "Text", required: true, settings: { type: "text" } } })
      const question = yield* owner.questions.create({
        path: { id: dataset.id },
        payload: {
          name: "sentiment",
          title: "Sentiment",
          required: true,
          settings: { type: "label_selection", options: ["positive", "negative", "neutral"].map((value) => ({ value, text: value })) }
        }
      })
      yield* owner.datasets.publish({ path: { id: dataset.id } })

      // The one shell block after the start: the CSV the reader saves, imported as the importer does.
      const blocks = markedBlocks(tutorial, "tutorial-check")
      expect(blocks.length).toBe(1)
      const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-tutorial-"))
      const run = yield* Effect.promise(() =>
        promisify(execFile)("bash", ["-c", `set -euo pipefail\n${blocks[0]}`], { cwd, timeout: 30_000 })
          .then(() => true, (error: Error) => error)
      )
      expect(run).toBe(true)
      expect(fs.readFileSync(path.join(cwd, "reviews.csv"), "utf8")).toBe(reviewsCsv(tutorial))
      fs.rmSync(cwd, { recursive: true, force: true })
      const rows = reviews(tutorial).map(({ external_id, text }) => ({ external_id, fields: { text } }))
      yield* owner.records.bulkCreate({ path: { id: dataset.id }, payload: { items: rows } })

      // The invitation: an annotator of `team`, accepted by the colleague, who then sees the dataset and answers.
      const invitation = yield* owner.invitations.create({ payload: { role: "annotator", workspace_ids: [workspace.id] } })
      const accepted = yield* anonymous.invitations.accept({
        payload: { token: invitation.token, username: "maria", password: "maria-password", first_name: "Maria" }
      })
      const maria = yield* clientWith({ authorization: `Bearer ${accepted.access_token}` })
      expect((yield* maria.me.me()).role).toBe("annotator")
      const hers = yield* maria.datasets.listMine({ urlParams: {} })
      expect(hers.items.map((d) => d.name)).toEqual(["product-reviews"])
      const first = (yield* owner.records.list({ path: { id: dataset.id }, urlParams: { limit: 1 } })).items[0]
      if (first === undefined) throw new Error("no record was imported")
      for (const who of [owner, maria]) {
        yield* who.responses.create({
          path: { id: first.id },
          payload: { status: "submitted", values: { [question.name]: { value: "positive" } } }
        })
      }

      // The export dialog: an Argilla dataset zip of every record, with both answers and their usernames.
      const started = yield* owner.exports.start({ path: { id: dataset.id }, payload: { format: "argilla-disk" } })
      let status = started.status
      for (let polls = 0; status !== "finished" && status !== "failed" && polls < 600; polls++) {
        yield* Effect.sleep("100 millis")
        status = (yield* owner.jobs.get({ path: { id: started.id } })).status
      }
      expect(status).toBe("finished")
      const files = zipEntries(yield* owner.exports.download({ path: { id: started.id } }))
      const records = JSON.parse(files.get("records.json")?.toString() ?? "[]") as ReadonlyArray<unknown>
      expect(records.length).toBe(8)
      const users = JSON.parse(files.get(".argilla/users.json")?.toString() ?? "[]") as ReadonlyArray<{ username: string }>
      expect(users.map((u) => u.username).toSorted()).toEqual(["admin", "maria"])
    }), 180_000)
})
