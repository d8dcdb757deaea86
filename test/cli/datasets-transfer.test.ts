/**
 * `gloss datasets export` and `gloss datasets import` as processes against a running server: a dataset out
 * to a folder in the Argilla SDK's layout and back in under a new name with the same records, progress on stderr, a
 * non-empty folder refused, a failed import that leaves no dataset behind (`hub:` targets: datasets-hub.test.ts).
 * Connects the way a user does: GLOSS_API_URL and GLOSS_API_KEY.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { transferTarget } from "../../src/cli/DatasetsTransferCommand.js"
import { api, buildCli, gloss, ok, publishedDataset, recordsOf, type Running, startServer, tempDir } from "./support.js"

const OWNER_KEY = "owner.key.for.transfer.tests"
const home = tempDir("transfer")
let cli = ""
let server: Running & { readonly url: string }
let datasetId = ""
let client: Record<string, string> = {}

const RECORDS = 1203

beforeAll(async () => {
  cli = await buildCli("fast")
  server = await startServer(cli, {
    GLOSS_HOME_PATH: home,
    USERNAME: "owner",
    PASSWORD: "owner-password",
    API_KEY: OWNER_KEY,
    GLOSS_JOB_WORKERS: "0"
  })
  client = { GLOSS_API_URL: server.url, GLOSS_API_KEY: OWNER_KEY, GLOSS_CACHE_DIR: tempDir("transfer-cache") }
  datasetId = await publishedDataset(server.url, OWNER_KEY, "movers")
  const items = Array.from({ length: RECORDS }, (_, i) => ({
    external_id: `m-${i}`,
    fields: { text: `Review ${i}` },
    metadata: { stars: 1 + (i % 5) },
    suggestions: [{ question_name: "sentiment", value: i % 2 === 0 ? "pos" : "neg", score: 0.5, agent: "model" }]
  }))
  for (let start = 0; start < items.length; start += 500) {
    await ok(api(`${server.url}/api/v1/datasets/${datasetId}/records/bulk`, OWNER_KEY, "PUT", { items: items.slice(start, start + 500) }))
  }
}, 120_000)

afterAll(async () => {
  await server?.stop()
  fs.rmSync(home, { recursive: true, force: true })
})

const datasetNamed = async (name: string) => {
  const { items } = await ok<{ items: ReadonlyArray<{ id: string; name: string }> }>(api(`${server.url}/api/v1/me/datasets`, OWNER_KEY))
  return items.find((dataset) => dataset.name === name)
}

describe("transferTarget", () => {
  it("reads hub:org/name as a Hub repository and anything else as a folder", () => {
    expect(transferTarget("hub:org/name")).toEqual({ _tag: "Hub", repoId: "org/name" })
    expect(transferTarget("./out/hub")).toEqual({ _tag: "Disk", dir: "./out/hub" })
  })
})

describe("gloss datasets export / import", () => {
  it("exports to a folder and imports it back under a new name, the same records; progress on stderr", async () => {
    const dir = path.join(tempDir("out"), "reviews")
    const out = await gloss(cli, ["datasets", "export", datasetId, dir], client)
    expect(out.stderr).toContain(`${RECORDS}/${RECORDS} records exported`)
    expect(out.code).toBe(0)
    // Only the result on stdout: the client's own info logs are not repeated there.
    expect(out.stdout).toBe(`Exported dataset reviews (${RECORDS} records) to ${dir}\n`)
    expect(fs.readdirSync(path.join(dir, ".argilla")).sort()).toEqual(["dataset.json", "settings.json"])

    const back = await gloss(cli, ["datasets", "import", dir, "--workspace", "movers", "--name", "reviews-copy"], client)
    expect(back.stderr).toContain(`500/${RECORDS} records imported`)
    expect(back.stderr).toContain(`${RECORDS}/${RECORDS} records imported`)
    expect(back.code).toBe(0)
    const copy = await datasetNamed("reviews-copy")
    expect(back.stdout).toBe(`Imported ${RECORDS} records into dataset reviews-copy (${copy?.id}) in workspace movers\n`)
    const [before, after] = [await recordsOf(server.url, OWNER_KEY, datasetId), await recordsOf(server.url, OWNER_KEY, copy?.id ?? "")]
    expect(after.size).toBe(1000) // recordsOf reads one page of 1000
    for (const [id, record] of after) expect({ fields: record.fields, metadata: record.metadata }).toEqual({ fields: before.get(id)?.fields, metadata: before.get(id)?.metadata })

    // By name, with its workspace.
    const byName = await gloss(cli, ["datasets", "export", "reviews", path.join(tempDir("out"), "by-name"), "--workspace", "movers", "--no-records"], client)
    expect(byName.code).toBe(0)
    expect(byName.stdout).toContain("Exported dataset reviews (0 records)")
  }, 120_000)

  it("refuses a folder that is not empty and a taken name, each in one line", async () => {
    const dir = tempDir("busy")
    fs.writeFileSync(path.join(dir, "keep.txt"), "mine")
    const busy = await gloss(cli, ["datasets", "export", datasetId, dir], client)
    expect(busy.code).toBe(1)
    expect(busy.stderr).toContain(`Cannot use ${dir}: the folder is not empty: export into a new or empty folder`)
    expect(fs.readdirSync(dir)).toEqual(["keep.txt"])

    const out = path.join(tempDir("out"), "settings-only")
    expect((await gloss(cli, ["datasets", "export", datasetId, out, "--no-records"], client)).code).toBe(0)
    const taken = await gloss(cli, ["datasets", "import", out, "--workspace", "movers"], client)
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain("A dataset named 'reviews' already exists in workspace 'movers': import under another name")
  }, 60_000)

  it("a failed import leaves no dataset, and says so; --keep-partial keeps the records imported before", async () => {
    const dir = path.join(tempDir("out"), "broken")
    expect((await gloss(cli, ["datasets", "export", datasetId, dir], client)).code).toBe(0)
    const file = path.join(dir, "records.json")
    const records: Array<{ suggestions: { sentiment: { value: string } } }> = JSON.parse(fs.readFileSync(file, "utf8"))
    const broken = records[700]
    if (broken === undefined) throw new Error("fewer records than expected")
    broken.suggestions.sentiment.value = "meh"
    fs.writeFileSync(file, JSON.stringify(records))

    const failed = await gloss(cli, ["datasets", "import", dir, "--workspace", "movers", "--name", "broken"], client)
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/failed after 0 of 1203: the batch of records 501–1000 was refused: .*meh.*; the dataset was deleted, nothing was imported/)
    expect(await datasetNamed("broken")).toBeUndefined()

    const kept = await gloss(cli, ["datasets", "import", dir, "--workspace", "movers", "--name", "broken", "--keep-partial"], client)
    expect(kept.code).toBe(1)
    expect(kept.stderr).toContain("the dataset was kept with the first 500 records of the file")
    const partial = await datasetNamed("broken")
    expect((await recordsOf(server.url, OWNER_KEY, partial?.id ?? "")).size).toBe(500)
  }, 60_000)
})
