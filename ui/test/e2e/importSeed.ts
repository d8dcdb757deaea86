/**
 * For the import end-to-end test: a workspace with an annotator, and a published, empty dataset with a text field,
 * a required label question (positive / negative / neutral) and a 3-d vector setting.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import { ANNOTATOR_PASSWORD, clientFor } from "./seed.js"

export const seedImport = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `import-${suffix}` } })
    const annotator = yield* owner.users.create({
      payload: { first_name: "ann", username: `importer-ann-${suffix}`, password: ANNOTATOR_PASSWORD, role: "annotator" }
    })
    yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: annotator.id } })
    const dataset = yield* owner.datasets.create({ payload: { name: `import-${suffix}`, workspace_id: workspace.id } })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Text", settings: { type: "text" } } })
    const sentiment = yield* owner.questions.create({
      path: { id },
      payload: {
        name: "sentiment",
        title: "Sentiment",
        required: true,
        settings: {
          type: "label_selection",
          options: ["positive", "negative", "neutral"].map((value) => ({ value, text: value.toUpperCase() }))
        }
      }
    })
    yield* owner.vectorSettings.create({ path: { id }, payload: { name: "emb", title: "Embedding", dimensions: 3 } })
    yield* owner.datasets.publish({ path: { id } })
    return { datasetId: id, datasetName: dataset.name, questionId: sentiment.id, annotatorId: annotator.id, annotatorName: annotator.username }
  }).pipe(Effect.provide(FetchHttpClient.layer))
