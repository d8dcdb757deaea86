/**
 * What the command line writes, in-process: colours only for a terminal without NO_COLOR, usage lines that name the
 * whole command, `records import` progress (a bar on a terminal, a line a batch elsewhere) and failure wording.
 * The processes' side of the same is in admin-commands and worker-and-help.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Console, Effect } from "effect"
import { importFailure, importProgress } from "../../src/cli/importReport.js"
import { fullCommandNames, terminalOutput } from "../../src/cli/terminalOutput.js"

const BOLD_USAGE = "\u001b[0;1mUSAGE\u001b[0m"

/** What `effect` writes through the console, with stdout and stderr as (not) terminals and `env` as the environment. */
const written = (tty: boolean, env: Record<string, string>, effect: Effect.Effect<void>) =>
  Effect.gen(function*() {
    const out: Array<string> = []
    const base = yield* Effect.console
    const capture: Console.Console = {
      ...base,
      log: (...args) => Effect.sync(() => out.push(`out:${args.join(" ")}`)),
      error: (...args) => Effect.sync(() => out.push(`err:${args.join(" ")}`))
    }
    yield* effect.pipe(
      terminalOutput(["records", "import"], { stdout: { isTTY: tty }, stderr: { isTTY: tty } }),
      Console.withConsole(capture),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
    )
    return out
  })

const help = `${BOLD_USAGE}\n\n$ import --dataset text <file>\n`

describe("terminal output", () => {
  it.effect("colours stay on a terminal, and go when it is not one or NO_COLOR is set", () =>
    Effect.gen(function*() {
      const print = Effect.zipRight(Console.log(help), Console.error(BOLD_USAGE))
      expect(yield* written(true, {}, print)).toEqual([
        `out:${BOLD_USAGE}\n\n$ gloss records import --dataset text <file>\n`,
        `err:${BOLD_USAGE}`
      ])
      const plain = ["out:USAGE\n\n$ gloss records import --dataset text <file>\n", "err:USAGE"]
      expect(yield* written(false, {}, print)).toEqual(plain)
      expect(yield* written(true, { NO_COLOR: "1" }, print)).toEqual(plain)
      // no-color.org: an empty NO_COLOR is as good as none.
      expect((yield* written(true, { NO_COLOR: "" }, print))[1]).toBe(`err:${BOLD_USAGE}`)
    }))

  it("usage lines and a group's subcommands name the whole command; other text is left alone", () => {
    const group = "USAGE\n\n$ records\n\nCOMMANDS\n\n  - import --dataset text <file>  Import records\n"
    expect(fullCommandNames(group, ["records"])).toBe(
      "USAGE\n\n$ gloss records\n\nCOMMANDS\n\n  - records import --dataset text <file>  Import records\n"
    )
    expect(fullCommandNames("$ import is not help\n", ["records", "import"])).toBe("$ import is not help\n")
    expect(fullCommandNames(help, [])).toBe(help)
  })
})

describe("records import progress and failures", () => {
  const output = (isTTY: boolean) => {
    const chunks: Array<string> = []
    return { chunks, out: { isTTY, write: (text: string) => chunks.push(text) } }
  }

  it("not a terminal: a plain line a batch, and a last line with the exact count when the estimate was off", () => {
    const { chunks, out } = output(false)
    const progress = importProgress(out, 4)
    progress.batch(2)
    progress.batch(3)
    progress.done(3)
    expect(chunks.join("")).toBe("2/4 records imported\n3/4 records imported\n3/3 records imported\n")
    expect(chunks.join("")).not.toContain("\r")
  })

  it("a terminal: one bar redrawn in place, ended by a newline (before a failure's message too)", () => {
    const { chunks, out } = output(true)
    const progress = importProgress(out, 3)
    progress.batch(2)
    progress.done(3)
    expect(chunks).toEqual([`\r[${"#".repeat(20)}${"-".repeat(10)}] 2/3 records`, `\r[${"#".repeat(30)}] 3/3 records`, "\n"])

    const failed = output(true)
    const stopped = importProgress(failed.out, 3)
    stopped.failed()
    expect(failed.chunks).toEqual([])
    stopped.batch(1)
    stopped.failed()
    expect(failed.chunks.at(-1)).toBe("\n")
  })

  it("a failure says which lines were imported, in one word: line", () => {
    expect(importFailure({ first: 1, last: 500 }, "line 731: not valid JSON")).toBe(
      "lines 1–500 were imported; line 731: not valid JSON; nothing after line 500 was imported"
    )
    expect(importFailure({ first: 2, last: 2 }, "line 3: not a JSON object")).toBe(
      "line 2 was imported; line 3: not a JSON object; nothing after line 2 was imported"
    )
    expect(importFailure(undefined, "line 1: not valid JSON")).toBe("line 1: not valid JSON; nothing was imported")
  })
})
