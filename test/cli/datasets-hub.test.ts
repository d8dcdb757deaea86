/**
 * `gloss datasets export <id> hub:org/name` and `gloss datasets import hub:org/name` as processes, against
 * a running server and the fake Hub (HF_ENDPOINT): out with --private and --split, the token from HF_TOKEN, progress
 * on stderr; back in under a new name with every record; a wrong token and a missing token each fail in one line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Exit, Scope } from "effect"
import { type FakeDatasetHub, fakeDatasetHub, HUB_TOKEN } from "../support/fakeDatasetHub.js"
import { api, buildCli, gloss, ok, publishedDataset, recordsOf, type Running, startServer, tempDir } from "./support.js"

const OWNER_KEY = "owner.key.for.hub.tests"
const RECORDS = 1203
let cli = ""
let server: Running & { readonly url: string }
let hub: FakeDatasetHub
let scope: Scope.CloseableScope
let datasetId = ""
let client: Record<string, string> = {}

beforeAll(async () => {
  cli = await buildCli("fast")
  server = await startServer(cli, {
    GLOSS_HOME_PATH: tempDir("hub-home"),
    USERNAME: "owner",
    PASSWORD: "owner-password",
    API_KEY: OWNER_KEY,
    GLOSS_JOB_WORKERS: "0"
  })
  scope = await Effect.runPromise(Scope.make())
  hub = await Effect.runPromise(Scope.extend(fakeDatasetHub(), scope))
  client = { GLOSS_API_URL: server.url, GLOSS_API_KEY: OWNER_KEY, GLOSS_CACHE_DIR: tempDir("hub-cache"), HF_ENDPOINT: hub.url }
  datasetId = await publishedDataset(server.url, OWNER_KEY, "hubbers")
  const items = Array.from({ length: RECORDS }, (_, i) => ({
    external_id: `h-${i}`,
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
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
})

describe("gloss datasets export / import with hub: targets", () => {
  it("pushes to the Hub (private, a split) and pulls back under a new name, the same records", async () => {
    const out = await gloss(cli, ["datasets", "export", datasetId, "hub:org/reviews", "--private", "--split", "test"], {
      ...client,
      HF_TOKEN: HUB_TOKEN
    })
    expect(out.stderr).toContain(`${RECORDS}/${RECORDS} records exported`)
    expect(out.code).toBe(0)
    expect(out.stdout.trim().split("\n").at(-1)).toBe(
      `Exported dataset reviews (${RECORDS} records) to ${hub.url}/datasets/org/reviews (split test)`
    )
    expect(hub.repos.get("org/reviews")?.private).toBe(true)
    expect([...(hub.repos.get("org/reviews")?.files.keys() ?? [])]).toContain("data/test-00000-of-00001.parquet")

    const back = await gloss(cli, ["datasets", "import", "hub:org/reviews", "--workspace", "hubbers", "--name", "reviews-hub", "--token", HUB_TOKEN], client)
    expect(back.stderr).toContain(`${RECORDS}/${RECORDS} records imported`)
    expect(back.code).toBe(0)
    const { items } = await ok<{ items: ReadonlyArray<{ id: string; name: string }> }>(api(`${server.url}/api/v1/me/datasets`, OWNER_KEY))
    const copy = items.find((dataset) => dataset.name === "reviews-hub")
    expect(back.stdout.trim().split("\n").at(-1)).toBe(
      `Imported ${RECORDS} records into dataset reviews-hub (${copy?.id}) in workspace hubbers (split test)`
    )
    const [before, after] = [await recordsOf(server.url, OWNER_KEY, datasetId), await recordsOf(server.url, OWNER_KEY, copy?.id ?? "")]
    expect(after.size).toBe(1000) // one page
    for (const [id, record] of after) {
      expect({ fields: record.fields, metadata: record.metadata }).toEqual({ fields: before.get(id)?.fields, metadata: before.get(id)?.metadata })
    }
  }, 120_000)

  it("a wrong token and a missing token each fail in one line", async () => {
    const wrong = await gloss(cli, ["datasets", "export", datasetId, "hub:org/other", "--token", "hf_wrong"], client)
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain("The Hugging Face Hub refused the token")
    const none = await gloss(cli, ["datasets", "export", datasetId, "hub:org/other"], client)
    expect(none.code).toBe(1)
    expect(none.stderr).toContain("hub:org/other: a Hugging Face token is needed: --token or HF_TOKEN")
    const missing = await gloss(cli, ["datasets", "import", "hub:org/none", "--workspace", "hubbers", "--token", HUB_TOKEN], client)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("Hugging Face Hub dataset 'org/none'")
  }, 60_000)
})
