/**
 * `POST /api/gloss/datasets/{id}/exports` and `GET /api/gloss/exports/{id}/file` (a Gloss extension): each format's
 * content (usernames, statuses, suggestions, vectors, final answers), the subset a search selects, who may export and download,
 * expiry, and that the file served is the one stored in the database; through the typed client on both databases.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { parquetReadObjects } from "hyparquet"
import { Effect } from "effect"
import type { ExportRequest } from "../../src/domain/Export.js"
import { DatasetId } from "../../src/domain/Ids.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { expectFailure } from "../support/expect.js"
import { userWith, workspace } from "../support/fixtures.js"
import { clientFor, OWNER, TestServer, TestServerLive } from "../support/server.js"
import { settledJob } from "../jobs/support/serverSetups.js"
import { zipEntries } from "../support/zipEntries.js"

type Json = Record<string, any>

/**
 * A published dataset of 5 records (group "a" for 0, 2, 4), a vector each, a suggestion on 0, answers on 0 and 1;
 * record 0's `label` settled by the admin on alice's answer, with a note.
 */
const seeded = Effect.gen(function*() {
  const w = yield* workspace()
  const ds = yield* draftDataset(w)
  const post = (kind: string, payload: unknown) => send("POST", datasetPath(ds, `/${kind}`), payload)
  yield* post("fields", { name: "text", title: "Text", settings: { type: "text" } })
  yield* post("questions", {
    name: "label",
    title: "Label",
    required: true,
    settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
  })
  yield* post("questions", { name: "note", title: "Note", required: false, settings: { type: "text" } })
  yield* post("metadata-properties", { name: "group", title: "Group", settings: { type: "terms" } })
  yield* post("vectors-settings", { name: "emb", title: "Emb", dimensions: 2 })
  yield* send("PUT", datasetPath(ds, "/publish"))
  const alice = yield* userWith("annotator", [w])
  const admin = yield* userWith("admin", [w])
  const other = yield* userWith("admin", [w])
  const items = Array.from({ length: 5 }, (_, i) => ({
    external_id: `ext-${i}`,
    fields: { text: `record, "${i}"\nsecond line` },
    metadata: { group: i % 2 === 0 ? "a" : "b" },
    vectors: { emb: [i, 0.5] },
    ...(i === 0
      ? {
        suggestions: [{ question_name: "label", value: "yes", score: 0.75, agent: "model-a", type: "model" }],
        responses: [{ user_id: alice.user.id, status: "submitted", values: { label: { value: "no" }, note: { value: "why" } } }]
      }
      : {}),
    ...(i === 1 ? { responses: [{ user_id: admin.user.id, status: "draft", values: { label: { value: "yes" } } }] } : {})
  }))
  const created = yield* send("POST", datasetPath(ds, "/records/bulk"), { items })
  expect(created.status).toBe(201)
  const listed = yield* admin.client.records.list({ path: { id: DatasetId.make(ds.id) }, urlParams: { limit: 1 } })
  const first = listed.items[0]
  if (first === undefined) throw new Error("no record to settle")
  expect(first.external_id).toBe("ext-0")
  yield* admin.client.review.settle({
    path: { id: first.id },
    payload: { items: [{ question: "label", value: "no", source: "response", source_user_id: alice.user.id, note: "checked" }] }
  })
  return { w, ds, alice, admin, other }
})

/** Starts an export as `apiKey`, waits for it, and downloads its file through the typed client. */
const exported = (apiKey: string, datasetId: string, request: ExportRequest) =>
  Effect.gen(function*() {
    const client = yield* clientFor(apiKey)
    const started = yield* client.exports.start({ path: { id: DatasetId.make(datasetId) }, payload: request })
    expect(started).toMatchObject({ status: "queued" })
    const job = yield* settledJob(apiKey, started.id)
    expect(job.status).toBe("finished")
    const bytes = yield* client.exports.download({ path: { id: started.id } })
    return { job, bytes, id: started.id }
  })

