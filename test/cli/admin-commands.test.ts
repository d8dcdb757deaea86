/**
 * The admin commands (`users`, `workspaces`, `datasets list`, `records import`, `search reindex`) as processes, on the SQLite
 * database of a running `gloss server`: what they print and exit with, and — through the server's API — that what
 * they did really happened.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, buildCli, gloss, ok, publishedDataset, recordsOf, type Running, startServer, tempDir } from "./support.js"

const OWNER_KEY = "owner.key.for.cli.tests"
const home = tempDir("admin")
const env = { GLOSS_HOME_PATH: home }
let cli = ""
let server: Running & { readonly url: string }
let datasetId = ""

beforeAll(async () => {
  cli = await buildCli("fast")
  server = await startServer(cli, {
    ...env,
    USERNAME: "owner",
    PASSWORD: "owner-password",
    API_KEY: OWNER_KEY,
    // Deleted users and changed roles are seen by the next request.
    GLOSS_AUTH_CACHE_SECONDS: "0",
    GLOSS_JOB_WORKERS: "0"
  })
  datasetId = await publishedDataset(server.url, OWNER_KEY, "reviewers")
})

afterAll(async () => {
  await server?.stop()
  fs.rmSync(home, { recursive: true, force: true })
})

const me = (key: string) => api(`${server.url}/api/v1/me`, key)
const workspaceNamesOf = async (key: string) =>
  (await ok<{ items: ReadonlyArray<{ name: string }> }>(api(`${server.url}/api/v1/me/workspaces`, key))).items.map((w) => w.name)

/** The single line a failed command prints. */
const failure = (stderr: string) => {
  const lines = stderr.trimEnd().split("\n")
  return lines[lines.length - 1]
}

describe("users and workspaces", () => {
  it("users create with --role, --api-key and --workspace: the key works and the workspace exists", async () => {
    const result = await gloss(cli, [
      "users", "create", "--username", "ann", "--password", "ann-password", "--first-name", "Ann",
      "--role", "admin", "--api-key", "ann.key.12345", "--workspace", "annotators"
    ], env)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^Created admin 'ann' \([0-9a-f-]{36}\); API key: ann\.key\.12345\n$/)
    expect((await me("ann.key.12345")).body).toMatchObject({ username: "ann", first_name: "Ann", role: "admin" })
    expect(await workspaceNamesOf("ann.key.12345")).toEqual(["annotators"])
  })

  it("users create with a taken username fails with one line", async () => {
    const result = await gloss(cli, ["users", "create", "--username", "ann", "--password", "other-password"], env)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toBe("gloss users create failed: User username `ann` is not unique\n")
  })

  it("users list prints username, role and id of every user", async () => {
    const result = await gloss(cli, ["users", "list"], env)
    expect(result.code).toBe(0)
    const rows = result.stdout.trimEnd().split("\n").map((line) => line.split("\t"))
    expect(rows.map(([name, role]) => `${name} ${role}`).sort()).toEqual(["ann admin", "owner owner"])
    expect(rows.every((row) => /^[0-9a-f-]{36}$/.test(row[2] ?? ""))).toBe(true)
  })

  it("workspaces create, add-user and list", async () => {
    const created = await gloss(cli, ["workspaces", "create", "team"], env)
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^Created workspace 'team' \([0-9a-f-]{36}\)\n$/)

    const added = await gloss(cli, ["workspaces", "add-user", "team", "ann"], env)
    expect(added).toMatchObject({ code: 0, stdout: "Added 'ann' to 'team'\n" })
    expect((await workspaceNamesOf("ann.key.12345")).sort()).toEqual(["annotators", "team"])

    const listed = await gloss(cli, ["workspaces", "list"], env)
    expect(listed.code).toBe(0)
    // `default`: the owner's workspace, made at start-up because USERNAME and PASSWORD are set without WORKSPACE.
    expect(listed.stdout.trimEnd().split("\n").map((line) => line.split("\t")[0]).sort())
      .toEqual(["annotators", "default", "reviewers", "team"])
  })

  it("workspaces create with a taken name, and add-user with an unknown user, fail with one line", async () => {
    const [taken, unknown] = await Promise.all([
      gloss(cli, ["workspaces", "create", "team"], env),
      gloss(cli, ["workspaces", "add-user", "team", "nobody"], env)
    ])
    expect(taken).toMatchObject({ code: 1, stderr: "gloss workspaces create failed: Workspace name `team` is not unique\n" })
    expect(unknown).toMatchObject({ code: 1, stderr: "gloss workspaces add-user failed: no user is named 'nobody'\n" })
  })

  it("users update changes the role and names; an unknown user fails with one line", async () => {
    const [updated, unknown] = await Promise.all([
      gloss(cli, ["users", "update", "ann", "--role", "annotator", "--last-name", "Lee"], env),
      gloss(cli, ["users", "update", "nobody", "--role", "admin"], env)
    ])
    expect(updated).toMatchObject({ code: 0, stdout: "Updated 'ann' (annotator)\n" })
    expect((await me("ann.key.12345")).body).toMatchObject({ role: "annotator", last_name: "Lee" })
    expect(unknown).toMatchObject({ code: 1, stdout: "", stderr: "gloss users update failed: no user is named 'nobody'\n" })
  })

  it("users delete removes the user (its key stops working); deleting again fails with one line", async () => {
    const deleted = await gloss(cli, ["users", "delete", "ann"], env)
    expect(deleted).toMatchObject({ code: 0, stdout: "Deleted 'ann'\n" })
    expect((await me("ann.key.12345")).status).toBe(401)
    const again = await gloss(cli, ["users", "delete", "ann"], env)
    expect(again).toMatchObject({ code: 1, stderr: "gloss users delete failed: no user is named 'ann'\n" })
  })
})

