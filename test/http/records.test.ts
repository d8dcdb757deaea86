import { describe, expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { RecordsBulk } from "../../src/domain/Record.js"
import { SearchRecordsResult } from "../../src/domain/Search.js"
import type { Dataset } from "../../src/domain/Dataset.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { userWith, workspace } from "../support/fixtures.js"
import { ownerClient, TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>
const body = (response: { readonly body: unknown }) => response.body as Json
const items = (response: { readonly body: unknown }) => (response.body as { items: Array<Json> }).items

/** A published dataset: text field `text` (required), chat field `chat`, label question `label` (required),
 * rating question `stars`, span question `spans` on `text`, terms metadata `source`, integer `n`, vector `emb` (3). */
const richDataset = (w?: Parameters<typeof draftDataset>[0]) =>
  Effect.gen(function*() {
    const dataset = yield* draftDataset(w)
    const post = (kind: string, payload: unknown) => send("POST", datasetPath(dataset, `/${kind}`), payload)
    yield* post("fields", { name: "text", title: "Text", required: true, settings: { type: "text" } })
    yield* post("fields", { name: "chat", title: "Chat", settings: { type: "chat" } })
    const label = yield* post("questions", {
      name: "label",
      title: "Label",
      required: true,
      settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
    })
    yield* post("questions", { name: "stars", title: "Stars", settings: { type: "rating", options: [{ value: 1 }, { value: 2 }, { value: 3 }] } })
    yield* post("questions", { name: "spans", title: "Spans", settings: { type: "span", field: "text", options: [{ value: "ORG", text: "Org" }] } })
    yield* post("metadata-properties", { name: "source", title: "Source", settings: { type: "terms", values: ["web", "book"] } })
    yield* post("metadata-properties", { name: "n", title: "N", settings: { type: "integer", min: 0, max: 10 } })
    yield* post("vectors-settings", { name: "emb", title: "Embedding", dimensions: 3 })
    yield* send("PUT", datasetPath(dataset, "/publish"))
    return { dataset, labelId: body(label).id as string }
  })

const bulk = (dataset: Dataset, method: "POST" | "PUT", records: Array<unknown>) =>
  send(method, datasetPath(dataset, "/records/bulk"), { items: records })

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("records", (it) => {
      it.effect("bulk answers are serialised exactly as the RecordsBulk schema encodes them (create and upsert)", () =>
        Effect.gen(function*() {
          const { dataset, labelId } = yield* richDataset()
          const me = yield* (yield* ownerClient).me.me()
          // Decoding validates every field; encoding again gives the schema's canonical bytes: a fixpoint means the
          // direct serialisation wrote the same keys, the same timestamp format and nothing extra.
          const canonical = (answer: unknown) => Schema.encodeSync(RecordsBulk)(Schema.decodeUnknownSync(RecordsBulk)(answer))
          const created = yield* bulk(dataset, "POST", [
            {
              external_id: "c1",
              fields: { text: "Acme hires 👍🏽", chat: [{ role: "user", content: "hi" }] },
              metadata: { source: "web", n: 3 },
              responses: [{ user_id: me.id, status: "submitted", values: { label: { value: "yes" } } }],
              suggestions: [{ question_id: labelId, value: "no", score: 0.7, agent: "model-v1", type: "model" }],
              vectors: { emb: [0.1, 0.2, 0.3] }
            },
            { fields: { text: "Plain" } }
          ])
          expect(created.status).toBe(201)
          expect(created.body).toStrictEqual(canonical(created.body))
          expect((items(created)[0]?.inserted_at as string)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/)
          const upserted = yield* bulk(dataset, "PUT", [
            { external_id: "c1", metadata: { source: "book" }, suggestions: [{ question_name: "spans", value: [{ label: "ORG", start: 0, end: 4 }], score: [0.9] }] },
            { external_id: "c3", fields: { text: "New" }, metadata: null }
          ])
          expect(upserted.status).toBe(200)
          expect(upserted.body).toStrictEqual(canonical(upserted.body))
          expect(body(upserted).updated_item_ids).toHaveLength(1)
        }))

      it.effect("search answers are serialised exactly as the SearchRecordsResult schema encodes them", () =>
        Effect.gen(function*() {
          const { dataset, labelId } = yield* richDataset()
          const me = yield* (yield* ownerClient).me.me()
          const canonical = (answer: unknown) =>
            Schema.encodeSync(SearchRecordsResult)(Schema.decodeUnknownSync(SearchRecordsResult)(answer))
          yield* bulk(dataset, "POST", [
            {
              external_id: "s1",
              fields: { text: "Acme hires 👍🏽 \"quoted\"", chat: [{ role: "user", content: "hi" }] },
              metadata: { source: "web", n: 3 },
              responses: [{ user_id: me.id, status: "submitted", values: { label: { value: "yes" } } }],
              suggestions: [{ question_id: labelId, value: "no", score: 0.7, agent: "model-v1", type: "model" }],
              vectors: { emb: [0.1, 0.2, 0.3] }
            },
            { external_id: "s2", fields: { text: "Acme fires" }, metadata: null, vectors: { emb: [0.3, 0.2, 0.1] } },
            { fields: { text: "Plain" } }
          ])
          const searches = [
            ["/records/search?include=responses,suggestions,vectors", { query: { text: { q: "acme" } } }],
            ["/records/search?include=vectors:emb", { query: { vector: { name: "emb", value: [0.1, 0.2, 0.25] } } }],
            ["/records/search", { filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web"] }] } }],
            ["/records/search", { query: { text: { q: "nothing-matches" } } }]
          ] as const
          for (const [path, query] of searches) {
            for (const url of [datasetPath(dataset, path), `/api/v1/me${datasetPath(dataset, path).slice("/api/v1".length)}`]) {
              const answer = yield* send("POST", url, query)
              expect(answer.status).toBe(200)
              expect(answer.body).toStrictEqual(canonical(answer.body))
            }
          }
          const scored = yield* send("POST", datasetPath(dataset, searches[0][0]), searches[0][1])
          expect(items(scored).map((item) => (item.record as Json).external_id).sort()).toEqual(["s1", "s2"])
          expect(items(scored).every((item) => typeof item.query_score === "number")).toBe(true)
          const full = items(scored).find((item) => (item.record as Json).external_id === "s1")?.record as Json
          expect(Object.keys(full).sort()).toEqual(
            ["dataset_id", "external_id", "fields", "id", "inserted_at", "metadata", "responses", "status", "suggestions", "updated_at", "vectors"]
          )
          expect(full.inserted_at as string).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/)
        }))

      it.effect("bulk create (201) stores fields, metadata, responses, suggestions and vectors, and returns them", () =>
        Effect.gen(function*() {
          const { dataset, labelId } = yield* richDataset()
          const me = yield* (yield* ownerClient).me.me()
          const created = yield* bulk(dataset, "POST", [
            {
              external_id: "r1",
              fields: { text: "Acme hires", chat: [{ role: "user", content: "hi" }] },
              metadata: { source: "web", n: 3, extra: true },
              responses: [{ user_id: me.id, status: "submitted", values: { label: { value: "yes" } } }],
              suggestions: [{ question_id: labelId, value: "no", score: 0.7, agent: "model-v1", type: "model" }],
              vectors: { emb: [0.1, 0.2, 0.3] }
            },
            { fields: { text: "Plain" }, suggestions: [{ question_name: "spans", value: [{ label: "ORG", start: 0, end: 5 }], score: [0.9] }] }
          ])
          expect(created.status).toBe(201)
          const [first, second] = items(created)
          expect(first).toMatchObject({
            external_id: "r1",
            status: "completed",
            fields: { text: "Acme hires", chat: [{ role: "user", content: "hi" }] },
            metadata: { source: "web", n: 3, extra: true },
            vectors: { emb: [0.1, 0.2, 0.3] },
            dataset_id: dataset.id
          })
          expect(first?.responses).toMatchObject([{ user_id: me.id, status: "submitted", values: { label: { value: "yes" } } }])
          expect(first?.suggestions).toMatchObject([{ question_id: labelId, value: "no", score: 0.7, agent: "model-v1", type: "model" }])
          expect(second).toMatchObject({ status: "pending", external_id: null, metadata: null, responses: [], vectors: {} })
          expect((second?.suggestions as Array<Json>)[0]).toMatchObject({ value: [{ label: "ORG", start: 0, end: 5 }], score: [0.9] })
          expect(created.body).not.toHaveProperty("updated_item_ids")
        }))

      it.effect("one invalid record fails the whole payload with 422 naming its position, and nothing is written", () =>
        Effect.gen(function*() {
          const { dataset } = yield* richDataset()
          const cases: ReadonlyArray<[unknown, RegExp]> = [
            [{ fields: { text: "ok", nope: "x" } }, /Record at position 1 is not valid because .*nope/],
            [{ fields: { chat: [{ role: "user", content: "x" }] } }, /position 1 .*text/],
            [{ fields: { text: 42 } }, /position 1 .*text/],
            [{ fields: { text: "ok" }, metadata: { source: "radio" } }, /position 1 .*radio/],
            [{ fields: { text: "ok" }, metadata: { n: 11 } }, /position 1 .*n/],
            [{ fields: { text: "ok" }, vectors: { emb: [1, 2] } }, /position 1 .*emb/],
            [{ fields: { text: "ok" }, vectors: { other: [1, 2, 3] } }, /position 1 .*other/],
            [{ fields: { text: "ok" }, suggestions: [{ question_name: "label", value: "maybe" }] }, /position 1 .*maybe/],
            [{ fields: { text: "ok" }, suggestions: [{ question_name: "stars", value: 2, score: 1.5 }] }, /position 1 .*score/],
            [{ fields: { text: "ok" }, suggestions: [{ question_name: "nope", value: 1 }] }, /position 1 .*nope/],
            [{ fields: { text: "Acme" }, suggestions: [{ question_name: "spans", value: [{ label: "ORG", start: 2, end: 9 }] }] }, /position 1/],
            [{ fields: { text: "ok" }, responses: [{ user_id: "00000000-0000-4000-8000-000000000009", status: "submitted", values: { label: { value: "yes" } } }] }, /position 1 .*not found/]
          ]
          for (const [record, message] of cases) {
            const response = yield* bulk(dataset, "POST", [{ fields: { text: "fine" } }, record])
            expect({ record, status: response.status }).toEqual({ record, status: 422 })
            expect((response.body as { detail: string }).detail).toMatch(message)
          }
          const list = yield* send("GET", datasetPath(dataset, "/records"))
          expect(body(list).total).toBe(0)
        }))

      it.effect("external ids are unique within a payload and a dataset; bulk limits are 1–500; drafts take no records", () =>
        Effect.gen(function*() {
          const { dataset } = yield* richDataset()
          const twice = yield* bulk(dataset, "POST", [{ external_id: "a", fields: { text: "1" } }, { external_id: "a", fields: { text: "2" } }])
          expect(twice.body).toEqual({ detail: "External IDs must be unique: items 0 and 1 have the same external_id `a`" })
          expect((yield* bulk(dataset, "POST", [{ external_id: "a", fields: { text: "1" } }])).status).toBe(201)
          const again = yield* bulk(dataset, "POST", [{ external_id: "a", fields: { text: "1" } }])
          expect(again.body).toEqual({ detail: "found records with same external ids: a" })
          expect((yield* bulk(dataset, "POST", [])).status).toBe(422)
          const many = Array.from({ length: 501 }, (_, i) => ({ fields: { text: `t${i}` } }))
          expect((yield* bulk(dataset, "POST", many)).status).toBe(422)
          expect((yield* bulk(dataset, "PUT", many.slice(0, 500))).status).toBe(200)
          const draft = yield* draftDataset()
          expect((yield* bulk(draft, "POST", [{ fields: { text: "x" } }])).body).toEqual({
            detail: "records cannot be created for a non published dataset"
          })
          expect((yield* bulk(draft, "PUT", [{ fields: { text: "x" } }])).body).toEqual({
            detail: "records cannot be created or updated for a non published dataset"
          })
        }))

      it.effect("bulk upsert matches by external id, then id; keeps stored fields; replaces metadata only when sent", () =>
        Effect.gen(function*() {
          const { dataset } = yield* richDataset()
          const first = items(yield* bulk(dataset, "PUT", [
            { external_id: "e1", fields: { text: "one" }, metadata: { source: "web" } },
            { fields: { text: "two" }, metadata: { n: 1 } }
          ]))
          const secondId = first[1]?.id as string
          const upserted = yield* bulk(dataset, "PUT", [
            { external_id: "e1", fields: { text: "changed?" } },
            { id: secondId, metadata: { n: 2 }, vectors: { emb: [1, 0, 0] } },
            { external_id: "e3", fields: { text: "three" } }
          ])
          expect(upserted.status).toBe(200)
          const [one, two, three] = items(upserted)
          expect(one).toMatchObject({ id: first[0]?.id, fields: { text: "one" }, metadata: { source: "web" } })
          expect(two).toMatchObject({ id: secondId, fields: { text: "two" }, metadata: { n: 2 }, vectors: { emb: [1, 0, 0] } })
          expect(three).toMatchObject({ external_id: "e3" })
          expect(body(upserted).updated_item_ids).toEqual([first[0]?.id, secondId])
          const created = yield* bulk(dataset, "PUT", [{ external_id: "needs-fields" }])
          expect((created.body as { detail: string }).detail).toMatch(/position 0/)
        }))

      it.effect("list: insertion order, offset, limit (≤ 1000), total, and the include grammar", () =>
        Effect.gen(function*() {
          const { dataset } = yield* richDataset()
          yield* bulk(dataset, "POST", Array.from({ length: 7 }, (_, i) => ({ external_id: `x${i}`, fields: { text: `t${i}` }, vectors: { emb: [i, 0, 1] } })))
          const page = yield* send("GET", datasetPath(dataset, "/records?offset=2&limit=3"))
          expect(body(page).total).toBe(7)
          expect(items(page).map((r) => r.external_id)).toEqual(["x2", "x3", "x4"])
          expect(items(page)[0]).not.toHaveProperty("responses")
          expect(items(page)[0]).not.toHaveProperty("vectors")
          const full = yield* send("GET", datasetPath(dataset, "/records?limit=1&include=responses,suggestions&include=vectors:emb"))
          expect(items(full)[0]).toMatchObject({ responses: [], suggestions: [], vectors: { emb: [0, 0, 1] } })
          const all = yield* send("GET", datasetPath(dataset, "/records?limit=1&include=vectors"))
          expect(items(all)[0]).toHaveProperty("vectors")
          for (const bad of ["include=vectors&include=vectors:emb", "include=colours", "include=responses:x", "limit=1001", "limit=0", "offset=-1"]) {
            expect({ bad, status: (yield* send("GET", datasetPath(dataset, `/records?${bad}`))).status }).toEqual({ bad, status: 422 })
          }
          const grammar = yield* send("GET", datasetPath(dataset, "/records?include=colours"))
          expect(grammar.body).toEqual({
            detail: "'include' query parameter must be of the form 'key1,key2,key3' or 'key:value1,value2,value3'"
          })
        }))

      it.effect("GET, PATCH and DELETE one record; who may do what", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const { dataset } = yield* richDataset(w)
          const annotator = yield* userWith("annotator", [w])
          const outsider = yield* userWith("admin")
          const [record] = items(yield* bulk(dataset, "POST", [{ fields: { text: "Acme" }, metadata: { source: "web" }, suggestions: [{ question_name: "label", value: "yes" }] }]))
          const path = `/api/v1/records/${record?.id}`
          const read = yield* send("GET", path, undefined, annotator.user.api_key)
          expect(read.status).toBe(200)
          expect(body(read)).toMatchObject({ responses: [], vectors: {} })
          expect((body(read).suggestions as Array<unknown>).length).toBe(1)
          expect((yield* send("GET", path, undefined, outsider.user.api_key)).status).toBe(403)
          expect((yield* send("PATCH", path, { metadata: { n: 1 } }, annotator.user.api_key)).status).toBe(403)
          const patched = yield* send("PATCH", path, { metadata: { n: 4 }, suggestions: [{ question_name: "stars", value: 3 }], vectors: { emb: [0, 1, 0] } })
          expect(patched.status).toBe(200)
          expect(body(patched)).toMatchObject({ metadata: { n: 4 }, vectors: { emb: [0, 1, 0] } })
          expect((body(patched).suggestions as Array<Json>).map((s) => s.value)).toEqual([3])
          expect((yield* send("PATCH", path, { metadata: { n: 99 } })).status).toBe(422)
          const deleted = yield* send("DELETE", path)
          expect(deleted.status).toBe(200)
          expect(body(deleted)).not.toHaveProperty("responses")
          expect((yield* send("GET", path)).status).toBe(404)
        }))

      it.effect("DELETE /datasets/{id}/records?ids=: 1–100 UUIDs, 204, other datasets' ids ignored", () =>
        Effect.gen(function*() {
          const { dataset } = yield* richDataset()
          const { dataset: other } = yield* richDataset()
          const mine = items(yield* bulk(dataset, "POST", [{ fields: { text: "a" } }, { fields: { text: "b" } }]))
          const theirs = items(yield* bulk(other, "POST", [{ fields: { text: "c" } }]))
          const del = (query: string) => send("DELETE", datasetPath(dataset, `/records${query}`))
          expect((yield* del("")).body).toEqual({ detail: "No record IDs provided" })
          expect((yield* del("?ids=")).body).toEqual({ detail: "No record IDs provided" })
          expect((yield* del("?ids=nope")).body).toEqual({ detail: "Invalid UUID format" })
          const tooMany = Array.from({ length: 101 }, () => crypto.randomUUID()).join(",")
          expect((yield* del(`?ids=${tooMany}`)).body).toEqual({ detail: "Cannot delete more than 100 records at once" })
          const done = yield* del(`?ids=${mine[0]?.id},${theirs[0]?.id}`)
          expect(done.status).toBe(204)
          expect(done.text).toBe("")
          expect(body(yield* send("GET", datasetPath(dataset, "/records"))).total).toBe(1)
          expect(body(yield* send("GET", datasetPath(other, "/records"))).total).toBe(1)
        }))

      it.effect("the NUL character: stored on SQLite; on PostgreSQL, which cannot store it, 422 and nothing written", () =>
        Effect.gen(function*() {
          const { dataset } = yield* richDataset()
          const payloads = [
            { fields: { text: "a\u0000b" } },
            { fields: { text: "ok" }, metadata: { source: "web", extra: "x\u0000" } },
            { fields: { text: "ok" }, external_id: "e\u0000" }
          ]
          for (const [i, record] of payloads.entries()) {
            const response = yield* bulk(dataset, i % 2 === 0 ? "POST" : "PUT", [{ fields: { text: "fine" } }, record])
            if (dialect === "sqlite") {
              expect(response.status).toBe(i % 2 === 0 ? 201 : 200)
              expect(items(response)[1]).toMatchObject(record)
            } else {
              expect(response.status).toBe(422)
              expect(response.body).toEqual({
                detail: {
                  code: "argilla.api.errors::ValidationError",
                  params: {
                    errors: [{ loc: [], msg: "Text cannot contain the NUL character (\\u0000) on PostgreSQL", type: "value_error" }]
                  }
                }
              })
            }
          }
          expect(body(yield* send("GET", datasetPath(dataset, "/records"))).total).toBe(dialect === "sqlite" ? 6 : 0)
          const search = yield* send("POST", datasetPath(dataset, "/records/search"), { query: { text: { q: "a\u0000b" } } })
          expect(search.status).toBe(dialect === "sqlite" ? 200 : 422)
        }))
    })
  })
}
