/**
 * The container's entrypoint (docker/entrypoint.sh), run with `sh` outside a container: Docker is not available
 * here, so the image itself is never built in tests. GLOSS_CLI points the script at a fresh build of the CLI, or
 * `gloss` is found on PATH through a symlink, as the image installs it.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, it } from "vitest"
import { api, buildCli, ok, publishedDataset, ROOT, run, start, tempDir } from "./support.js"

const ENTRYPOINT = path.join(ROOT, "docker/entrypoint.sh")
const HEALTHCHECK = path.join(ROOT, "docker/healthcheck.mjs")
const LOOPBACK = { GLOSS_HOST: "127.0.0.1", GLOSS_PORT: "0" }

let fast = ""
let shipping = ""
const homes: Array<string> = []
const home = () => {
  const dir = tempDir("entrypoint")
  homes.push(dir)
  return dir
}

beforeAll(async () => {
  ;[fast, shipping] = await Promise.all([buildCli("fast"), buildCli("shipping")])
})
afterAll(() => homes.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

/** `sh docker/entrypoint.sh args` until the server listens; answers the process and the server's URL. */
const startContainer = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const container = start("sh", [ENTRYPOINT, ...args], { ...LOOPBACK, ...env })
  // The entrypoint migrates, maybe bootstraps, then starts the server: on a loaded machine past the usual 20 s.
  const [, port] = await container.waitFor(/Listening on http:\/\/127\.0\.0\.1:(\d+)/, 90_000)
  return { ...container, url: `http://127.0.0.1:${port}`, port: port ?? "" }
}

const count = (text: string, part: string) => text.split(part).length - 1

/**
 * The scenarios that start servers: alone each takes a few seconds, but a full run's other files share the two cores,
 * and one took 27 s and another past the 30 s default in the same CI run.
 */
const SERVER_TEST_TIMEOUT = 120_000

// The scenarios are independent (each has its own database) and run side by side; within one, steps are in order.
describe.concurrent("docker/entrypoint.sh", () => {
  it("with USERNAME and PASSWORD, started twice: the first start creates the owner and prints its key once; the " +
    "second creates nothing, prints no key, and reindexes once before the server (REINDEX_DATASETS=1)", async ({ expect }) => {
    const env = { GLOSS_CLI: fast, GLOSS_HOME_PATH: home(), USERNAME: "admin", PASSWORD: "admin-password", WORKSPACE: "team" }

    const first = await startContainer([], env)
    const output = first.stdout()
    expect(output).toMatch(/^Applied \d+ migration\(s\): /)
    const created = /Created the owner user 'admin'\. Its API key \(shown once, generated because API_KEY is unset\): (\S+)\n/
      .exec(output)
    const key = created?.[1] ?? ""
    expect(key).toMatch(/^[\w-]{64}$/)
    expect(count(output, key)).toBe(1)
    expect(count(output, "Created the owner user")).toBe(1)
    expect((await api(`${first.url}/api/v1/me`, key)).body).toMatchObject({ username: "admin", role: "owner" })
    const workspaces = await ok<{ items: ReadonlyArray<{ name: string }> }>(api(`${first.url}/api/v1/me/workspaces`, key))
    expect(workspaces.items.map((w) => w.name)).toEqual(["team"])

    // The image's HEALTHCHECK against this server (and, below, against nothing).
    expect((await run(process.execPath, [HEALTHCHECK], { GLOSS_PORT: first.port })).code).toBe(0)

    // Something for the second start's reindex to find.
    const datasetId = await publishedDataset(first.url, key, "reviewers")
    await ok(api(`${first.url}/api/v1/datasets/${datasetId}/records/bulk`, key, "POST", {
      items: [{ fields: { text: "one" } }, { fields: { text: "two" } }]
    }))
    // `exec`: the server is the entrypoint's process itself, so the container's SIGTERM reaches it.
    expect(await first.stop()).toBe(0)
    const down = await run(process.execPath, [HEALTHCHECK], { GLOSS_PORT: first.port })
    expect(down.code).toBe(1)
    expect(down.stderr).toContain(`http://127.0.0.1:${first.port}/api/v1/health/live did not answer`)

    const second = await startContainer(["server"], { ...env, REINDEX_DATASETS: "1" })
    const again = second.stdout()
    expect(again).toMatch(/^The database is up to date\n/)
    expect(again).toContain("The owner was not created: a user named 'admin' already exists\n")
    expect(again).not.toContain("Created the owner user")
    expect(again).not.toContain("API key")
    expect(again).not.toContain(key)
    // `gloss search reindex` printed this; the server, told REINDEX_DATASETS=false, did not rebuild again.
    expect(count(again, "reviews: 2 records indexed\n")).toBe(1)
    expect(again).not.toContain("REINDEX_DATASETS: rebuilt")
    expect((await api(`${second.url}/api/v1/me`, key)).status).toBe(200)
    expect(await second.stop()).toBe(0)
  }, SERVER_TEST_TIMEOUT)

  it("without USERNAME and PASSWORD (shipping build, `gloss` on PATH): the server starts with GLOSS_APP_MODULE's " +
    "routes and no owner; another command (`users list`) is passed through and migrates nothing", async ({ expect }) => {
    // `gloss` found on PATH through a symlink, as the image installs it (/usr/local/bin/gloss).
    const bin = home()
    fs.symlinkSync(shipping, path.join(bin, "gloss"))
    const env = { GLOSS_HOME_PATH: home(), PATH: `${bin}:${process.env.PATH ?? ""}` }

    const container = await startContainer([], { ...env, GLOSS_APP_MODULE: path.join(ROOT, "test/fixtures/app-module.mjs") })
    expect(container.stdout()).toMatch(/^Applied \d+ migration\(s\): /)
    // No owner is created; the log says how to create the first one instead.
    expect(container.stdout()).not.toMatch(/Created the owner/i)
    expect(container.stdout()).toContain("No owner exists yet")
    expect(await (await fetch(`${container.url}/extension/hello`)).json()).toEqual({ hello: "from GLOSS_APP_MODULE" })
    expect((await fetch(`${container.url}/api/v1/version`)).status).toBe(200)
    expect(await container.stop()).toBe(0)

    const users = await run("sh", [ENTRYPOINT, "users", "list"], env)
    expect(users).toMatchObject({ code: 0, stdout: "", stderr: "" })
  }, SERVER_TEST_TIMEOUT)

  it("a passed-through command keeps its message and exit code", async ({ expect }) => {
    const result = await run("sh", [ENTRYPOINT, "users", "delete", "nobody"], { GLOSS_CLI: fast, GLOSS_HOME_PATH: home() })
    expect(result).toMatchObject({ code: 1, stderr: "gloss users delete failed: no user is named 'nobody'\n" })
  })

  it("a failed migration stops the entrypoint before the server starts", async ({ expect }) => {
    const result = await run("sh", [ENTRYPOINT], {
      ...LOOPBACK,
      GLOSS_CLI: fast,
      GLOSS_DATABASE_URL: "postgresql://gloss:secret-pw@127.0.0.1:1/none",
      USERNAME: "admin",
      PASSWORD: "admin-password"
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^gloss db migrate failed: the database is unreachable .*\n$/)
    expect(result.stdout).not.toContain("Listening")
  })
})
