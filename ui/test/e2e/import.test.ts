/**
 * The importer end to end, in headless Chromium over a real Gloss that talks to a fake Hugging Face Hub
 * (`HF_ENDPOINT`): an owner reaches the importer from the empty dataset and from the home list, maps a CSV's columns
 * to a field, a label suggestion with its score and agent, an annotator's response (status chosen) and a vector;
 * checking every row shows the one row with an unknown label rejected, with its reason; the import sends the others,
 * the server then holds their suggestion, response and vector, and "Find similar" on an imported record shows its
 * neighbours. The Hub tab starts the server's import job and shows its progress to the end, or why it failed (a
 * split the repo does not have). Axe on every screen, at 1280 px and at 400 px wide (where nothing scrolls sideways).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Api } from "../../../src/contract/Api.js"
import { openParquetWriter } from "../../../src/transfer/hubParquet.js"
import { type FakeDatasetHub, fakeDatasetHub, HUB_TOKEN } from "../../../test/support/fakeDatasetHub.js"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { buildUi, hasChromium, launch, photograph, signIn } from "./browser.js"
import { checkA11y, sidewaysOverflow } from "./checks.js"
import { seedImport } from "./importSeed.js"

class Hub extends Context.Tag("ui-e2e/Hub")<Hub, FakeDatasetHub>() {}

const runtime = ManagedRuntime.make(Layer.unwrapScoped(Effect.map(fakeDatasetHub(), (hub) =>
  Layer.merge(TestServerLive("sqlite", { HF_ENDPOINT: hub.url, HF_TOKEN: HUB_TOKEN }), Layer.succeed(Hub, hub)))))
let url = ""
let browser: Browser
let seeded: Effect.Effect.Success<ReturnType<typeof seedImport>>

const owner = () =>
  Effect.runPromise(
    HttpApiClient.make(Api, {
      baseUrl: url,
      transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("X-Gloss-Api-Key", OWNER.apiKey))
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

const records = async () => {
  const client = await owner()
  const page = await Effect.runPromise(client.records.list({
    path: { id: seeded.datasetId },
    urlParams: { offset: 0, limit: 100, include: ["suggestions", "responses", "vectors"] }
  }))
  return page.items
}

/** Axe at 1280 px, then at 400 px wide (nothing scrolls sideways, axe again), then back. */
const checkBothWidths = async (page: Page, screen: string) => {
  await checkA11y(page, `${screen} (1280 px)`)
  const size = page.viewportSize()
  await page.setViewportSize({ width: 400, height: 800 })
  const overflow = await sidewaysOverflow(page)
  expect(`${screen}: ${overflow}px too wide`).toBe(`${screen}: 0px too wide`)
  await checkA11y(page, `${screen} (400 px)`)
  if (size !== null) await page.setViewportSize(size)
}

/** Three valid rows, and a fourth whose suggestion is a label the question does not have. */
const CSV = [
  "id,text,sentiment,sentiment_score,sentiment_agent,answer,emb",
  "r1,Great phone,positive,0.9,model-a,positive,\"[1, 0, 0]\"",
  "r2,Terrible battery,negative,0.8,model-a,negative,\"[0, 1, 0]\"",
  "r3,Fine overall,neutral,0.6,model-a,neutral,\"0.9, 0.1, 0\"",
  "r4,Odd one,great,0.5,model-a,positive,\"[0, 0, 1]\""
].join("\n") + "\n"

/** A Hub dataset's Parquet file: `uid`, `review` and `label` (a label's name), all strings. */
const hubParquet = (rows: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function*() {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-ui-hub-")), "train.parquet")
    const writer = yield* openParquetWriter(file, [
      { name: "uid", type: { kind: "string" } },
      { name: "review", type: { kind: "string" } },
      { name: "label", type: { kind: "string" } }
    ])
    yield* writer.append(rows)
    yield* writer.close
    return fs.readFileSync(file)
  })

