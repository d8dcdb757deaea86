/**
 * Ids in create bodies. Argilla's create schemas have no `id`: one sent is accepted and ignored, and the server issues
 * a new id, so a dataset exported with its ids (the SDK's `to_disk`) can be created again on the same server. So does
 * bulk create (`POST …/records/bulk`, Argilla's `RecordCreate` has no `id`); bulk upsert (`PUT`) keeps a client's id
 * only while no other dataset's record has it. A 409 names what clashed.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Dataset } from "../../src/domain/Dataset.js"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, publishedDataset, send } from "../support/datasets.js"
import { unique, workspace } from "../support/fixtures.js"
import { TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>
const body = (response: { readonly body: unknown }) => response.body as Json
const items = (response: { readonly body: unknown }) => (response.body as { items: Array<Json> }).items

const SETTINGS = [
  ["fields", { name: "text", title: "Text", settings: { type: "text" } }],
  ["questions", {
    name: "label",
    title: "Label",
    required: true,
    settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
  }],
  ["metadata-properties", { name: "source", title: "Source", settings: { type: "terms" } }],
  ["vectors-settings", { name: "emb", title: "Embedding", dimensions: 2 }]
] as const

const KINDS = { fields: "Field", questions: "Question", "metadata-properties": "Metadata property", "vectors-settings": "Vector settings" }

const bulk = (dataset: Dataset, method: "POST" | "PUT", records: Array<unknown>) =>
  send(method, datasetPath(dataset, "/records/bulk"), { items: records })

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect), { excludeTestServices: true, timeout: 60_000 })("client ids", (it) => {
      it.effect("a dataset created with the id of an existing dataset gets a new id (201), the old one is untouched", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const existing = yield* draftDataset(w)
          const created = yield* send("POST", "/api/v1/datasets", { id: existing.id, name: unique("copy"), workspace_id: w.id })
          expect(created.status).toBe(201)
          expect(body(created).id).not.toBe(existing.id)
          expect(body(yield* send("GET", `/api/v1/datasets/${existing.id}`)).name).toBe(existing.name)
          // A fresh id is not kept either.
          const chosen = crypto.randomUUID()
          const fresh = yield* send("POST", "/api/v1/datasets", { id: chosen, name: unique("fresh"), workspace_id: w.id })
          expect(body(fresh).id).not.toBe(chosen)
        }))

      it.effect("a dataset whose name is taken in the workspace answers 409 naming the name, whatever id is sent", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const existing = yield* draftDataset(w)
          const again = yield* send("POST", "/api/v1/datasets", { id: crypto.randomUUID(), name: existing.name, workspace_id: w.id })
          expect(again.status).toBe(409)
          expect(again.body).toEqual({
            detail: `Dataset with name \`${existing.name}\` already exists for workspace with id \`${w.id}\``
          })
        }))

      it.effect("fields, questions, metadata properties and vector settings sent with taken ids get new ids (201)", () =>
        Effect.gen(function*() {
          const source = yield* draftDataset()
          const target = yield* draftDataset()
          for (const [kind, payload] of SETTINGS) {
            const original = yield* send("POST", datasetPath(source, `/${kind}`), payload)
            expect(original.status).toBe(201)
            const copy = yield* send("POST", datasetPath(target, `/${kind}`), { ...payload, id: body(original).id })
            expect({ kind, status: copy.status }).toEqual({ kind, status: 201 })
            expect(body(copy).id).not.toBe(body(original).id)
            expect(body(copy)).toMatchObject({ name: payload.name, dataset_id: target.id })
          }
        }))

      it.effect("a setting whose name is taken answers 409 naming the name and the dataset", () =>
        Effect.gen(function*() {
          const dataset = yield* draftDataset()
          for (const [kind, payload] of SETTINGS) {
            yield* send("POST", datasetPath(dataset, `/${kind}`), payload)
            const again = yield* send("POST", datasetPath(dataset, `/${kind}`), { ...payload, id: crypto.randomUUID() })
            expect({ kind, status: again.status, body: again.body }).toEqual({
              kind,
              status: 409,
              body: { detail: `${KINDS[kind]} with name \`${payload.name}\` already exists for dataset with id \`${dataset.id}\`` }
            })
          }
        }))

      it.effect("a workspace or user created with a taken id gets a new id (201)", () =>
        Effect.gen(function*() {
          const w = yield* workspace()
          const copy = yield* send("POST", "/api/v1/workspaces", { id: w.id, name: unique("ws") })
          expect(copy.status).toBe(201)
          expect(body(copy).id).not.toBe(w.id)
          const user = yield* send("POST", "/api/v1/users", { first_name: "A", username: unique("a"), password: "12345678" })
          const again = yield* send("POST", "/api/v1/users", {
            id: body(user).id,
            first_name: "B",
            username: unique("b"),
            password: "12345678"
          })
          expect(again.status).toBe(201)
          expect(body(again).id).not.toBe(body(user).id)
        }))

      it.effect("a bulk record with another dataset's record id becomes a new record with a new id; that record is untouched", () =>
        Effect.gen(function*() {
          const source = yield* publishedDataset()
          const target = yield* publishedDataset()
          const [original] = items(yield* bulk(source, "POST", [{ external_id: "e1", fields: { text: "one" } }]))
          for (const method of ["POST", "PUT"] as const) {
            const copied = yield* bulk(target, method, [{ id: original?.id, external_id: `e1-${method}`, fields: { text: "copy" } }])
            expect({ method, status: copied.status }).toEqual({ method, status: method === "POST" ? 201 : 200 })
            const [copy] = items(copied)
            expect(copy).toMatchObject({ dataset_id: target.id, external_id: `e1-${method}`, fields: { text: "copy" } })
            expect(copy?.id).not.toBe(original?.id)
            if (method === "PUT") expect(body(copied).updated_item_ids).toEqual([])
          }
          expect(body(yield* send("GET", `/api/v1/records/${original?.id}`))).toMatchObject({
            dataset_id: source.id,
            fields: { text: "one" }
          })
        }))

      it.effect("a bulk record keeps a free client id, and the same id in the same dataset is an update", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const id = crypto.randomUUID()
          const [created] = items(yield* bulk(dataset, "PUT", [{ id, fields: { text: "one" } }]))
          expect(created?.id).toBe(id)
          const updated = yield* bulk(dataset, "PUT", [{ id, metadata: { n: 1 } }])
          expect(body(updated).updated_item_ids).toEqual([id])
          expect(items(updated)[0]).toMatchObject({ id, fields: { text: "one" } })
        }))

      it.effect("bulk create (POST) ignores ids, as Argilla's create schema has none; bulk upsert (PUT) keeps them and refuses repeats", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const id = crypto.randomUUID()
          const created = yield* bulk(dataset, "POST", [{ id, fields: { text: "one" } }, { id, fields: { text: "two" } }])
          expect(created.status).toBe(201)
          const ids = items(created).map((record) => record.id)
          expect(ids).not.toContain(id)
          expect(new Set(ids).size).toBe(2)
          const repeated = yield* bulk(dataset, "PUT", [{ id, fields: { text: "one" } }, { id, fields: { text: "two" } }])
          expect(repeated.status).toBe(422)
          expect(JSON.stringify(repeated.body)).toContain(`items 0 and 1 have the same id \`${id}\``)
          const kept = yield* bulk(dataset, "PUT", [{ id, fields: { text: "three" } }])
          expect(items(kept)[0]?.id).toBe(id)
          expect(body(yield* send("GET", datasetPath(dataset, "/records"))).total).toBe(3)
        }))
    })
  })
}