const fetchFile = (id: string, apiKey: string) =>
  Effect.flatMap(TestServer, ({ url }) =>
    Effect.promise(async () => {
      const response = await fetch(`${url}/api/gloss/exports/${id}/file`, { headers: { "x-gloss-api-key": apiKey } })
      return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
    }))

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8")

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 120_000 })("exports", (it) => {
      it.effect("JSON Lines: every record as the API answers it, responses with usernames, suggestions and vectors", () =>
        Effect.gen(function*() {
          const { alice, admin, ds } = yield* seeded
          const { bytes, job } = yield* exported(admin.user.api_key, ds.id, { format: "jsonl" })
          expect(job.progress).toEqual({ done: 5, total: 5, failed: 0, errors: [] })
          const lines = text(bytes).trimEnd().split("\n").map((line) => JSON.parse(line) as Json)
          expect(lines.map((r) => r.external_id)).toEqual(["ext-0", "ext-1", "ext-2", "ext-3", "ext-4"])
          const [first, second] = lines
          expect(first?.responses).toEqual([
            expect.objectContaining({ user_id: alice.user.id, username: alice.user.username, status: "submitted",
              values: { label: { value: "no" }, note: { value: "why" } } })
          ])
          expect(second?.responses).toEqual([
            expect.objectContaining({ user_id: admin.user.id, username: admin.user.username, status: "draft" })
          ])
          expect(first?.suggestions).toEqual([
            expect.objectContaining({ value: "yes", score: 0.75, agent: "model-a", type: "model" })
          ])
          expect(first?.vectors).toEqual({ emb: [0, 0.5] })
          expect(first?.metadata).toEqual({ group: "a" })
          expect(first?.fields).toEqual({ text: "record, \"0\"\nsecond line" })
          expect(first?.status).toBe("completed")
          expect(first?.final_answers).toEqual({
            label: {
              value: "no",
              source: "response",
              source_user_id: alice.user.id,
              source_username: alice.user.username,
              note: "checked",
              settled_by: admin.user.id,
              settled_by_username: admin.user.username,
              inserted_at: expect.any(String),
              updated_at: expect.any(String)
            }
          })
          expect(second?.final_answers).toEqual({})
        }))

      it.effect("CSV: a header, one quoted row per record, responses as JSON with usernames, the suggestion's parts", () =>
        Effect.gen(function*() {
          const { alice, ds } = yield* seeded
          const { bytes, id } = yield* exported(OWNER.apiKey, ds.id, { format: "csv" })
          const content = text(bytes)
          const header = content.slice(0, content.indexOf("\r\n")).split(",")
          expect(header).toEqual([
            "id", "external_id", "status", "inserted_at", "updated_at", "text", "metadata.group", "vector.emb",
            "label.responses", "label.suggestion", "label.suggestion.score", "label.suggestion.agent", "label.suggestion.type",
            "label.final",
            "note.responses", "note.suggestion", "note.suggestion.score", "note.suggestion.agent", "note.suggestion.type",
            "note.final"
          ])
          // Parsed with the CSV reader the UI's import uses on the server side too.
          const { parse } = yield* Effect.promise(() => import("csv-parse/sync"))
          const rows: Array<Json> = parse(content, { columns: true })
          expect(rows).toHaveLength(5)
          const first = rows[0] ?? {}
          expect(first["external_id"]).toBe("ext-0")
          expect(first["text"]).toBe("record, \"0\"\nsecond line")
          expect(first["metadata.group"]).toBe("a")
          expect(JSON.parse(first["vector.emb"])).toEqual([0, 0.5])
          expect(JSON.parse(first["label.responses"])).toEqual([
            { username: alice.user.username, user_id: alice.user.id, value: "no", status: "submitted" }
          ])
          expect(first["label.suggestion"]).toBe("yes")
          expect(first["label.suggestion.score"]).toBe("0.75")
          expect(first["label.suggestion.agent"]).toBe("model-a")
          expect(first["label.suggestion.type"]).toBe("model")
          expect(first["label.final"]).toBe("no")
          expect(first["note.final"]).toBe("")
          expect(rows[1]?.["label.final"]).toBe("")
          expect(rows[2]?.["label.responses"]).toBe("")
          const response = yield* fetchFile(id, OWNER.apiKey)
          expect(response.status).toBe(200)
          expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8")
          expect(response.headers.get("content-disposition")).toBe(
            `attachment; filename="${ds.name}-${new Date().toISOString().slice(0, 10)}.csv"`
          )
        }))

      it.effect("Parquet: the Hub's rows with each question's usernames beside its users and its final answer", () =>
        Effect.gen(function*() {
          const { alice, ds } = yield* seeded
          const { bytes } = yield* exported(OWNER.apiKey, ds.id, { format: "parquet" })
          const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
          const rows = yield* Effect.promise(() => parquetReadObjects({ file: buffer as ArrayBuffer }))
          expect(rows).toHaveLength(5)
          const first = rows[0] ?? {}
          expect(first["id"]).toBe("ext-0")
          expect(first["label.responses"]).toEqual(["no"])
          expect(first["label.responses.users"]).toEqual([alice.user.id])
          expect(first["label.responses.usernames"]).toEqual([alice.user.username])
          expect(first["label.responses.status"]).toEqual(["submitted"])
          expect(first["label.suggestion"]).toBe("yes")
          expect(first["label.suggestion.agent"]).toBe("model-a")
          expect(Array.from(first["emb"] as ArrayLike<number>)).toEqual([0, 0.5])
          expect(first["label.final"]).toBe("no")
          expect(first["note.final"]).toBeNull()
          expect(rows[1]?.["label.final"]).toBeNull()
          expect(Object.keys(first).filter((key) => key.startsWith("label."))).toEqual([
            "label.responses", "label.responses.users", "label.responses.usernames", "label.responses.status", "label.final",
            "label.suggestion", "label.suggestion.score", "label.suggestion.agent"
          ])
        }))

      it.effect("Argilla disk: a zip of the SDK's to_disk folder, with the users' names and the final answers beside it", () =>
        Effect.gen(function*() {
          const { admin, alice, ds } = yield* seeded
          const { bytes, id } = yield* exported(OWNER.apiKey, ds.id, { format: "argilla-disk" })
          const files = zipEntries(bytes)
          expect([...files.keys()]).toEqual([
            ".argilla/dataset.json", ".argilla/settings.json", ".argilla/users.json", "records.json", "final_answers.jsonl"
          ])
          const model = JSON.parse(files.get(".argilla/dataset.json")?.toString() ?? "null")
          expect(model).toMatchObject({ id: ds.id, name: ds.name })
          const settings = JSON.parse(files.get(".argilla/settings.json")?.toString() ?? "null")
          expect(settings.questions.map((q: Json) => q.name)).toEqual(["label", "note"])
          expect(JSON.parse(files.get(".argilla/users.json")?.toString() ?? "null")).toEqual(expect.arrayContaining([
            { id: alice.user.id, username: alice.user.username }
          ]))
          const records = JSON.parse(files.get("records.json")?.toString() ?? "null") as Array<Json>
          expect(records).toHaveLength(5)
          expect(records[0]).toMatchObject({
            id: "ext-0",
            status: "completed",
            responses: { label: [{ value: "no", user_id: alice.user.id, status: "submitted" }] },
            suggestions: { label: { value: "yes", score: 0.75, agent: "model-a", type: "model" } },
            vectors: { emb: [0, 0.5] }
          })
          const finals = (files.get("final_answers.jsonl")?.toString() ?? "").trimEnd().split("\n").map((line) => JSON.parse(line) as Json)
          expect(finals).toEqual([expect.objectContaining({
            id: "ext-0",
            _server_id: records[0]?.["_server_id"],
            question: "label",
            value: "no",
            source: "response",
            source_username: alice.user.username,
            settled_by_username: admin.user.username,
            note: "checked"
          })])
          const response = yield* fetchFile(id, OWNER.apiKey)
          expect(response.headers.get("content-type")).toBe("application/zip")
          expect(response.headers.get("content-disposition")).toMatch(/filename=".+\.zip"$/)
        }))

      it.effect("with a query, only the records the search selects (a metadata filter and a text search)", () =>
        Effect.gen(function*() {
          const { ds } = yield* seeded
          const query = {
            filters: { and: [{ type: "terms" as const, scope: { entity: "metadata" as const, metadata_property: "group" }, values: ["a"] }] }
          }
          const { bytes, job } = yield* exported(OWNER.apiKey, ds.id, { format: "jsonl", query })
          expect(job.progress).toMatchObject({ done: 3, total: 3 })
          const ids = text(bytes).trimEnd().split("\n").map((line) => (JSON.parse(line) as Json).external_id).sort()
          expect(ids).toEqual(["ext-0", "ext-2", "ext-4"])
          const none = yield* exported(OWNER.apiKey, ds.id, { format: "csv", query: { query: { text: { q: "nowhere" } } } })
          expect(text(none.bytes).split("\r\n").filter((line) => line !== "")).toHaveLength(1)
          // A filter on a property the dataset does not have is refused as the search refuses it.
          const owner = yield* clientFor(OWNER.apiKey)
          yield* expectFailure(owner.exports.start({
            path: { id: ds.id },
            payload: { format: "csv", query: { filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "missing" }, values: ["x"] }] } } }
          }), "Unprocessable")
        }))

      it.effect("annotators cannot export (403); others' exports are 404 for admins, readable by owners; unknown is 404", () =>
        Effect.gen(function*() {
          const { admin, alice, ds, other } = yield* seeded
          yield* expectFailure(alice.client.exports.start({ path: { id: ds.id }, payload: { format: "jsonl" } }), "Forbidden")
          const outsider = yield* userWith("admin", [])
          yield* expectFailure(outsider.client.exports.start({ path: { id: ds.id }, payload: { format: "jsonl" } }), "Forbidden")
          const { id } = yield* exported(admin.user.api_key, ds.id, { format: "jsonl" })
          yield* expectFailure(other.client.exports.download({ path: { id } }), "NotFound")
          yield* expectFailure(alice.client.exports.download({ path: { id } }), "NotFound")
          const owner = yield* clientFor(OWNER.apiKey)
          expect((yield* owner.exports.download({ path: { id } })).byteLength).toBeGreaterThan(0)
          yield* expectFailure(owner.exports.download({ path: { id: "no-such-export" } }), "NotFound")
          const missing = yield* send("POST", "/api/gloss/datasets/00000000-0000-4000-8000-000000000000/exports", { format: "csv" })
          expect(missing.status).toBe(404)
          const badFormat = yield* send("POST", `/api/gloss/datasets/${ds.id}/exports`, { format: "xlsx" })
          expect(badFormat.status).toBe(422)
        }))

      it.effect("the file is served from the database's chunks; expired it is 410 and the next export deletes it; a deleted dataset takes its exports", () =>
        Effect.gen(function*() {
          const { ds } = yield* seeded
          const sql = yield* SqlClient.SqlClient
          const { bytes, id } = yield* exported(OWNER.apiKey, ds.id, { format: "jsonl" })
          const chunks = yield* sql<{ bytes: Uint8Array }>`select bytes from export_file_chunks where job_id = ${id} order by sequence`
          expect(Buffer.concat(chunks.map((c) => Buffer.from(c.bytes)))).toEqual(Buffer.from(bytes))
          yield* sql`update exports set expires_at = ${new Date(Date.now() - 1000).toISOString()} where job_id = ${id}`
          const expired = yield* fetchFile(id, OWNER.apiKey)
          expect(expired.status).toBe(410)
          const owner = yield* clientFor(OWNER.apiKey)
          yield* expectFailure(owner.exports.download({ path: { id } }), "ExportExpired")
          yield* exported(OWNER.apiKey, ds.id, { format: "csv" })
          const left = yield* sql<{ n: number | string }>`select count(*) as n from export_file_chunks where job_id = ${id}`
          expect(Number(left[0]?.n)).toBe(0)
          expect((yield* fetchFile(id, OWNER.apiKey)).status).toBe(410)
          yield* owner.datasets.delete({ path: { id: ds.id } })
          const rows = yield* sql<{ n: number | string }>`select count(*) as n from exports where dataset_id = ${ds.id}`
          expect(Number(rows[0]?.n)).toBe(0)
        }))
    })
  })
}
