/** `gloss worker` as a process, and `--help` on every command the CLI registers. */
import * as fs from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildCli, gloss, start, tempDir } from "./support.js"

let cli = ""
const home = tempDir("worker")
beforeAll(async () => {
  cli = await buildCli("fast")
})
afterAll(() => fs.rmSync(home, { recursive: true, force: true }))

describe("gloss worker", () => {
  it("starts its job workers on the embedded queue and stops cleanly on SIGTERM", async () => {
    const worker = start(process.execPath, [cli, "worker", "-n", "3"], { GLOSS_HOME_PATH: home })
    await worker.waitFor(/Job workers started: 3 on the embedded queue/)
    expect(await worker.stop()).toBe(0)
    expect(worker.stderr()).toBe("")
  })

  it("-n 0 is refused with the accepted range and one failure line", async () => {
    const result = await gloss(cli, ["worker", "-n", "0"], { GLOSS_HOME_PATH: home })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("Expected a number between 1 and 64, actual 0")
    expect(result.stderr.trimEnd().split("\n").at(-1)).toBe(
      "gloss worker failed: invalid command line (see above; --help shows the usage)"
    )
  })
})

describe("--help", () => {
  it("works on every command, and every command the issue names is registered", async () => {
    const top = await gloss(cli, ["--help"])
    expect(top.code).toBe(0)
    // The COMMANDS section lists every command path: "  - users create --username text …   Create a user …"
    const commands = [...top.stdout.matchAll(/^ {2}- ([a-z][a-z-]*(?: [a-z][a-z-]*)?)(?= |$)/gm)].map((m) => m[1] ?? "")
    expect(commands).toEqual(expect.arrayContaining([
      "server", "worker", "db migrate", "bootstrap", "users create", "users list", "users update", "users delete",
      "workspaces create", "workspaces list", "workspaces add-user", "datasets list", "search reindex", "records import", "deploy",
      "login", "logout"
    ]))

    const failed: Array<string> = []
    // Two at a time: each process mostly loads modules, one CPU each.
    const queue = [...commands]
    const helpOf = async (): Promise<void> => {
      const command = queue.shift()
      if (command === undefined) return
      const words = command.split(" ")
      const result = await gloss(cli, [...words, "--help"])
      // The usage line names the command as it is typed: "$ gloss records import", not "$ import".
      if (result.code !== 0 || !result.stdout.includes("USAGE") || !new RegExp(`^\\$ gloss ${command}(?: |$)`, "m").test(result.stdout)) {
        failed.push(`${command}: exit ${result.code}\n${result.stdout}${result.stderr}`)
      }
      return helpOf()
    }
    await Promise.all([helpOf(), helpOf()])
    expect(failed).toEqual([])
    // A process start per command (two dozen of them), on a machine the rest of the suite shares.
  }, 120_000)

  it("a group's help names its subcommands in full; piped output has no colours, with or without NO_COLOR", async () => {
    const group = await gloss(cli, ["records", "--help"])
    expect(group.stdout).toContain("\n$ gloss records\n")
    expect(group.stdout).toMatch(/^ {2}- records import --dataset text \[--batch-size integer\] <file> /m)
    const invalid = await gloss(cli, ["records", "import", "--batch-size", "x"], { NO_COLOR: "1" })
    expect(invalid.code).toBe(1)
    for (const output of [group.stdout, group.stderr, invalid.stdout, invalid.stderr]) expect(output).not.toContain("\u001b[")
  })

  it("optional options are shown in brackets: --workspace of users create and datasets list", async () => {
    const top = await gloss(cli, ["--help"])
    expect(top.stdout).toMatch(/^ {2}- users create .*\[--workspace text\.\.\.\]/m)
    expect(top.stdout).toMatch(/^ {2}- datasets list \[--workspace text\] /m)
  })
})
