/**
 * `datasets.toHub` / `fromHub` through a fake Hugging Face Hub on a real Gloss: the repo gets the SDK's
 * files (records Parquet through multipart LFS, settings, dataset model, card), the private flag and the split; the
 * file list is read over several pages; the import gives back every record with its responses, suggestions, metadata
 * and vectors; it is atomic (or keeps what came before with keepPartial); a wrong token is `HubUnauthorized`.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { openParquetWriter } from "../../src/transfer/hubParquet.js"
import { hubColumns } from "../../src/transfer/hubRows.js"
import type { DatasetRecord } from "../../src/domain/Record.js"
import { Client } from "../../src/client/index.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { fakeDatasetHub, HUB_TOKEN } from "../support/fakeDatasetHub.js"
import { ownerGloss } from "./support.js"

const strip = (record: DatasetRecord) => ({
  external_id: record.external_id,
  fields: record.fields,
  metadata: record.metadata,
  vectors: record.vectors,
  responses: (record.responses ?? []).map(({ status, user_id, values }) => ({ status, user_id, values })),
  suggestions: (record.suggestions ?? []).map(({ agent, score, value }) => ({ agent, score, value }))
})

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 120_000 })("datasets.toHub / fromHub", (it) => {
  it.scoped("round-trips every record, response, suggestion, metadata value and vector", () =>
    Effect.gen(function*() {
      // Multipart LFS parts of 16 KiB, and the file list two entries a page: both flows of the real Hub.
      const hub = yield* fakeDatasetHub({}, { multipartChunk: 16 * 1024, treePage: 2 })
      const gloss = yield* ownerGloss()
      const me = yield* gloss.me
      const workspace = yield* gloss.workspaces.add({ name: `hub-${Date.now()}` })
      const dataset = yield* gloss.datasets.add({
        name: `hub-src-${Date.now()}`,
        workspace: workspace.name,
        settings: {
          fields: [{ name: "text", title: "Text", required: true, settings: { type: "text" } }],
          questions: [
            { name: "label", title: "Label", required: true, settings: { type: "label_selection", options: [{ value: "pos", text: "Pos" }, { value: "neg", text: "Neg" }] } },
            { name: "rating", title: "Rating", required: false, settings: { type: "rating", options: [{ value: 1 }, { value: 2 }, { value: 3 }] } }
          ],
          metadata: [{ name: "year", title: "Year", settings: { type: "integer" } }, { name: "source", title: "Source", settings: { type: "terms" } }],
          vectors: [{ name: "emb", title: "Emb", dimensions: 3 }]
        }
      })
      const count = 1234
      yield* gloss.records.log(dataset, Array.from({ length: count }, (_, i) => ({
        external_id: `r${i}`,
        fields: { text: `text ${i}` },
        metadata: { year: 2000 + (i % 20), source: `s${i % 3}` },
        vectors: { emb: [i, i / 2, -i] },
        suggestions: i % 2 === 0 ? [{ question_name: "label", value: i % 4 === 0 ? "pos" : "neg", score: 0.5, agent: "m1" }] : [],
        responses: i % 3 === 0 ? [{ user_id: me.id, status: "submitted", values: { label: { value: "pos" }, rating: { value: 1 + (i % 3) } } }] : []
      })), { batchSize: 500 })
      const progress: Array<number> = []
      const pushed = yield* gloss.datasets.toHub(dataset, "org/exported", {
        token: HUB_TOKEN, private: true, split: "validation", endpoint: hub.url, inlineLimit: 1024,
        onProgress: (p) => progress.push(p.done)
      })
      expect(pushed.records).toBe(count)
      expect(progress.at(-1)).toBe(count)
      const repo = hub.repos.get("org/exported")!
      expect(repo.private).toBe(true)
      expect([...repo.files.keys()].sort()).toEqual([".argilla/dataset.json", ".argilla/settings.json", "README.md", "data/validation-00000-of-00001.parquet"])
      expect(hub.calls).toContain("POST /datasets/org/exported.git/info/lfs/objects/batch")
      expect(hub.calls.filter((call) => call.startsWith("PUT /lfs-part/")).length).toBeGreaterThan(1)
      expect(hub.calls.filter((call) => call.startsWith("POST /lfs-complete/")).length).toBe(1)

      const imported = yield* gloss.datasets.fromHub("org/exported", { token: HUB_TOKEN, name: `hub-dst-${Date.now()}`, workspace: workspace.name, endpoint: hub.url })
      expect(hub.calls.filter((call) => call === "GET /api/datasets/org/exported/tree/main").length).toBeGreaterThan(1)
      expect(imported.records).toBe(count)
      expect(imported.split).toBe("validation")
      expect(imported.dataset.settings.questions.map((q) => [q.name, q.settings.type])).toEqual([["label", "label_selection"], ["rating", "rating"]])
      expect(imported.dataset.settings.metadata.map((m) => m.name).sort()).toEqual(["source", "year"])
      expect(imported.dataset.settings.vectors.map((v) => [v.name, v.dimensions])).toEqual([["emb", 3]])
      const all = (d: { id: string }) =>
        Effect.map(Stream.runCollect(gloss.records.stream(d, { batchSize: 1000, include: ["responses", "suggestions", "vectors"] })), (c) =>
          Chunk.toArray(c).map(strip).sort((a, b) => String(a.external_id).localeCompare(String(b.external_id))))
      const before = yield* all(dataset)
      const after = yield* all(imported.dataset)
      expect(after.length).toBe(count)
      expect(after).toEqual(before)

      // The same name again is refused before anything is created.
      const taken = yield* Effect.flip(gloss.datasets.fromHub("org/exported", { token: HUB_TOKEN, name: imported.dataset.name, workspace: workspace.name, endpoint: hub.url }))
      expect(taken._tag).toBe("DatasetNameTaken")

      // A refused batch: the new dataset is deleted (atomic), or kept with what came before it (keepPartial).
      const rows = before.map((record, i) => ({
        id: record.external_id,
        text: (record.fields as { text: string }).text,
        "rating.responses": i === 700 ? [99] : null,
        "rating.responses.users": i === 700 ? [me.id] : null,
        "rating.responses.status": i === 700 ? ["submitted"] : null
      }))
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-hub-bad-")), "bad.parquet")
      const writer = yield* openParquetWriter(file, hubColumns(dataset.settings))
      yield* writer.append(rows)
      yield* writer.close
      const good = hub.repos.get("org/exported")!.files
      hub.repos.set("org/bad", {
        private: false,
        commits: [],
        files: new Map([
          [".argilla/settings.json", good.get(".argilla/settings.json")!],
          [".argilla/dataset.json", good.get(".argilla/dataset.json")!],
          ["data/train-00000-of-00001.parquet", fs.readFileSync(file)]
        ])
      })
      const names = () => Effect.map(gloss.datasets.get({ workspace: workspace.name }), (all) => all.map((d) => d.name).sort())
      const namesBefore = yield* names()
      const failed = yield* Effect.flip(gloss.datasets.fromHub("org/bad", { token: HUB_TOKEN, name: "bad-atomic", workspace: workspace.name, endpoint: hub.url }))
      expect(failed._tag).toBe("DatasetImportFailed")
      expect(failed.message).toContain("records 501–")
      expect(yield* names()).toEqual(namesBefore)
      const partial = yield* Effect.flip(gloss.datasets.fromHub("org/bad", { token: HUB_TOKEN, name: "bad-kept", workspace: workspace.name, endpoint: hub.url, keepPartial: true }))
      expect(partial).toMatchObject({ _tag: "DatasetImportFailed", imported: 500, kept: true })

      const refused = yield* Effect.flip(gloss.datasets.toHub(dataset, "org/x", { token: "hf_wrong", endpoint: hub.url }))
      expect(refused._tag).toBe("HubUnauthorized")
    }), { timeout: 120_000 })

  it.scoped("a missing repo is HubRepoNotFound", () =>
    Effect.gen(function*() {
      const hub = yield* fakeDatasetHub()
      const gloss = yield* ownerGloss()
      const missing = yield* Effect.flip(gloss.datasets.fromHub("org/none", { token: HUB_TOKEN, workspace: "w", endpoint: hub.url }))
      expect(missing._tag).toBe("HubRepoNotFound")
    }))

  it.scoped("the Promise face pushes and pulls the same way; a push replaces the split's earlier shards", () =>
    Effect.gen(function*() {
      // The repo exists with an earlier push of two train shards and a test split.
      const hub = yield* fakeDatasetHub({
        "org/promise": {
          private: false,
          commits: [],
          files: new Map([
            ["data/train-00000-of-00002.parquet", Buffer.from("old")],
            ["data/train-00001-of-00002.parquet", Buffer.from("old")],
            ["data/test-00000-of-00001.parquet", Buffer.from("kept")]
          ])
        }
      })
      const gloss = yield* ownerGloss()
      const workspace = yield* gloss.workspaces.add({ name: `hub-p-${Date.now()}` })
      const dataset = yield* gloss.datasets.add({
        name: "promise-src",
        workspace: workspace.name,
        settings: {
          fields: [{ name: "text", title: "Text", required: true, settings: { type: "text" } }],
          questions: [{ name: "note", title: "Note", required: true, settings: { type: "text" } }]
        }
      })
      yield* gloss.records.log(dataset, Array.from({ length: 7 }, (_, i) => ({ external_id: `p${i}`, fields: { text: `t${i}` } })))
      const { url } = yield* TestServer
      const result = yield* Effect.promise(async () => {
        const client = new Client({ apiUrl: url, apiKey: OWNER.apiKey, onLog: () => {} })
        try {
          const out = await client.datasets.toHub(dataset, "org/promise", { token: HUB_TOKEN, endpoint: hub.url })
          const back = await client.datasets.fromHub("org/promise", { token: HUB_TOKEN, name: "promise-dst", workspace: workspace.name, endpoint: hub.url })
          return { out: out.records, back: back.records, split: back.split }
        } finally {
          await client.close()
        }
      })
      expect(result).toEqual({ out: 7, back: 7, split: "train" })
      expect([...hub.repos.get("org/promise")!.files.keys()].filter((p) => p.startsWith("data/")).sort()).toEqual([
        "data/test-00000-of-00001.parquet",
        "data/train-00000-of-00001.parquet"
      ])
      expect(hub.repos.get("org/promise")!.private).toBe(false)
    }))
})
