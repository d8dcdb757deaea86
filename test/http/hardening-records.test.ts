/**
 * Record payloads that must be refused with a clear 422 (values nested too deep, repeated ids, range bounds of the
 * wrong kind), and a record stored before the depth limit that must not break the dataset's searches and metrics.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Dataset } from "../../src/domain/Dataset.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>
type Answer = { readonly status: number; readonly body: unknown; readonly text: string }

/** `levels` arrays, one inside the other. */
const nested = (levels: number): unknown => {
  let value: unknown = "leaf"
  for (let i = 0; i < levels; i++) value = [value]
  return value
}

/** The first message of each `loc` of a 422 in the ValidationError shape. */
const issues = (response: Answer) => {
  expect(response.status).toBe(422)
  expect(response.text).not.toMatch(/\n\s+at |node_modules/)
  const errors = (response.body as { detail: { params: { errors: Array<{ loc: Array<unknown>; msg: string }> } } }).detail
    .params.errors
  const byKey: Record<string, string> = {}
  for (const error of errors) byKey[error.loc.join(".")] ??= error.msg
  return byKey
}

const detail = (response: Answer) => {
  expect(response.status).toBe(422)
  return (response.body as { detail: string }).detail
}

/** The record ids of a bulk answer or of a search (whose items hold a `record`). */
const ids = (response: Answer) =>
  (response.body as { items: Array<{ id?: string; record?: { id: string } }> }).items.map((item) => item.id ?? item.record?.id)

/** Published: text field `text`, label question `label`, terms metadata `source`, integer metadata `n`. */
const dataset = Effect.gen(function*() {
  const draft = yield* draftDataset()
  const post = (kind: string, payload: unknown) => send("POST", datasetPath(draft, `/${kind}`), payload)
  yield* post("fields", { name: "text", title: "Text", settings: { type: "text" } })
  yield* post("questions", {
    name: "label",
    title: "Label",
    required: true,
    settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
  })
  const source = (yield* post("metadata-properties", { name: "source", title: "Source", settings: { type: "terms" } })).body
  const n = (yield* post("metadata-properties", { name: "n", title: "N", settings: { type: "integer" } })).body
  const published = yield* send("PUT", datasetPath(draft, "/publish"))
  expect(published.status).toBe(200)
  return { dataset: draft, properties: [source, n].map((p) => (p as { id: string }).id) }
})

const bulk = (target: Dataset, method: "POST" | "PUT", items: Array<unknown>) =>
  send(method, datasetPath(target, "/records/bulk"), { items })

const search = (target: Dataset, query: unknown) => send("POST", datasetPath(target, "/records/search"), query)

