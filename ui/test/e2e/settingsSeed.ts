/**
 * For the settings end-to-end test and the `ui` benchmark's settings page: a workspace with an annotator, and a
 * published dataset with a text field, a label question (positive / negative / neutral) and `extraQuestions` more
 * label questions (the benchmark opens a settings page with ~20).
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import { ANNOTATOR_PASSWORD, clientFor } from "./seed.js"

export const seedSettings = (baseUrl: string, ownerKey: string, options: { readonly suffix?: string; readonly extraQuestions?: number } = {}) =>
  Effect.gen(function*() {
    const suffix = options.suffix ?? Date.now().toString(36)
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `settings-${suffix}` } })
    const annotator = yield* owner.users.create({
      payload: { first_name: "ann", username: `ann-${suffix}`, password: ANNOTATOR_PASSWORD, role: "annotator" }
    })
    yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: annotator.id } })
    const dataset = yield* owner.datasets.create({
      payload: { name: `settings-${suffix}`, workspace_id: workspace.id, guidelines: "Old guidelines" }
    })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Text", settings: { type: "text" } } })
    const labels = (values: ReadonlyArray<string>) => values.map((value) => ({ value, text: value.toUpperCase() }))
    const sentiment = yield* owner.questions.create({
      path: { id },
      payload: {
        name: "sentiment",
        title: "Sentiment",
        required: true,
        settings: { type: "label_selection", options: labels(["positive", "negative", "neutral"]) }
      }
    })
    for (let i = 0; i < (options.extraQuestions ?? 0); i++) {
      yield* owner.questions.create({
        path: { id },
        payload: {
          name: `question_${i}`,
          title: `Question ${i}`,
          description: `What about aspect ${i}?`,
          settings: { type: i % 2 === 0 ? "label_selection" : "multi_label_selection", options: labels(["a", "b", "c", "d", "e"]) }
        }
      })
    }
    yield* owner.datasets.publish({ path: { id } })
    return {
      workspaceId: workspace.id,
      datasetId: id,
      datasetName: dataset.name,
      questionId: sentiment.id,
      annotator: { username: annotator.username, password: ANNOTATOR_PASSWORD }
    }
  }).pipe(Effect.provide(FetchHttpClient.layer))
