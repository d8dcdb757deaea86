/**
 * `POST /datasets/{id}/export` and `POST /datasets/{id}/import` (jobs, as in Argilla): a dataset pushed to
 * a (fake) Hugging Face Hub by a job, and a Hub dataset's rows imported as records by a mapping, each with its
 * progress on `GET /jobs/{id}`; on every database, and on SQLite with Redis where Redis runs. The export carries each
 * question's final answer as `<question>.final`.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import type { Dataset } from "../../src/client/index.js"
import { DatasetId } from "../../src/domain/Ids.js"
import { openParquetFile, openParquetWriter } from "../../src/transfer/hubParquet.js"
import { allRecords, comparable, fullDataset } from "../client/transferSupport.js"
import { ownerGloss } from "../client/support.js"
import { testSettings } from "../jobs/support/backends.js"
import { serverSetups, serverWithJobSettings, settledJob } from "../jobs/support/serverSetups.js"
import type { Dialect } from "../support/databases.js"
import { expectFailure } from "../support/expect.js"
import { type FakeDatasetHub, fakeDatasetHub, HUB_TOKEN } from "../support/fakeDatasetHub.js"
import { userWith } from "../support/fixtures.js"
import { clientFor, OWNER, TestServer } from "../support/server.js"

class Hub extends Context.Tag("test/Hub")<Hub, FakeDatasetHub>() {}

/** The fake Hub first, then a server that talks to it (`HF_ENDPOINT`) with its token for imports (`HF_TOKEN`). */
const serverWithHub = (dialect: Dialect, env: Record<string, string>) =>
  Layer.unwrapScoped(Effect.map(fakeDatasetHub({}, { multipartChunk: 16 * 1024 }), (hub) =>
    Layer.merge(
      serverWithJobSettings(dialect, { ...env, HF_ENDPOINT: hub.url, HF_TOKEN: HUB_TOKEN }, testSettings()),
      Layer.succeed(Hub, hub)
    )))

const settled = (id: string, apiKey: string = OWNER.apiKey) => settledJob(apiKey, id)

/** A file of a fake repo, read back as Parquet rows. */
const parquetRows = (bytes: Buffer | undefined) =>
  Effect.gen(function*() {
    expect(bytes).toBeDefined()
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-hub-jobs-")), "f.parquet")
    fs.writeFileSync(file, bytes!)
    const parquet = yield* openParquetFile(file)
    const rows = []
    for (const group of parquet.rowGroups) rows.push(...(yield* group))
    return rows
  })

/** A plain Hub dataset (not one Gloss or the SDK wrote): `rows` under `pathInRepo`, `label` a ClassLabel. */
const plainParquet = (rows: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function*() {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gloss-hub-plain-")), "plain.parquet")
    const features = {
      uid: { _type: "Value", dtype: "string" },
      review: { _type: "Value", dtype: "string" },
      stars: { _type: "Value", dtype: "int64" },
      label: { _type: "ClassLabel", names: ["neg", "pos"] }
    }
    const writer = yield* openParquetWriter(file, [
      { name: "uid", type: { kind: "string" } },
      { name: "review", type: { kind: "string" } },
      { name: "stars", type: { kind: "int64" } },
      { name: "label", type: { kind: "int64" } }
    ], { kvMetadata: [{ key: "huggingface", value: JSON.stringify({ info: { features } }) }] })
    yield* writer.append(rows)
    yield* writer.close
    return fs.readFileSync(file)
  })

/** A published dataset to import into: a text field, a label question, a rating question, an integer property. */
const importTarget = () =>
  Effect.gen(function*() {
    const gloss = yield* ownerGloss()
    const workspace = yield* gloss.workspaces.add({ name: `import-${Date.now()}-${Math.random().toString(36).slice(2, 6)}` })
    const dataset = yield* gloss.datasets.add({
      name: "target",
      workspace: workspace.name,
      settings: {
        fields: [{ name: "text", title: "Text", required: true, settings: { type: "text" } }],
        questions: [
          { name: "sentiment", title: "Sentiment", required: true, settings: { type: "label_selection", options: [{ value: "pos", text: "Pos" }, { value: "neg", text: "Neg" }] } }
        ],
        metadata: [{ name: "stars", title: "Stars", settings: { type: "integer", min: 1, max: 5 } }]
      }
    })
    return { gloss, dataset, workspace }
  })

const mapping = {
  fields: [{ source: "review", target: "text" }],
  metadata: [{ source: "stars", target: "stars" }],
  suggestions: [{ source: "label", target: "sentiment" }],
  external_id: "uid"
}