const metadata = (name: string) => ({ entity: "metadata", metadata_property: name })

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("hardening of records", (it) => {
      it.effect("record fields, metadata, responses and suggestions nested deeper than 32 levels answer 422 naming the key", () =>
        Effect.gen(function*() {
          const { dataset: target } = yield* dataset
          const fine = { fields: { text: "ok" }, metadata: { x: nested(31) } }
          expect((yield* bulk(target, "POST", [fine])).status).toBe(201)
          const cases: ReadonlyArray<[Answer, string]> = [
            [yield* bulk(target, "POST", [fine, { fields: { text: "x" }, metadata: { x: nested(32) } }]), "items.1.metadata.x"],
            [yield* bulk(target, "PUT", [{ fields: { text: "x", extra: nested(40) } }]), "items.0.fields.extra"],
            [
              yield* bulk(target, "POST", [{ fields: { text: "x" }, suggestions: [{ question_name: "label", value: nested(33) }] }]),
              "items.0.suggestions.0.value.0"
            ]
          ]
          for (const [response, loc] of cases) {
            expect(issues(response)).toMatchObject({ [loc]: "exceeds the maximum nesting depth of 32" })
          }
          const [record] = ids(yield* search(target, {}))
          const patched = yield* send("PATCH", `/api/v1/records/${record}`, { metadata: { deep: { er: nested(31) } } })
          expect(issues(patched)).toMatchObject({ "metadata.deep": "exceeds the maximum nesting depth of 32" })
          const answered = yield* send("POST", `/api/v1/records/${record}/responses`, {
            status: "draft",
            values: { label: { value: nested(33) } }
          })
          expect(issues(answered)).toMatchObject({ "values.label.value.0": "exceeds the maximum nesting depth of 32" })
        }))

      it.effect("a record stored before the limit, nested 1 000 deep, breaks no metadata filter, sort or metric", () =>
        Effect.gen(function*() {
          const { dataset: target, properties } = yield* dataset
          const created = yield* bulk(target, "POST", [
            { fields: { text: "fine" }, metadata: { source: "web", n: 1 } },
            { fields: { text: "legacy" }, metadata: { source: "web", n: 2 } }
          ])
          const [fine, legacy] = ids(created)
          // Written past the API, as an older version would have stored it: SQLite's JSON parser refuses it.
          const sql = yield* SqlClient.SqlClient
          const deep = `{"source": "web", "n": 2, "deep": ${"[".repeat(1000)}${"]".repeat(1000)}}`
          yield* sql`update records set metadata = ${deep} where id = ${legacy!}`.pipe(Effect.orDie)

          const filtered = yield* search(target, {
            filters: {
              and: [
                { type: "terms", scope: metadata("source"), values: ["web"] },
                { type: "range", scope: metadata("n"), ge: 0, le: 5 }
              ]
            },
            sort: [{ scope: metadata("n"), order: "desc" }]
          })
          expect(filtered.status).toBe(200)
          expect(ids(filtered)).toContain(fine)
          const sorted = yield* search(target, { sort: [{ scope: metadata("source") }] })
          expect(sorted.status).toBe(200)
          expect(ids(sorted)).toHaveLength(2)
          for (const id of properties) {
            expect((yield* send("GET", `/api/v1/metadata-properties/${id}/metrics`)).status).toBe(200)
          }
          expect((yield* send("GET", datasetPath(target, "/records"))).status).toBe(200)
        }))

      it.effect("a bulk with one id twice answers 422 naming both positions, as do external ids and one record twice", () =>
        Effect.gen(function*() {
          const { dataset: target } = yield* dataset
          const id = crypto.randomUUID()
          const sameId = yield* bulk(target, "PUT", [
            { id, fields: { text: "a" } },
            { fields: { text: "b" } },
            { id, fields: { text: "c" } }
          ])
          expect(detail(sameId)).toBe(`items 0 and 2 have the same id \`${id}\``)
          const sameExternal = yield* bulk(target, "POST", [
            { fields: { text: "a" } },
            { external_id: "e", fields: { text: "b" } },
            { external_id: "e", fields: { text: "c" } }
          ])
          expect(detail(sameExternal)).toBe("External IDs must be unique: items 1 and 2 have the same external_id `e`")
          const [stored] = ids(yield* bulk(target, "POST", [{ external_id: "s", fields: { text: "s" } }]))
          const sameRecord = yield* bulk(target, "PUT", [{ external_id: "s", metadata: { n: 1 } }, { id: stored, metadata: { n: 2 } }])
          expect(detail(sameRecord)).toBe(`items 0 and 1 are the same record \`${stored}\``)
          // Nothing of a refused payload was written.
          expect((yield* send("GET", datasetPath(target, "/records"))).body).toMatchObject({ total: 1 })
        }))

      it.effect("POST /me/responses/bulk with one record twice answers 422 naming both positions", () =>
        Effect.gen(function*() {
          const { dataset: target } = yield* dataset
          const [first, second] = ids(yield* bulk(target, "POST", [{ fields: { text: "a" } }, { fields: { text: "b" } }]))
          const answer = (record: string | undefined) => ({ record_id: record, status: "draft", values: { label: { value: "yes" } } })
          const twice = yield* send("POST", "/api/v1/me/responses/bulk", { items: [answer(first), answer(second), answer(first)] })
          expect(issues(twice)).toEqual({ "items.2.record_id": `items 0 and 2 have the same record_id \`${first}\`` })
          const once = yield* send("POST", "/api/v1/me/responses/bulk", { items: [answer(first), answer(second)] })
          expect(once.status).toBe(200)
        }))

      it.effect("range bounds must be numbers for metadata and instants for record timestamps (422 otherwise)", () =>
        Effect.gen(function*() {
          const { dataset: target } = yield* dataset
          yield* bulk(target, "POST", [{ fields: { text: "a" }, metadata: { n: 3 } }])
          const range = (scope: unknown, bounds: Json) => search(target, { filters: { and: [{ type: "range", scope, ...bounds }] } })
          const refused: ReadonlyArray<[unknown, Json, string]> = [
            [metadata("n"), { ge: "1 OR 1=1" }, "ge"],
            [metadata("n"), { ge: 1, le: "2; drop table records" }, "le"],
            [{ entity: "suggestion", question: "label", property: "score" }, { ge: "high" }, "ge"],
            [{ entity: "record", property: "inserted_at" }, { ge: "yesterday" }, "ge"],
            [{ entity: "record", property: "inserted_at" }, { le: 1e20 }, "le"]
          ]
          for (const [scope, bounds, key] of refused) {
            const found = issues(yield* range(scope, bounds))
            expect(Object.entries(found).some(([loc, msg]) => loc.endsWith(`and.0.${key}`) && /must be/.test(msg))).toBe(true)
          }
          expect(issues(yield* range(metadata("n"), { ge: 5, le: 1 }))).toBeDefined()
          expect(ids(yield* range(metadata("n"), { ge: "2", le: "3.5" }))).toHaveLength(1)
          expect((yield* range({ entity: "record", property: "inserted_at" }, { ge: "2020-01-01T00:00:00Z" })).status)
            .toBe(200)
        }))
    })
  })
}
