/**
 * Gloss as an operator runs it, for the process tests: `gloss server` / `gloss worker` spawned from the built bundle
 * (test/support/glossBundle.ts) in a process group of their own (a fault kills the whole group, as a container's
 * end would), their output collected.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

import { buildCli, ROOT } from "./glossBundle.js"

export { ROOT }
/** The `gloss` bundle the process tests start (built once per source state, shared by every file). */
export const GLOSS = await buildCli("fast")
export const LISTENING = /Listening on http:\/\/127\.0\.0\.1:(\d+)/

export interface GlossProcess {
  readonly child: ChildProcess
  readonly output: () => string
}

/** `gloss <args>` with only PATH, a fresh HOME and `env`; its output (stdout and stderr) is collected. */
export const spawnGloss = (args: ReadonlyArray<string>, env: Record<string, string>): GlossProcess => {
  const child = spawn(process.execPath, [GLOSS, ...args], {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env.PATH ?? "", HOME: fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-")), ...env }
  })
  let out = ""
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (out += chunk.toString()))
  return { child, output: () => out }
}

/** The exit code (null when a signal ended it). */
export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode)
    child.once("exit", (code) => resolve(code))
  })

/** Waits (not asserts: no test checks speed) until the output matches; fails with the output if the process exits. */
export const waitFor = async (proc: GlossProcess, pattern: RegExp, ms = 60_000) => {
  const until = Date.now() + ms
  while (!pattern.test(proc.output())) {
    if (proc.child.exitCode !== null) throw new Error(`exited (${proc.child.exitCode}) before ${pattern}:\n${proc.output().slice(-3000)}`)
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; output so far:\n${proc.output().slice(-3000)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** The server's base URL once it says where it listens. */
export const listening = async (proc: GlossProcess) => {
  await waitFor(proc, LISTENING)
  return `http://127.0.0.1:${LISTENING.exec(proc.output())?.[1]}`
}

/**
 * Stops the process: SIGTERM to gloss (once: a second one would cut the graceful shutdown short); SIGKILL to the
 * whole group, as a container's end would.
 */
export const stop = async (proc: GlossProcess, signal: "SIGTERM" | "SIGKILL" = "SIGTERM") => {
  const done = exited(proc.child)
  try {
    if (signal === "SIGKILL") process.kill(-proc.child.pid!, signal)
    else proc.child.kill(signal)
  } catch {
    // Already gone.
  }
  return done
}
