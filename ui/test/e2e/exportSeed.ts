/**
 * For the export end-to-end test: a workspace with the owner in it and a published dataset of 6 records (a text field,
 * a label question), the owner's submitted answer on the first two.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import { clientFor } from "./seed.js"

export const seedExport = (baseUrl: string, ownerKey: string) =>
  Effect.gen(function*() {
    const suffix = Date.now().toString(36)
    const owner = yield* clientFor(baseUrl, ownerKey)
    const me = yield* owner.me.me()
    const workspace = yield* owner.workspaces.create({ payload: { name: `export-${suffix}` } })
    yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: me.id } })
    const dataset = yield* owner.datasets.create({ payload: { name: `export-${suffix}`, workspace_id: workspace.id } })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Text", settings: { type: "text" } } })
    yield* owner.questions.create({
      path: { id },
      payload: {
        name: "label",
        title: "Label",
        required: true,
        settings: { type: "label_selection", options: [{ value: "good", text: "Good" }, { value: "bad", text: "Bad" }] }
      }
    })
    yield* owner.datasets.publish({ path: { id } })
    yield* owner.records.bulkCreate({
      path: { id },
      payload: {
        items: Array.from({ length: 6 }, (_, i) => ({
          external_id: `e-${i}`,
          fields: { text: `Review number ${i}` },
          ...(i < 2 ? { responses: [{ user_id: me.id, status: "submitted" as const, values: { label: { value: "good" } } }] } : {})
        }))
      }
    })
    return { datasetId: id, datasetName: dataset.name, ownerName: me.username }
  }).pipe(Effect.provide(FetchHttpClient.layer))
