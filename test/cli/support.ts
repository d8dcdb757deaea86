/**
 * The `gloss` command line as an operator runs it, for the CLI tests: processes started from a built bundle
 * (test/support/glossBundle.ts), their output collected, and whatever a failed test left running stopped.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll } from "vitest"
import { ROOT } from "../support/glossBundle.js"

export { buildCli, type BuildKind, ROOT } from "../support/glossBundle.js"

export const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), `gloss-cli-${prefix}-`))

/** The processes' home (~/.gloss, ~/.cache): never the developer's own. */
const HOME = tempDir("home")

const children = new Set<ChildProcess>()
// Registered in the root suite of the test file that imports this module: whatever a failed test left running
// does not outlive its file.
afterAll(() => {
  children.forEach((child) => child.kill("SIGKILL"))
  fs.rmSync(HOME, { recursive: true, force: true })
})

/** What every process gets: no Hub telemetry, the test home, and PATH (for `#!/usr/bin/env node`). */
const baseEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? "", HOME, HF_HUB_DISABLE_TELEMETRY: "1" })

export interface Running {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with the first match of `pattern` in stdout + stderr; rejects when the process exits first. */
  readonly waitFor: (pattern: RegExp, ms?: number) => Promise<RegExpExecArray>
  /** Resolves with the exit code (null after a signal). */
  readonly exited: Promise<number | null>
  /** SIGTERM, then the exit code. */
  readonly stop: () => Promise<number | null>
}

/**
 * Starts `command args` with `env` on top of the base environment; output is collected as written (with pipes for
 * stdout and stderr, `gloss` writes no colours: a test seeing an escape sequence has found a bug).
 */
export const start = (command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): Running => {
  const child = spawn(command, args, { cwd: ROOT, env: { ...baseEnv(), ...env } })
  children.add(child)
  let stdout = ""
  let stderr = ""
  const listeners = new Set<() => void>()
  const changed = () => listeners.forEach((listener) => listener())
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString()
    changed()
  })
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
    changed()
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      children.delete(child)
      resolve(code)
      changed()
    })
  )
  let done = false
  void exited.then(() => (done = true))
  const waitFor = (pattern: RegExp, ms = 20_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const found = pattern.exec(stdout + stderr)
        if (found !== null || done) {
          listeners.delete(check)
          clearTimeout(timer)
          if (found !== null) resolve(found)
          else reject(new Error(`exited before printing ${pattern}; output:\n${stdout}${stderr}`))
        }
      }
      const timer = setTimeout(() => {
        listeners.delete(check)
        reject(new Error(`timed out waiting for ${pattern}; output so far:\n${stdout}${stderr}`))
      }, ms)
      listeners.add(check)
      check()
    })
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor,
    exited,
    stop: () => {
      child.kill("SIGTERM")
      return exited
    }
  }
}

export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end. */
export const run = async (command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Ran> => {
  const running = start(command, args, env)
  const code = await running.exited
  return { code, stdout: running.stdout(), stderr: running.stderr() }
}

/** `gloss <args>` with the bundle at `cli`. */
export const gloss = (cli: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  run(process.execPath, [cli, ...args], env)

/** `gloss server` on a free loopback port; answers once it listens. */
export const startServer = async (cli: string, env: Record<string, string>) => {
  const server = start(process.execPath, [cli, "server"], { GLOSS_HOST: "127.0.0.1", GLOSS_PORT: "0", ...env })
  const [, port] = await server.waitFor(/Listening on http:\/\/127\.0\.0\.1:(\d+)/)
  return { ...server, url: `http://127.0.0.1:${port}` }
}

/** A JSON request to a running server; answers the status and the parsed body. */
export const api = async (url: string, key: string, method = "GET", body?: unknown) => {
  const response = await fetch(url, {
    method,
    headers: { "x-gloss-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) }
}

/** The body of a request that must succeed, as the type the test expects. */
export const ok = async <A>(request: Promise<{ readonly status: number; readonly body: unknown }>): Promise<A> => {
  const { body, status } = await request
  if (status >= 300) throw new Error(`expected success, got ${status}: ${JSON.stringify(body)}`)
  return body as A
}

/** A published dataset with a text field `text`, a label question and an integer metadata property `stars` (1–5). */
export const publishedDataset = async (url: string, key: string, workspaceName: string) => {
  const api1 = `${url}/api/v1`
  const workspace = await ok<{ id: string }>(api(`${api1}/workspaces`, key, "POST", { name: workspaceName }))
  const dataset = await ok<{ id: string }>(api(`${api1}/datasets`, key, "POST", { name: "reviews", workspace_id: workspace.id }))
  await ok(api(`${api1}/datasets/${dataset.id}/fields`, key, "POST", { name: "text", title: "Text", settings: { type: "text" } }))
  await ok(api(`${api1}/datasets/${dataset.id}/questions`, key, "POST", {
    name: "sentiment",
    title: "Sentiment",
    required: true,
    settings: { type: "label_selection", options: [{ value: "pos", text: "Positive" }, { value: "neg", text: "Negative" }] }
  }))
  await ok(api(`${api1}/datasets/${dataset.id}/metadata-properties`, key, "POST", {
    name: "stars",
    title: "Stars",
    settings: { type: "integer", min: 1, max: 5 }
  }))
  await ok(api(`${api1}/datasets/${dataset.id}/publish`, key, "PUT"))
  return dataset.id
}

export interface StoredRecord {
  readonly external_id: string | null
  readonly fields: Readonly<Record<string, unknown>>
  readonly metadata: Readonly<Record<string, unknown>> | null
}

/** Every record of a dataset, by external id. */
export const recordsOf = async (url: string, key: string, datasetId: string) => {
  const page = await ok<{ items: ReadonlyArray<StoredRecord> }>(api(`${url}/api/v1/datasets/${datasetId}/records?limit=1000`, key))
  return new Map(page.items.map((record) => [record.external_id ?? "", record]))
}
