/**
 * The server as an operator runs it: `gloss server` in its own process. Slower than the in-process tests, so only
 * what needs a real process lives here: start-up failures, signals, the default configuration.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { FIRST_OWNER_HINT } from "../../src/Bootstrap.js"
import { buildCli, ensureDistServer } from "../support/glossBundle.js"
import { GLOSS } from "../support/processes.js"

const ROOT = path.resolve(import.meta.dirname, "../..")

// An app module imports effect and @effect/platform from node_modules, so its server must too: the shipping build.
const SHIPPING = await buildCli("shipping")

const start = (env: Record<string, string>, cli = GLOSS) =>
  spawn(process.execPath, [cli, "server"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-")), ...env }
  })

const collect = (child: ChildProcess) => {
  let out = ""
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (out += chunk.toString()))
  return () => out
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))

const waitFor = async (read: () => string, pattern: RegExp, ms = 20_000) => {
  const until = Date.now() + ms
  while (!pattern.test(read())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; output so far:\n${read()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("gloss server (process)", () => {
  it("invalid configuration stops start-up with one message listing every bad variable, no stack trace", async () => {
    const child = start({ GLOSS_PORT: "abc", GLOSS_SEARCH_ENGINE: "solr", GLOSS_DOCS_ENABLED: "maybe" })
    const output = collect(child)
    expect(await exited(child)).toBe(1)
    const text = output()
    expect(text).toContain("Gloss cannot start: 3 environment variables are invalid.")
    expect(text).toContain("GLOSS_PORT: expected an integer from 0 to 65535, got \"abc\"")
    expect(text).toContain("GLOSS_SEARCH_ENGINE: expected one of database, elasticsearch, opensearch, got \"solr\"")
    expect(text).toContain("GLOSS_DOCS_ENABLED")
    expect(text).not.toMatch(/\n\s+at /)
  })

  it("an unreachable PostgreSQL stops start-up with a clear message that names the variable", async () => {
    const child = start({ GLOSS_DATABASE_URL: "postgresql://nobody:secret-pw@127.0.0.1:1/none" })
    const output = collect(child)
    expect(await exited(child)).toBe(1)
    expect(output()).toMatch(/Gloss cannot start: the database is unreachable .*Check GLOSS_DATABASE_URL\./)
    expect(output()).not.toContain("secret-pw")
  })

  it("serves with the embedded defaults, logs one line per request, and stops cleanly on SIGTERM", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-"))
    const child = start({ GLOSS_HOME_PATH: home, GLOSS_PORT: "0", GLOSS_HOST: "127.0.0.1", API_KEY: "irrelevant" })
    const output = collect(child)
    await waitFor(output, /Listening on http:\/\/127\.0\.0\.1:(\d+)/)
    const port = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output())?.[1]
    const version = await fetch(`http://127.0.0.1:${port}/api/v1/version?token=secret-in-query`)
    expect(version.status).toBe(200)
    await waitFor(output, /GET \/api\/v1\/version 200 \d+\.\dms/)
    // The query string is never logged.
    expect(output()).not.toContain("secret-in-query")
    expect(fs.existsSync(path.join(home, "gloss.db"))).toBe(true)
    child.kill("SIGTERM")
    expect(await exited(child)).toBe(0)
  })

  it("SIGTERM while a client is still uploading a body: the process exits after the grace period, not never", async () => {
    const child = start({
      GLOSS_HOME_PATH: fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-")),
      GLOSS_PORT: "0",
      GLOSS_HOST: "127.0.0.1",
      API_KEY: "test.upload.key.0123456789abcdefghijklmnopqrstuvwxyz",
      USERNAME: "owner",
      PASSWORD: "owner-password"
    })
    const output = collect(child)
    await waitFor(output, /Listening on http:\/\/127\.0\.0\.1:(\d+)/)
    const port = Number(/Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output())?.[1])
    // Half a body, then nothing more: its handler waits for the rest when the shutdown interrupts it.
    const socket = net.connect(port, "127.0.0.1")
    socket.on("error", () => undefined)
    await new Promise<void>((resolve) => socket.once("connect", resolve))
    socket.write(
      "PUT /api/v1/datasets/00000000-0000-0000-0000-000000000000/records/bulk HTTP/1.1\r\nhost: x\r\n" +
        "x-gloss-api-key: test.upload.key.0123456789abcdefghijklmnopqrstuvwxyz\r\n" +
        "content-type: application/json\r\ncontent-length: 100000\r\n\r\n{\"items\": ["
    )
    await new Promise((r) => setTimeout(r, 500))
    const stopping = Date.now()
    child.kill("SIGTERM")
    expect(await exited(child)).toBe(0)
    // SHUTDOWN_GRACE_MS is 10 s; without it the process waited for the socket for ever.
    expect(Date.now() - stopping).toBeLessThan(30_000)
    socket.destroy()
  }, 60_000)

  it("GLOSS_APP_MODULE's default export adds routes to the server", async () => {
    const child = start({
      GLOSS_HOME_PATH: fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-")),
      GLOSS_PORT: "0",
      GLOSS_HOST: "127.0.0.1",
      GLOSS_APP_MODULE: path.join(ROOT, "test/fixtures/app-module.mjs")
    }, SHIPPING)
    const output = collect(child)
    await waitFor(output, /Listening on http:\/\/127\.0\.0\.1:(\d+)/)
    const port = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output())?.[1]
    const response = await fetch(`http://127.0.0.1:${port}/extension/hello`)
    expect(await response.json()).toEqual({ hello: "from GLOSS_APP_MODULE" })
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/version`)).status).toBe(200)
    child.kill("SIGTERM")
    expect(await exited(child)).toBe(0)
  })

  it("a GLOSS_APP_MODULE that is not a Layer stops start-up with one clear line", async () => {
    const child = start({ GLOSS_HOME_PATH: fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-")), GLOSS_APP_MODULE: path.join(ROOT, "package.json") }, SHIPPING)
    const output = collect(child)
    expect(await exited(child)).toBe(1)
    expect(output()).toMatch(/Gloss cannot start: GLOSS_APP_MODULE .* (could not be loaded|must have a default export)/)
  })

  it("a port in use stops start-up with a message that names the port and GLOSS_PORT", async () => {
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve))
    const port = (blocker.address() as net.AddressInfo).port
    try {
      const child = start({ GLOSS_HOME_PATH: fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-")), GLOSS_HOST: "127.0.0.1", GLOSS_PORT: String(port) })
      const output = collect(child)
      expect(await exited(child)).toBe(1)
      expect(output()).toContain(
        `Gloss cannot start: port ${port} on 127.0.0.1 is already in use by another process: stop it, or choose another port with GLOSS_PORT`
      )
    } finally {
      blocker.close()
    }
  })

  it("a first start without USERNAME and PASSWORD says how to create the first owner; once one exists it does not", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-"))
    const run = async (env: Record<string, string>) => {
      const child = start({ GLOSS_HOME_PATH: home, GLOSS_PORT: "0", GLOSS_HOST: "127.0.0.1", ...env })
      const output = collect(child)
      await waitFor(output, /Listening on/)
      child.kill("SIGTERM")
      await exited(child)
      return output()
    }
    expect(await run({})).toContain(FIRST_OWNER_HINT)
    expect(await run({ USERNAME: "first-owner", PASSWORD: "first-owner-pw" })).not.toContain(FIRST_OWNER_HINT)
    expect(await run({})).not.toContain(FIRST_OWNER_HINT)
    // Three starts in a row: beside the other tiers' files on a loaded machine that can take more than the default
    // 30 s.
  }, 90_000)

  it("`npm start` runs the server in npm's place (exec), so a supervisor's SIGTERM to npm stops it", async () => {
    await ensureDistServer()
    // --ignore-scripts skips prestart's full build (the UI), not the start script itself.
    const npm = spawn("npm", ["start", "--ignore-scripts"], {
      cwd: ROOT,
      env: { ...process.env, GLOSS_HOME_PATH: fs.mkdtempSync(path.join(os.tmpdir(), "gloss-home-")), GLOSS_PORT: "0", GLOSS_HOST: "127.0.0.1" }
    })
    const output = collect(npm)
    await waitFor(output, /Listening on http:\/\/127\.0\.0\.1:(\d+)/)
    const port = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output())?.[1]
    npm.kill("SIGTERM")
    await exited(npm)
    // The server is gone with npm: nothing answers on its port any more.
    const until = Date.now() + 10_000
    let answering = true
    while (answering && Date.now() < until) {
      answering = await fetch(`http://127.0.0.1:${port}/api/v1/version`).then(() => true, () => false)
      if (answering) await new Promise((r) => setTimeout(r, 100))
    }
    expect(answering).toBe(false)
  })
})