describe("datasets list", () => {
  it("prints id, name, workspace and status of every dataset, or of one workspace's; an unknown workspace fails", async () => {
    const workspace = await ok<{ id: string }>(api(`${server.url}/api/v1/workspaces`, OWNER_KEY, "POST", { name: "catalogue" }))
    const draft = await ok<{ id: string }>(
      api(`${server.url}/api/v1/datasets`, OWNER_KEY, "POST", { name: "to do", workspace_id: workspace.id })
    )
    await ok(api(`${server.url}/api/v1/workspaces`, OWNER_KEY, "POST", { name: "empty" }))

    const all = await gloss(cli, ["datasets", "list"], env)
    expect(all.code).toBe(0)
    expect(all.stdout.trimEnd().split("\n").sort()).toEqual(
      [`${datasetId}\treviews\treviewers\tready`, `${draft.id}\tto do\tcatalogue\tdraft`].sort()
    )
    const [one, none, unknown] = await Promise.all([
      gloss(cli, ["datasets", "list", "--workspace", "catalogue"], env),
      gloss(cli, ["datasets", "list", "--workspace", "empty"], env),
      gloss(cli, ["datasets", "list", "--workspace", "nowhere"], env)
    ])
    expect(one).toMatchObject({ code: 0, stdout: `${draft.id}\tto do\tcatalogue\tdraft\n`, stderr: "" })
    expect(none).toMatchObject({ code: 0, stdout: "", stderr: "No datasets in workspace 'empty'\n" })
    expect(unknown).toMatchObject({ code: 1, stdout: "", stderr: "gloss datasets list failed: no workspace is named 'nowhere'\n" })
  })
})

