/**
 * `datasets.toDisk` / `datasets.fromDisk` through a real server, on every database of this environment:
 * a dataset with every field, question and metadata kind, a vector, suggestions and responses of two users (drafts,
 * submitted, discarded without values, ranks) goes out to a folder in the Argilla SDK's layout and back in as a new
 * dataset, and every record, response, suggestion, vector and metadata value, and the settings, are compared. A
 * failed import leaves no dataset (or, asked to, keeps it and says how many records it holds).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import type { TransferProgress } from "../../src/client/index.js"
import { Client } from "../../src/client/index.js"
import { dialects } from "../support/databases.js"
import { unique } from "../support/fixtures.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { ownerGloss } from "./support.js"
import { allRecords, comparable, comparableSettings, fullDataset, tempDir } from "./transferSupport.js"

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, "utf8"))

for (const dialect of dialects) {
  layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 120_000 })(`datasets to and from disk on ${dialect}`, (it) => {
    it.scoped("round trip: every record, response, suggestion, vector, metadata value and setting comes back", () =>
      Effect.gen(function*() {
        const client = yield* ownerGloss()
        const { dataset, workspace } = yield* fullDataset(client)
        const dir = path.join(tempDir(), "export")
        const outProgress: Array<TransferProgress> = []
        const out = yield* client.datasets.toDisk(dataset, dir, { batchSize: 10, onProgress: (p) => outProgress.push(p) })
        expect(out).toEqual({ dir, records: 23 })
        expect(outProgress).toEqual([{ done: 10, total: 23 }, { done: 20, total: 23 }, { done: 23, total: 23 }])

        // The SDK's layout and shapes.
        expect(fs.readdirSync(dir).sort()).toEqual([".argilla", "records.json"])
        const model = readJson(path.join(dir, ".argilla/dataset.json"))
        expect(Object.keys(model as object)).toEqual([
          "id", "inserted_at", "updated_at", "name", "status", "guidelines", "allow_extra_metadata", "distribution",
          "workspace_id", "last_activity_at", "metadata"
        ])
        expect(model).toMatchObject({ id: dataset.id, name: dataset.name, status: "ready", workspace_id: workspace.id })
        expect((model as { inserted_at: string }).inserted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/)
        const settings = readJson(path.join(dir, ".argilla/settings.json"))
        expect(Object.keys(settings as object)).toEqual([
          "guidelines", "questions", "fields", "vectors", "metadata", "allow_extra_metadata", "distribution", "mapping"
        ])
        expect(settings).toMatchObject({
          fields: [{ name: "text", type: "text", description: null }, { name: "image" }, { name: "chat" }, { name: "custom" }],
          metadata: [{ name: "topic", settings: { type: "terms", visible_for_annotators: true } }, { name: "rank" }, { name: "score" }],
          vectors: [{ name: "emb", dimensions: 3 }]
        })
        const written = readJson(path.join(dir, "records.json"))
        expect(Array.isArray(written) && written.length).toBe(23)
        const first: unknown = Array.isArray(written) ? written[0] : undefined
        expect(Object.keys(first as object)).toEqual(["id", "fields", "metadata", "suggestions", "responses", "vectors", "status", "_server_id"])
        expect(first).toMatchObject({
          id: "r-0",
          suggestions: { label: { value: "pos", score: 0.25, agent: "model-1" }, ranking: { value: ["z", "x"] } },
          responses: { label: [{ value: "pos", user_id: (yield* client.me).id, status: "submitted" }] },
          vectors: { emb: [0, 0, 0] }
        })

        const inProgress: Array<TransferProgress> = []
        const name = unique("copy")
        const copy = yield* client.datasets.fromDisk(dir, {
          name,
          workspace: workspace.name,
          batchSize: 10,
          onProgress: (p) => inProgress.push(p)
        })
        expect(copy.records).toBe(23)
        expect(inProgress).toEqual([{ done: 10, total: 23 }, { done: 20, total: 23 }, { done: 23, total: 23 }])
        expect(copy.dataset.name).toBe(name)
        expect(copy.dataset.id).not.toBe(dataset.id)
        expect(comparableSettings(copy.dataset)).toEqual(comparableSettings(dataset))

        const before = (yield* allRecords(client, dataset)).map(comparable(dataset))
        const after = (yield* allRecords(client, copy.dataset)).map(comparable(copy.dataset))
        expect(after).toHaveLength(23)
        expect(after).toEqual(before)
        // The file's records are not the new dataset's: new ids.
        const newIds = new Set((yield* allRecords(client, copy.dataset)).map((r) => r.id))
        expect((yield* allRecords(client, dataset)).some((r) => newIds.has(r.id))).toBe(false)
      }), 120_000)

    it.scoped("export refuses a folder that is not empty; an import under a taken name is refused", () =>
      Effect.gen(function*() {
        const client = yield* ownerGloss()
        const { dataset, workspace } = yield* fullDataset(client)
        const dir = tempDir()
        fs.writeFileSync(path.join(dir, "notes.txt"), "mine")
        const refused = yield* Effect.either(client.datasets.toDisk(dataset, dir))
        expect(Either.getLeft(refused).pipe((e) => e._tag === "Some" ? e.value._tag : "")).toBe("TransferFileError")
        expect(fs.readdirSync(dir)).toEqual(["notes.txt"])

        const out = path.join(tempDir(), "x")
        yield* client.datasets.toDisk(dataset, out, { withRecords: false })
        expect(fs.existsSync(path.join(out, "records.json"))).toBe(false)
        const taken = yield* Effect.flip(client.datasets.fromDisk(out, { workspace: workspace.name }))
        expect(taken._tag).toBe("DatasetNameTaken")
        expect(taken.message).toBe(
          `A dataset named '${dataset.name}' already exists in workspace '${workspace.name}': import under another name`
        )
        const missing = yield* Effect.flip(client.datasets.fromDisk(tempDir(), { workspace: workspace.name }))
        expect(missing._tag).toBe("TransferFileError")
      }), 120_000)

    it.scoped("a failed import deletes the new dataset; with keepPartial it keeps it and says how many records", () =>
      Effect.gen(function*() {
        const client = yield* ownerGloss()
        const { dataset, workspace } = yield* fullDataset(client)
        const dir = path.join(tempDir(), "export")
        yield* client.datasets.toDisk(dataset, dir)
        // Record 15 no longer fits the settings: a label the question does not offer.
        const file = path.join(dir, "records.json")
        const records = readJson(file)
        if (!Array.isArray(records)) throw new Error("records.json is not an array")
        records[14].suggestions.label.value = "maybe"
        fs.writeFileSync(file, JSON.stringify(records))

        const name = unique("broken")
        const failed = yield* Effect.flip(client.datasets.fromDisk(dir, { name, workspace: workspace.name, batchSize: 10 }))
        expect(failed._tag).toBe("DatasetImportFailed")
        expect(failed).toMatchObject({ dataset: name, imported: 0, total: 23, kept: false })
        expect(failed.message).toMatch(/the batch of records 11–20 was refused: .*maybe.*; the dataset was deleted, nothing was imported$/)
        const names = (yield* client.datasets.get({ workspace: workspace.name })).map((d) => d.name)
        expect(names).not.toContain(name)

        const kept = yield* Effect.flip(
          client.datasets.fromDisk(dir, { name, workspace: workspace.name, batchSize: 10, keepPartial: true })
        )
        expect(kept).toMatchObject({ _tag: "DatasetImportFailed", imported: 10, total: 23, kept: true })
        const partial = yield* client.datasets.get({ name, workspace: workspace.name })
        expect(partial._tag).toBe("Some")
        if (partial._tag === "Some") expect(yield* allRecords(client, partial.value)).toHaveLength(10)
      }), 120_000)

    it.scoped("a records.json cut short, or holding something else than the SDK's records, fails before anything is created", () =>
      Effect.gen(function*() {
        const client = yield* ownerGloss()
        const { dataset, workspace } = yield* fullDataset(client)
        const dir = path.join(tempDir(), "export")
        yield* client.datasets.toDisk(dataset, dir)
        const file = path.join(dir, "records.json")
        const text = fs.readFileSync(file, "utf8")
        const names = () => Effect.map(client.datasets.get({ workspace: workspace.name }), (all) => all.map((d) => d.name))
        const before = yield* names()

        fs.writeFileSync(file, text.slice(0, Math.floor(text.length / 2)))
        const cut = yield* Effect.flip(client.datasets.fromDisk(dir, { name: unique("cut"), workspace: workspace.name }))
        expect(cut).toMatchObject({ _tag: "InvalidExportFile", path: file, detail: expect.stringMatching(/^the file ends before the array does/) })

        const records = JSON.parse(text)
        records[20].fields = "not an object"
        fs.writeFileSync(file, JSON.stringify(records))
        const wrong = yield* Effect.flip(client.datasets.fromDisk(dir, { name: unique("wrong"), workspace: workspace.name }))
        expect(wrong).toMatchObject({ _tag: "InvalidExportFile", detail: expect.stringMatching(/^record 21: fields: /) })
        expect(yield* names()).toEqual(before)
      }), 120_000)

    it.scoped("a response by a user the server does not have fails the import, which is undone (the SDK fails too)", () =>
      Effect.gen(function*() {
        const client = yield* ownerGloss()
        const { dataset, workspace } = yield* fullDataset(client)
        const dir = path.join(tempDir(), "export")
        yield* client.datasets.toDisk(dataset, dir)
        const file = path.join(dir, "records.json")
        const records = readJson(file)
        if (!Array.isArray(records)) throw new Error("records.json is not an array")
        records[0].responses.label[0].user_id = "00000000-0000-4000-8000-000000000123"
        fs.writeFileSync(file, JSON.stringify(records))
        const name = unique("stranger")
        const failed = yield* Effect.flip(client.datasets.fromDisk(dir, { name, workspace: workspace.name }))
        expect(failed).toMatchObject({ _tag: "DatasetImportFailed", imported: 0, kept: false })
        expect(failed.message).toContain("the batch of records 1–23 was refused")
        const names = (yield* client.datasets.get({ workspace: workspace.name })).map((d) => d.name)
        expect(names).not.toContain(name)
      }), 120_000)

    it.scoped("the Promise face exports and imports the same way", () =>
      Effect.gen(function*() {
        const gloss = yield* ownerGloss()
        const { dataset, workspace } = yield* fullDataset(gloss)
        const { url } = yield* TestServer
        const result = yield* Effect.promise(async () => {
          const client = new Client({ apiUrl: url, apiKey: OWNER.apiKey, onLog: () => {} })
          try {
            const dir = path.join(tempDir(), "promise")
            const out = await client.datasets.toDisk(dataset, dir)
            const back = await client.datasets.fromDisk(dir, { name: unique("promise"), workspace: workspace.name })
            return { out: out.records, back: back.records }
          } finally {
            await client.close()
          }
        })
        expect(result).toEqual({ out: 23, back: 23 })
      }), 120_000)
  })
}