for (const [name, dialect, env] of serverSetups) {
  describe(name, () => {
    layer(serverWithHub(dialect, env), { excludeTestServices: true, timeout: 120_000 })("Hub export and import jobs", (it) => {
      it.scoped("export: the job pushes every record in the SDK's layout with final answers, with progress; fromHub reads it back whole", () =>
        Effect.gen(function*() {
          const hub = yield* Hub
          const gloss = yield* ownerGloss()
          const { dataset } = yield* fullDataset(gloss)
          const client = yield* clientFor(OWNER.apiKey)
          const first = (yield* allRecords(gloss, dataset)).find((record) => record.external_id === "r-0")
          if (first === undefined) throw new Error("no record r-0")
          yield* client.review.settle({
            path: { id: first.id },
            payload: { items: [{ question: "label", value: "neg", source: "reviewer" }, { question: "rating", value: 3, source: "reviewer" }] }
          })
          const repoId = `org/export-${dialect}-${Date.now()}`
          const started = yield* client.datasets.exportToHub({
            path: { id: dataset.id },
            payload: { name: repoId, token: HUB_TOKEN, private: true }
          })
          expect(started).toMatchObject({ status: "queued", progress: { done: 0, total: null, failed: 0, errors: [] } })
          const job = yield* settled(started.id)
          expect(job).toEqual({ id: started.id, status: "finished", progress: { done: 23, total: 23, failed: 0, errors: [] } })
          const repo = hub.repos.get(repoId)
          expect(repo?.private).toBe(true)
          expect([...(repo?.files.keys() ?? [])].sort()).toEqual(
            [".argilla/dataset.json", ".argilla/settings.json", "README.md", "data/train-00000-of-00001.parquet"]
          )
          const rows = yield* parquetRows(repo?.files.get("data/train-00000-of-00001.parquet"))
          expect(rows.map((row) => row["id"]).sort()).toEqual(Array.from({ length: 23 }, (_, i) => `r-${i}`).sort())
          const settledRow = rows.find((row) => row["id"] === "r-0")
          expect([settledRow?.["label.final"], settledRow?.["rating.final"], settledRow?.["topics.final"]]).toEqual(["neg", 3, null])
          expect(rows.find((row) => row["id"] === "r-1")?.["label.final"]).toBeNull()
          // The client reads what the job wrote: every record, response, suggestion, metadata value and vector.
          const back = yield* gloss.datasets.fromHub(repoId, {
            workspace: (yield* gloss.workspaces.add({ name: `back-${Date.now()}` })).name,
            endpoint: hub.url,
            token: HUB_TOKEN
          })
          expect(back.records).toBe(23)
          // What the SDK's Hub layout cannot hold (README, "What differs from the SDK"): a suggestion's type, and a
          // response without any value (a discard with no answers).
          const hubView = (record: ReturnType<ReturnType<typeof comparable>>) => ({
            ...record,
            suggestions: Object.fromEntries(
              Object.entries(record.suggestions).map(([name, suggestion]) => [name, { ...(suggestion as object), type: undefined }])
            ),
            responses: Object.fromEntries(Object.entries(record.responses).filter(([, response]) => response.values !== null))
          })
          const sorted = (ds: Dataset) =>
            Effect.map(allRecords(gloss, ds), (records) =>
              records.map(comparable(ds)).map(hubView).sort((a, b) => String(a.external_id).localeCompare(String(b.external_id))))
          expect(yield* sorted(back.dataset)).toEqual(yield* sorted(dataset))
        }))

      it.scoped("export to a subset: its own folder, declared in the card; a second export replaces the split's file", () =>
        Effect.gen(function*() {
          const hub = yield* Hub
          const { dataset } = yield* fullDataset(yield* ownerGloss())
          const client = yield* clientFor(OWNER.apiKey)
          const repoId = `org/subset-${dialect}-${Date.now()}`
          const payload = { name: repoId, token: HUB_TOKEN, subset: "reviews", split: "test" }
          for (let round = 0; round < 2; round++) {
            const started = yield* client.datasets.exportToHub({ path: { id: dataset.id }, payload })
            expect((yield* settled(started.id)).status).toBe("finished")
          }
          const repo = hub.repos.get(repoId)
          expect(repo?.private).toBe(false)
          expect([...(repo?.files.keys() ?? [])].filter((file) => file.endsWith(".parquet"))).toEqual(["reviews/test-00000-of-00001.parquet"])
          expect(repo?.files.get("README.md")?.toString()).toContain("config_name: \"reviews\"")
          expect(repo?.commits).toHaveLength(2)
        }))

      it.scoped("export: more records than a page of 1 000, each once, in the order they were added", () =>
        Effect.gen(function*() {
          const hub = yield* Hub
          const { dataset, gloss } = yield* importTarget()
          const count = 2_003
          yield* gloss.records.log(dataset, Array.from({ length: count }, (_, i) => ({ external_id: `k${i}`, fields: { text: `t${i}` } })))
          const client = yield* clientFor(OWNER.apiKey)
          const repoId = `org/pages-${dialect}-${Date.now()}`
          const started = yield* client.datasets.exportToHub({ path: { id: dataset.id }, payload: { name: repoId, token: HUB_TOKEN } })
          expect((yield* settled(started.id)).progress).toMatchObject({ done: count, total: count })
          const rows = yield* parquetRows(hub.repos.get(repoId)?.files.get("data/train-00000-of-00001.parquet"))
          expect(rows.map((row) => row["id"])).toEqual(Array.from({ length: count }, (_, i) => `k${i}`))
        }))

      it.scoped("export: 422 without records or with a bad repo id or token, 404 unknown, 403 annotator; a refused token fails the job saying why", () =>
        Effect.gen(function*() {
          const gloss = yield* ownerGloss()
          const { annotator, dataset } = yield* fullDataset(gloss)
          const empty = yield* gloss.datasets.add({
            name: "empty",
            workspace: (yield* gloss.workspaces.add({ name: `empty-${Date.now()}` })).name,
            settings: {
              fields: [{ name: "text", title: "Text", required: true, settings: { type: "text" } }],
              questions: [{ name: "q", title: "Q", required: true, settings: { type: "text" } }]
            }
          })
          const client = yield* clientFor(OWNER.apiKey)
          const exportOf = (id: string, payload: { name: string; token: string }) =>
            client.datasets.exportToHub({ path: { id: DatasetId.make(id) }, payload })
          yield* expectFailure(
            exportOf(empty.id, { name: "org/empty", token: HUB_TOKEN }),
            "Unprocessable",
            `Dataset with id '${empty.id}' has no records to export`
          )
          yield* expectFailure(exportOf("00000000-0000-4000-8000-000000000000", { name: "org/x", token: HUB_TOKEN }), "NotFound")
          const { url } = yield* TestServer
          for (const body of [{ name: "../etc", token: HUB_TOKEN }, { name: "org/x", token: "" }, { name: "org/x" }]) {
            const response = yield* Effect.promise(() =>
              fetch(`${url}/api/v1/datasets/${dataset.id}/export`, {
                method: "POST",
                headers: { "x-argilla-api-key": OWNER.apiKey, "content-type": "application/json" },
                body: JSON.stringify(body)
              })
            )
            expect(response.status, JSON.stringify(body)).toBe(422)
          }
          const asAnnotator = yield* clientFor(annotator.api_key)
          yield* expectFailure(
            asAnnotator.datasets.exportToHub({ path: { id: dataset.id }, payload: { name: "org/x", token: HUB_TOKEN } }),
            "Forbidden"
          )
          const refused = yield* exportOf(dataset.id, { name: "org/refused", token: "hf_wrong" })
          const job = yield* settled(refused.id)
          expect(job.status).toBe("failed")
          expect(job.progress?.errors).toEqual([{ id: "org/refused", detail: expect.stringContaining("refused the token") }])
        }))

      // The jobs table: the sealing happens before any queue sees the payload, so the SQL queues show it for both.
      if (!("GLOSS_REDIS_URL" in env)) it.scoped("export: the token is stored sealed, never in the job's payload as given", () =>
        Effect.gen(function*() {
          const { dataset } = yield* fullDataset(yield* ownerGloss())
          const client = yield* clientFor(OWNER.apiKey)
          const started = yield* client.datasets.exportToHub({
            path: { id: dataset.id },
            payload: { name: `org/sealed-${Date.now()}`, token: HUB_TOKEN }
          })
          expect((yield* settled(started.id)).status).toBe("finished")
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ payload: unknown }>`select payload from jobs where id = ${started.id}`
          expect(rows).toHaveLength(1)
          const stored = JSON.stringify(rows[0]?.payload)
          expect(stored).not.toContain(HUB_TOKEN)
          expect(stored).toContain("sealedToken")
        }))

      it.scoped("import: rows become records by the mapping (label indices to names), with progress; again: upserted", () =>
        Effect.gen(function*() {
          const hub = yield* Hub
          const rows = Array.from({ length: 2500 }, (_, i) => ({ uid: `u${i}`, review: `review ${i}`, stars: 1 + (i % 5), label: i % 2 }))
          const repoId = `org/plain-${dialect}-${Date.now()}`
          hub.repos.set(repoId, {
            private: true,
            files: new Map([
              ["data/train-00000-of-00002.parquet", yield* plainParquet(rows.slice(0, 2000))],
              ["data/train-00001-of-00002.parquet", yield* plainParquet(rows.slice(2000))],
              ["data/test-00000-of-00001.parquet", yield* plainParquet(rows.slice(0, 3))]
            ]),
            commits: []
          })
          const { dataset, gloss } = yield* importTarget()
          const client = yield* clientFor(OWNER.apiKey)
          const request = { name: repoId, subset: "default", split: "train", mapping }
          for (let round = 0; round < 2; round++) {
            const started = yield* client.datasets.importFromHub({ path: { id: dataset.id }, payload: request })
            expect(started.status).toBe("queued")
            const job = yield* settled(started.id)
            expect(job).toEqual({ id: started.id, status: "finished", progress: { done: 2500, total: 2500, failed: 0, errors: [] } })
          }
          const records = yield* Effect.map(
            gloss.call(gloss.api.records.list({
              path: { id: dataset.id },
              urlParams: { offset: 0, limit: 1000, include: ["suggestions"] }
            })),
            (page) => page
          )
          expect(records.total).toBe(2500)
          const first = records.items.find((record) => record.external_id === "u1")
          expect(first).toMatchObject({ fields: { text: "review 1" }, metadata: { stars: 2 } })
          expect(first?.suggestions).toEqual([expect.objectContaining({ value: "pos", agent: repoId })])
        }))

      it.scoped("import: rows the dataset refuses are counted and named, the others imported; a missing split fails the job", () =>
        Effect.gen(function*() {
          const hub = yield* Hub
          const repoId = `org/bad-rows-${dialect}-${Date.now()}`
          // Stars 9 is outside the property's range 1-5: those rows are refused, alone.
          const rows = Array.from({ length: 10 }, (_, i) => ({ uid: `b${i}`, review: `r${i}`, stars: i % 4 === 0 ? 9 : 3, label: 0 }))
          hub.repos.set(repoId, { private: false, files: new Map([["train.parquet", yield* plainParquet(rows)]]), commits: [] })
          const { dataset } = yield* importTarget()
          const client = yield* clientFor(OWNER.apiKey)
          const started = yield* client.datasets.importFromHub({
            path: { id: dataset.id },
            payload: { name: repoId, subset: "default", split: "train", mapping }
          })
          const job = yield* settled(started.id)
          expect(job.status).toBe("finished")
          expect(job.progress).toMatchObject({ done: 10, total: 10, failed: 3 })
          expect(job.progress?.errors.map((error) => error.id)).toEqual(["b0", "b4", "b8"])
          const missing = yield* client.datasets.importFromHub({
            path: { id: dataset.id },
            payload: { name: repoId, subset: "default", split: "validation", mapping }
          })
          const failed = yield* settled(missing.id)
          expect(failed.status).toBe("failed")
          expect(failed.progress?.errors[0]?.detail).toContain("no Parquet files of subset 'default' and split 'validation' (splits found: train)")
        }))

      it.scoped("import: 422 for a draft dataset or a mapping to what the dataset lacks; 403 for an annotator", () =>
        Effect.gen(function*() {
          const { dataset, gloss, workspace } = yield* importTarget()
          const client = yield* clientFor(OWNER.apiKey)
          const request = { name: "org/anything", subset: "default", split: "train", mapping }
          yield* expectFailure(
            client.datasets.importFromHub({
              path: { id: dataset.id },
              payload: { ...request, mapping: { ...mapping, fields: [{ source: "review", target: "nope" }], suggestions: [{ source: "label", target: "q2" }] } }
            }),
            "Unprocessable",
            "mapping: field 'nope' does not exist in the dataset; question 'q2' does not exist in the dataset"
          )
          const draft = yield* gloss.call(gloss.api.datasets.create({ payload: { name: "draft", workspace_id: workspace.id } }))
          yield* expectFailure(
            client.datasets.importFromHub({ path: { id: draft.id }, payload: request }),
            "Unprocessable",
            "records cannot be created or updated for a non published dataset"
          )
          const annotator = yield* userWith("annotator", [{ id: workspace.id, name: workspace.name } as never])
          const asAnnotator = yield* clientFor(annotator.user.api_key)
          yield* expectFailure(asAnnotator.datasets.importFromHub({ path: { id: dataset.id }, payload: request }), "Forbidden")
        }))
    })
  })
}