// Each import uses its own external ids: they run side by side.
describe.concurrent("records import", () => {
  const file = (name: string, text: string) => {
    const target = path.join(home, name)
    fs.writeFileSync(target, text)
    return target
  }

  it("a JSONL file: flat rows and API-shaped rows are upserted, a plain progress line per batch on stderr", async ({ expect }) => {
    const jsonl = file("reviews.jsonl", [
      JSON.stringify({ external_id: "j1", text: "Great battery", stars: 5 }),
      JSON.stringify({ external_id: "j2", text: "Too heavy" }),
      "",
      JSON.stringify({ external_id: "j3", fields: { text: "Shaped like the API" }, metadata: { stars: 2 } })
    ].join("\n") + "\n")
    const result = await gloss(cli, ["records", "import", jsonl, "--dataset", datasetId, "--batch-size", "2"], env)
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(`Imported 3 records into dataset ${datasetId}\n`)
    // Not a terminal: no bar redrawn with carriage returns, one line a batch.
    expect(result.stderr).toBe("2/3 records imported\n3/3 records imported\n")

    const records = await recordsOf(server.url, OWNER_KEY, datasetId)
    expect(records.get("j1")).toMatchObject({ fields: { text: "Great battery" }, metadata: { stars: 5 } })
    expect(records.get("j2")?.fields).toEqual({ text: "Too heavy" })
    expect(records.get("j3")).toMatchObject({ fields: { text: "Shaped like the API" }, metadata: { stars: 2 } })
  })

  it("a JSONL file with an invalid record: one line naming it and the lines imported before it, exit 1", async ({ expect }) => {
    const jsonl = file("bad.jsonl", [
      JSON.stringify({ external_id: "k1", text: "fine" }),
      JSON.stringify({ external_id: "k2", text: "fine too" }),
      JSON.stringify({ external_id: "k3", text: "too many stars", stars: 9 }),
      JSON.stringify({ external_id: "k4", text: "never reached" })
    ].join("\n"))
    const result = await gloss(cli, ["records", "import", jsonl, "--dataset", datasetId, "--batch-size", "2"], env)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toContain("2/4 records imported\n")
    expect(failure(result.stderr)).toBe(
      "gloss records import failed: lines 1–2 were imported; line 3: metadata is not valid: 'stars' metadata property " +
        "validation failed because 9 is greater than the maximum value of 5; nothing after line 2 was imported"
    )
    const records = await recordsOf(server.url, OWNER_KEY, datasetId)
    expect([...records.keys()].filter((id) => id.startsWith("k")).sort()).toEqual(["k1", "k2"])
  })

  it("a CSV file: quoted fields keep their commas, newlines and quotes", async ({ expect }) => {
    const csv = file("reviews.csv", [
      "external_id,text,stars",
      `c1,"Good, but loud",4`,
      `c2,"First line`,
      `second line with ""quotes""",`,
      "c3,plain,1"
    ].join("\r\n") + "\r\n")
    const result = await gloss(cli, ["records", "import", csv, "--dataset", datasetId], env)
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(`Imported 3 records into dataset ${datasetId}\n`)
    // The estimate counts lines (c2 spans two): the last line says the exact count.
    expect(result.stderr).toBe("3/4 records imported\n3/3 records imported\n")

    const records = await recordsOf(server.url, OWNER_KEY, datasetId)
    expect(records.get("c1")).toMatchObject({ fields: { text: "Good, but loud" }, metadata: { stars: 4 } })
    expect(records.get("c2")?.fields).toEqual({ text: "First line\r\nsecond line with \"quotes\"" })
    expect(records.get("c3")).toMatchObject({ fields: { text: "plain" }, metadata: { stars: 1 } })
  })

  it("a CSV file with an invalid record: one line naming its line and the lines imported before it, exit 1", async ({ expect }) => {
    const csv = file("bad.csv", "external_id,text,stars\nd1,one,1\nd2,two,2\nd3,three,many\nd4,four,4\n")
    const result = await gloss(cli, ["records", "import", csv, "--dataset", datasetId, "--batch-size", "1"], env)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("2/4 records imported\n")
    // Line 1 is the header: the records start on line 2.
    expect(failure(result.stderr)).toMatch(
      /^gloss records import failed: lines 2–3 were imported; line 4: metadata is not valid: .*stars.*; nothing after line 3 was imported$/
    )
    const records = await recordsOf(server.url, OWNER_KEY, datasetId)
    expect([...records.keys()].filter((id) => id.startsWith("d")).sort()).toEqual(["d1", "d2"])
  })

  it("lines are the file's: blank lines and multi-line CSV values count; a bad first batch imports nothing", async ({ expect }) => {
    const jsonl = file("broken.jsonl", [
      JSON.stringify({ external_id: "m1", text: "one" }),
      "",
      JSON.stringify({ external_id: "m2", text: "two" }),
      `{"external_id": "m3", "text": `,
      JSON.stringify({ external_id: "m4", text: "four" })
    ].join("\n"))
    const csv = file("ragged.csv", `external_id,text,stars\r\nn1,"two\r\nlines",1\r\n\r\nn2,x,1,extra\r\n`)
    const first = file("first.jsonl", `[1, 2]\n${JSON.stringify({ external_id: "p1", text: "never sent" })}\n`)
    const [broken, ragged, atFirst] = await Promise.all([
      gloss(cli, ["records", "import", jsonl, "--dataset", datasetId, "--batch-size", "2"], env),
      gloss(cli, ["records", "import", csv, "--dataset", datasetId, "--batch-size", "1"], env),
      gloss(cli, ["records", "import", first, "--dataset", datasetId], env)
    ])
    expect(failure(broken.stderr)).toBe(
      "gloss records import failed: lines 1–3 were imported; line 4: not valid JSON; nothing after line 3 was imported"
    )
    expect(failure(ragged.stderr)).toBe(
      "gloss records import failed: lines 2–3 were imported; line 5: 4 values, but the header (line 1) names 3 " +
        "columns; nothing after line 3 was imported"
    )
    expect(atFirst).toMatchObject({
      code: 1,
      stderr: "gloss records import failed: line 1: not a JSON object; nothing was imported\n"
    })
    const records = await recordsOf(server.url, OWNER_KEY, datasetId)
    expect([...records.keys()].filter((id) => /^[mnp]/.test(id)).sort()).toEqual(["m1", "m2", "n1"])
  })
})

