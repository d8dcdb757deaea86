/**
 * The Hub both ways with the real Argilla SDK, through the fake Hub (`HF_ENDPOINT`, which huggingface_hub
 * and datasets honour): the SDK's `Dataset.from_hub` imports a repo Gloss's `toHub` wrote, and Gloss's `fromHub`
 * imports a repo the SDK's `Dataset.to_hub` wrote; each side's records, responses, suggestions, metadata and vectors
 * are compared with the source. The server's Parquet export (the Hub's rows plus `.responses.usernames` and, with a
 * record settled, `.final`: what the server's Hub export job writes) put in such a repo reads the same. Skipped with a printed reason without `.venv/bin/python` (a failure under CI=true).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { expect, it as vitestIt, layer } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import type { GlossClientShape } from "../../src/client/makeClient.js"
import { openParquetFile } from "../../src/transfer/hubParquet.js"
import type { UserId } from "../../src/domain/Ids.js"
import type { DatasetRecord } from "../../src/domain/Record.js"
import { fakeDatasetHub, HUB_TOKEN } from "../support/fakeDatasetHub.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { runTool } from "../support/tool.js"
import { ownerGloss } from "./support.js"

const ROOT = path.resolve(import.meta.dirname, "../..")
const PYTHON = path.join(ROOT, ".venv/bin/python")
const missing = fs.existsSync(PYTHON) ? undefined : "no .venv/bin/python"
if (missing !== undefined) {
  if (process.env["CI"] === "true") throw new Error(`the SDK Hub interop test cannot run: ${missing}`)
  console.warn(`hub-sdk: skipping the Argilla SDK Hub interop test: ${missing}`)
}

const sdk = (args: ReadonlyArray<string>, hubUrl: string) =>
  Effect.gen(function*() {
    const { url } = yield* TestServer
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-hub-sdk-"))
    const { code, output } = yield* runTool(PYTHON, [path.join(ROOT, "test/client/hub_sdk.py"), ...args], {
      cwd: home,
      env: {
        ...process.env,
        ARGILLA_API_URL: url,
        ARGILLA_API_KEY: OWNER.apiKey,
        HF_ENDPOINT: hubUrl,
        HF_TOKEN: HUB_TOKEN,
        HF_HOME: path.join(home, "hf"),
        HF_HUB_DISABLE_TELEMETRY: "1",
        HF_HUB_DISABLE_PROGRESS_BARS: "1",
        // The fake Hub speaks the LFS batch API, not Xet storage.
        HF_HUB_DISABLE_XET: "1",
        PYTHONDONTWRITEBYTECODE: "1"
      },
      timeLimitMs: 120_000,
      label: "hub-sdk"
    })
    fs.rmSync(home, { recursive: true, force: true })
    if (code !== 0) throw new Error(`hub_sdk.py ${args.join(" ")} failed:\n${output}`)
    const last = output.trim().split("\n").at(-1) ?? ""
    return JSON.parse(last) as { id: string; records?: number }
  })

const comparable = (record: DatasetRecord) => ({
  external_id: record.external_id,
  fields: record.fields,
  metadata: record.metadata,
  vectors: record.vectors,
  responses: (record.responses ?? []).map(({ status, user_id, values }) => ({ status, user_id, values })),
  suggestions: (record.suggestions ?? []).map(({ agent, score, value }) => ({ agent, score, value }))
})

const records = (gloss: GlossClientShape, id: string) =>
  Effect.map(
    Stream.runCollect(gloss.records.stream({ id }, { batchSize: 1000, include: ["responses", "suggestions", "vectors"] })),
    (all) => Chunk.toArray(all).map(comparable).sort((a, b) => String(a.external_id).localeCompare(String(b.external_id)))
  )

/** A Gloss dataset of 40 records with every kind of value the SDK's Hub layout holds, answered on every fourth. */
const glossSource = (gloss: GlossClientShape, me: UserId) =>
  Effect.gen(function*() {
    const workspace = yield* gloss.workspaces.add({ name: `sdkhub-${Date.now()}-${Math.random().toString(36).slice(2, 6)}` })
    const dataset = yield* gloss.datasets.add({
      name: "gloss-src",
      workspace: workspace.name,
      settings: {
        fields: [{ name: "text", title: "Text", required: true, settings: { type: "text" } }],
        questions: [
          { name: "label", title: "Label", required: true, settings: { type: "label_selection", options: [{ value: "pos", text: "Pos" }, { value: "neg", text: "Neg" }] } },
          { name: "topics", title: "Topics", required: false, settings: { type: "multi_label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] } },
          { name: "rating", title: "Rating", required: false, settings: { type: "rating", options: [{ value: 1 }, { value: 2 }, { value: 3 }] } }
        ],
        metadata: [{ name: "year", title: "Year", settings: { type: "integer" } }, { name: "source", title: "Source", settings: { type: "terms" } }],
        vectors: [{ name: "emb", title: "Emb", dimensions: 3 }]
      }
    })
    yield* gloss.records.log(dataset, Array.from({ length: 40 }, (_, i) => ({
      external_id: `g${i}`,
      fields: { text: `text ${i}` },
      metadata: { year: 2000 + (i % 5), source: `s${i % 2}` },
      vectors: { emb: [i, i / 4, -1] },
      suggestions: [
        { question_name: "label", value: i % 2 ? "pos" : "neg", score: 0.25, agent: "m1" },
        ...(i % 3 === 0 ? [{ question_name: "topics", value: ["a", "b"], score: [0.5, 0.75], agent: "m2" }] : [])
      ],
      responses: i % 4 === 0
        ? [{ user_id: me, status: "submitted" as const, values: { label: { value: "pos" }, topics: { value: ["b"] }, rating: { value: 2 } } }]
        : []
    })))
    return { dataset, workspace }
  })

if (missing !== undefined) {
  vitestIt.skip("the SDK reads Gloss's Hub repos and the other way round (no .venv/bin/python)", () => {})
} else {
  layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 120_000 })("Hub interop with the SDK", (it) => {
    it.scoped("the SDK's Dataset.from_hub imports what Gloss's toHub wrote", () =>
      Effect.gen(function*() {
        const hub = yield* fakeDatasetHub()
        const gloss = yield* ownerGloss()
        const me = yield* gloss.me
        const { dataset, workspace } = yield* glossSource(gloss, me.id)
        yield* gloss.datasets.toHub(dataset, "org/from-gloss", { token: HUB_TOKEN, endpoint: hub.url })
        const imported = yield* sdk(["from-hub", "org/from-gloss", "sdk-imported", workspace.name], hub.url)
        expect(imported.records).toBe(40)
        expect(yield* records(gloss, imported.id)).toEqual(yield* records(gloss, dataset.id))
      }), 180_000)

    it.scoped("the SDK's Dataset.from_hub reads the server's Parquet export, its final answers and usernames ignored", () =>
      Effect.gen(function*() {
        const hub = yield* fakeDatasetHub()
        const gloss = yield* ownerGloss()
        const me = yield* gloss.me
        const { dataset, workspace } = yield* glossSource(gloss, me.id)
        const settled = Chunk.toArray(yield* Stream.runCollect(gloss.records.stream({ id: dataset.id }, { batchSize: 100 })))
          .find((record) => record.external_id === "g0")
        if (settled === undefined) throw new Error("no record g0")
        yield* gloss.call(gloss.api.review.settle({
          path: { id: settled.id },
          payload: { items: [{ question: "label", value: "neg", source: "reviewer" }, { question: "topics", value: ["a"], source: "reviewer" }] }
        }))
        yield* gloss.datasets.toHub(dataset, "org/from-gloss-export", { token: HUB_TOKEN, endpoint: hub.url })
        let job = yield* gloss.call(gloss.api.exports.start({ path: { id: dataset.id }, payload: { format: "parquet" } }))
        const deadline = Date.now() + 60_000
        while (job.status !== "finished" && job.status !== "failed" && Date.now() < deadline) {
          yield* Effect.sleep("100 millis")
          job = yield* gloss.call(gloss.api.jobs.get({ path: { id: job.id } }))
        }
        expect(job.status).toBe("finished")
        const exported = Buffer.from(yield* gloss.call(gloss.api.exports.download({ path: { id: job.id } })))
        const local = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-hub-sdk-")), "export.parquet")
        fs.writeFileSync(local, exported)
        const rows = yield* (yield* openParquetFile(local)).rowGroups[0]!
        const row = rows.find((r) => r["id"] === "g0")
        expect(row?.["label.final"]).toBe("neg")
        expect(row?.["topics.final"]).toEqual(["a"])
        expect(row?.["label.responses.usernames"]).toEqual([me.username])
        hub.repos.get("org/from-gloss-export")!.files.set("data/train-00000-of-00001.parquet", exported)
        const imported = yield* sdk(["from-hub", "org/from-gloss-export", "sdk-from-export", workspace.name], hub.url)
        expect(imported.records).toBe(40)
        expect(yield* records(gloss, imported.id)).toEqual(yield* records(gloss, dataset.id))
      }), 180_000)

    it.scoped("Gloss's fromHub imports what the SDK's Dataset.to_hub wrote", () =>
      Effect.gen(function*() {
        const hub = yield* fakeDatasetHub()
        const gloss = yield* ownerGloss()
        const workspace = yield* gloss.workspaces.add({ name: `sdkhub2-${Date.now()}` })
        const pushed = yield* sdk(["to-hub", "org/from-sdk", "sdk-src", workspace.name], hub.url)
        expect([...hub.repos.get("org/from-sdk")!.files.keys()]).toEqual(
          expect.arrayContaining([".argilla/settings.json", ".argilla/dataset.json", "data/train-00000-of-00001.parquet"])
        )
        // The SDK stores label suggestions as ClassLabel indices: fromHub reads them back as the labels.
        const parquet = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-hub-sdk-")), "train.parquet")
        fs.writeFileSync(parquet, hub.repos.get("org/from-sdk")!.files.get("data/train-00000-of-00001.parquet")!)
        const file = yield* openParquetFile(parquet)
        expect(file.features.get("label.suggestion")).toMatchObject({ _type: "ClassLabel" })
        expect(typeof (yield* file.rowGroups[0]!)[0]?.["label.suggestion"]).toBe("number")
        const back = yield* gloss.datasets.fromHub("org/from-sdk", { token: HUB_TOKEN, name: "gloss-imported", workspace: workspace.name, endpoint: hub.url })
        expect(back.records).toBe(60)
        expect(yield* records(gloss, back.dataset.id)).toEqual(yield* records(gloss, pushed.id))
      }), 180_000)
  })
}