describe.skipIf(!hasChromium)("the importer, end to end", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedImport(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  const signedIn = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (e) => errors.push(e.message))
    await page.goto(`${url}/sign-in`)
    await signIn(page, OWNER.username, OWNER.password)
    await page.locator("table.datasets").waitFor()
    return { page, context, errors }
  }

  it("imports suggestions, a response and vectors from a CSV, after a check that shows the rejected row; find similar works", async () => {
    const { page, context, errors } = await signedIn()
    // From the home list: each dataset has an Import link for owners and admins.
    const homeLink = page.getByRole("link", { name: `Import records into ${seeded.datasetName}` })
    await expect.poll(() => homeLink.getAttribute("href")).toContain(`/dataset/${seeded.datasetId}/import`)
    // From the empty dataset: its empty queue links the importer.
    await page.getByRole("link", { name: seeded.datasetName, exact: true }).click()
    await page.getByRole("heading", { name: "No records in this queue" }).waitFor()
    await checkA11y(page, "empty dataset")
    await page.getByRole("link", { name: "Import records" }).click()
    await page.getByRole("heading", { name: "Import records", level: 1 }).waitFor()
    await checkBothWidths(page, "importer")

    await page.getByLabel(/CSV \(with a header row\)/).setInputFiles({ name: "reviews.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) })
    await expect.poll(() => page.getByLabel("sentiment", { exact: true }).inputValue()).toBe("suggestion:sentiment")
    expect(await page.getByLabel("sentiment_score").inputValue()).toBe("suggestion_score:sentiment")
    expect(await page.getByLabel("sentiment_agent").inputValue()).toBe("suggestion_agent:sentiment")
    expect(await page.getByLabel("emb").inputValue()).toBe("vector:emb")
    expect(await page.getByLabel("id", { exact: true }).inputValue()).toBe("external_id")
    await page.getByLabel("answer").selectOption("response:sentiment")
    await expect.poll(() => page.getByRole("list", { name: "Mapping problems" }).innerText()).toContain("Choose the user")
    await page.getByLabel("User", { exact: true }).selectOption({ label: seeded.annotatorName })
    await page.getByLabel("Status", { exact: true }).selectOption("draft")

    await page.getByRole("button", { name: "Check every row" }).click()
    const check = page.getByRole("status", { name: "Row check" })
    await expect.poll(() => check.innerText()).toContain("4 rows checked: 3 will be imported, 1 will be rejected")
    const rejected = page.getByRole("region", { name: "Rows that would be rejected" })
    expect(await rejected.innerText()).toMatch(/4\s+suggestion: 'great' is not a valid label/)
    await checkBothWidths(page, "importer: mapped and checked")
    await photograph(page, "import-check", { fullPage: true })

    await page.getByRole("button", { name: "Import records" }).click()
    await expect.poll(() => page.locator(".import-status").last().innerText(), { timeout: 20_000 })
      .toContain("Finished. 4 rows read (100% of the file): 3 imported, 1 rejected.")

    const stored = await records()
    expect(stored.map((r) => r.external_id).sort()).toEqual(["r1", "r2", "r3"])
    const r1 = stored.find((r) => r.external_id === "r1")
    expect(r1?.suggestions).toEqual([expect.objectContaining({ question_id: seeded.questionId, value: "positive", score: 0.9, agent: "model-a" })])
    expect(r1?.responses).toEqual([expect.objectContaining({ user_id: seeded.annotatorId, status: "draft", values: { sentiment: { value: "positive" } } })])
    expect(r1?.vectors).toEqual({ emb: [1, 0, 0] })
    expect(stored.find((r) => r.external_id === "r3")?.vectors).toEqual({ emb: [0.9, 0.1, 0] })

    // Find similar on the first imported record: r3 ([0.9, 0.1, 0]) is nearest to r1 ([1, 0, 0]).
    await page.goto(`${url}/dataset/${seeded.datasetId}/annotation-mode?_sort=record.external_id:asc`)
    await page.locator(".record-card").getByText("Great phone").waitFor()
    await page.locator(".record-card .find-similar summary").click()
    await page.getByRole("button", { name: "Show similar records" }).click()
    await page.locator(".record-card").getByText("Fine overall").waitFor()
    expect(await page.locator(".record-nav .muted").innerText()).toMatch(/similarity 0\.99\d/)
    await checkA11y(page, "find similar after import")
    expect(errors).toEqual([])
    await context.close()
  }, 120_000)

  it("imports a Hugging Face Hub dataset from its tab: the server's job, its progress and its result", async () => {
    const hub = await runtime.runPromise(Hub)
    const repoId = `someone/reviews-${Date.now().toString(36)}`
    const rows = [
      { uid: "h1", review: "Lovely screen", label: "positive" },
      { uid: "h2", review: "Slow delivery", label: "negative" }
    ]
    hub.repos.set(repoId, { private: false, files: new Map([["train.parquet", await Effect.runPromise(hubParquet(rows))]]), commits: [] })
    const { page, context, errors } = await signedIn()
    await page.goto(`${url}/dataset/${seeded.datasetId}/import`)
    await page.getByRole("tab", { name: "From the Hugging Face Hub" }).click()
    await page.getByLabel("Repo id").fill(repoId)
    await page.getByRole("button", { name: "Import from the Hub" }).click()
    await expect.poll(() => page.getByRole("list", { name: "Hub import problems" }).innerText()).toContain("at least one field")
    await page.getByLabel("Field: Text").fill("review")
    await page.getByLabel("Suggestion for: Sentiment").fill("label")
    await page.getByLabel(/^External id/).fill("uid")
    await checkBothWidths(page, "importer: Hub tab")
    // A split the repo does not have: the job fails, and the tab says why.
    await page.getByLabel("Split").fill("validation")
    await page.getByRole("button", { name: "Import from the Hub" }).click()
    await expect.poll(() => page.getByRole("status").innerText(), { timeout: 30_000 }).toBe("Failed.")
    expect(await page.locator(".import-report").innerText()).toContain("no Parquet files of subset 'default' and split 'validation'")
    await page.getByLabel("Split").fill("train")
    await page.getByRole("button", { name: "Import from the Hub" }).click()
    await expect.poll(() => page.getByRole("status").innerText(), { timeout: 30_000 })
      .toContain("Finished. 2 of 2 rows done: 2 imported, 0 rejected.")
    expect(await page.getByRole("progressbar", { name: "Hub import progress" }).getAttribute("value")).toBe("100")
    await checkBothWidths(page, "importer: Hub import finished")
    await photograph(page, "import-hub", { fullPage: true })

    const h1 = (await records()).find((r) => r.external_id === "h1")
    expect(h1).toMatchObject({ fields: { text: "Lovely screen" } })
    expect(h1?.suggestions).toEqual([expect.objectContaining({ value: "positive", agent: repoId })])
    expect(errors).toEqual([])
    await context.close()
  }, 120_000)
})