describe("search reindex", () => {
  it("rebuilds every published dataset's index, or only the one given with --dataset", async () => {
    const all = await gloss(cli, ["search", "reindex"], env)
    const one = await gloss(cli, ["search", "reindex", "--dataset", datasetId], env)
    // j1–j3, k1–k2, c1–c3, d1–d2, m1–m2, n1
    expect(all).toMatchObject({ code: 0, stdout: "reviews: 13 records indexed\n" })
    expect(one).toMatchObject({ code: 0, stdout: "reviews: 13 records indexed\n" })
  })

  it("an unknown or draft --dataset fails with one line", async () => {
    const workspace = await ok<{ id: string }>(api(`${server.url}/api/v1/workspaces`, OWNER_KEY, "POST", { name: "drafts" }))
    const draft = await ok<{ id: string }>(
      api(`${server.url}/api/v1/datasets`, OWNER_KEY, "POST", { name: "unfinished", workspace_id: workspace.id })
    )
    const unknown = "00000000-0000-4000-8000-00000000beef"
    const [missing, drafted] = await Promise.all([
      gloss(cli, ["search", "reindex", "--dataset", unknown], env),
      gloss(cli, ["search", "reindex", "--dataset", draft.id], env)
    ])
    expect(missing).toMatchObject({ code: 1, stdout: "", stderr: `gloss search reindex failed: Dataset with id \`${unknown}\` not found\n` })
    expect(drafted).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "gloss search reindex failed: dataset 'unfinished' is a draft: only published datasets have an index\n"
    })
  })
})

// login/logout and deploy are tested in-process (test/client/credentials.test.ts, test/deploy); here only what a
// process adds: exit codes and the one-line failure.
describe.concurrent("login, logout and deploy as processes", () => {
  it("login saves the checked credentials, logout removes them, a second logout fails with one line", async ({ expect }) => {
    const cache = path.join(home, "credentials-cache")
    const withCache = { GLOSS_CACHE_DIR: cache }
    const login = await gloss(cli, ["login", "--api-url", server.url, "--api-key", OWNER_KEY], withCache)
    expect(login.code).toBe(0)
    expect(login.stdout).toContain(`Logged in successfully to '${server.url}' as owner`)
    expect(JSON.parse(fs.readFileSync(path.join(cache, "credentials.json"), "utf8"))).toMatchObject({ api_key: OWNER_KEY })

    const logout = await gloss(cli, ["logout"], withCache)
    expect(logout.code).toBe(0)
    expect(fs.existsSync(path.join(cache, "credentials.json"))).toBe(false)
    const again = await gloss(cli, ["logout"], withCache)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/^gloss logout failed: You are not logged in .*\n$/)
  })

  it("deploy with a short API key fails with one line before contacting the Hub", async ({ expect }) => {
    const result = await gloss(cli, ["deploy", "--api-key", "short", "--hf-token", "hf_unused"], { HF_ENDPOINT: "http://127.0.0.1:1" })
    expect(result).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "gloss deploy failed: Provided API key has invalid length. Please provide an apikey with at least 8 characters.\n"
    })
  })
})
