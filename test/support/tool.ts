/**
 * Runs a command-line tool (Schemathesis, pytest) to its end and collects what it prints, stdout and stderr in one
 * text. A run longer than `timeLimitMs` is killed, and the text then ends with "<label>: stopped after N s", so a
 * hanging tool fails its test instead of the whole test run; an interrupted test kills the tool too.
 */
import { spawn } from "node:child_process"
import { Effect } from "effect"

export interface ToolRun {
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly timeLimitMs: number
  readonly label: string
}

export const stoppedMessage = (label: string, timeLimitMs: number) => `${label}: stopped after ${timeLimitMs / 1000} s`

/**
 * A nested tool's output as the test log shows it: every line behind "  | ". CI judges a run by the test runners'
 * closing lines it finds in the log, and pytest's or Schemathesis's own ("=== 2 warnings in 49.82s ===", which
 * counts no test) must not stand alone on a line, where they would read as the closing line of the whole run.
 */
export const quoted = (output: string) =>
  output.split("\n").map((line) => `  | ${line}`).join("\n")

export const runTool = (command: string, args: ReadonlyArray<string>, run: ToolRun) =>
  Effect.async<{ readonly code: number | null; readonly output: string }>((resume) => {
    const child = spawn(command, args, { cwd: run.cwd, env: run.env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      output += `\n${stoppedMessage(run.label, run.timeLimitMs)}\n`
      child.kill("SIGKILL")
    }, run.timeLimitMs)
    child.on("close", (code) => {
      clearTimeout(timer)
      resume(Effect.succeed({ code, output }))
    })
    return Effect.sync(() => child.kill("SIGKILL"))
  })
