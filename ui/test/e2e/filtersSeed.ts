/**
 * A small dataset for the filters journey: lengths in metadata, sentiment suggestions from two agents with scores,
 * a 2-d vector setting (one record without a vector), and an annotator who has answered two records.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId } from "../../../src/domain/Ids.js"
import { ANNOTATOR_PASSWORD, clientFor } from "./seed.js"

/** Per record: its text (one distinct word each), length, suggestion (agent, value, score) and vector. */
export const ROWS = [
  { text: "Apples arrived fresh and crisp.", length: 5, agent: "model-a", value: "positive", score: 0.9, vector: [0.5, 0.5] },
  { text: "Bananas were bruised on arrival.", length: 2, agent: "model-a", value: "negative", score: 0.3, vector: [0, 1] },
  { text: "Cherries taste like a rocket of summer.", length: 9, agent: "model-a", value: "positive", score: 0.7, vector: [1, 0] },
  { text: "Dates came late and dry.", length: 1, agent: "model-b", value: "negative", score: 0.8, vector: [-1, 0] },
  { text: "Elderberries made a fine rocket jam.", length: 7, agent: "model-b", value: "positive", score: 0.6, vector: [0.9, 0.1] },
  { text: "Figs were fine, nothing more.", length: 3, agent: "model-b", value: "neutral", score: 0.2, vector: undefined }
] as const

/** Records the annotator has submitted, with their sentiment. */
export const ANSWERED = { 0: "positive", 3: "negative" } as const

export interface FiltersSeeded {
  readonly datasetId: DatasetId
  readonly datasetName: string
  readonly annotator: { readonly username: string; readonly password: string }
}

export const seedFilters = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `filters-${suffix}` } })
    const user = yield* owner.users.create({
      payload: { first_name: "carol", username: `carol-${suffix}`, password: ANNOTATOR_PASSWORD, role: "annotator" }
    })
    yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
    if (user.api_key === undefined) return yield* Effect.dieMessage("the owner was not shown the annotator's API key")
    const dataset = yield* owner.datasets.create({ payload: { name: `fruit-${suffix}`, workspace_id: workspace.id } })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Review", settings: { type: "text" } } })
    yield* owner.fields.create({
      path: { id },
      payload: { name: "notes", title: "Notes", settings: { type: "text", use_markdown: true } }
    })
    yield* owner.questions.create({
      path: { id },
      payload: {
        name: "sentiment",
        title: "Sentiment",
        required: true,
        settings: {
          type: "label_selection",
          options: [
            { value: "positive", text: "Positive" },
            { value: "negative", text: "Negative" },
            { value: "neutral", text: "Neutral" }
          ]
        }
      }
    })
    yield* owner.metadataProperties.create({
      path: { id },
      payload: { name: "length", title: "Length", settings: { type: "integer" } }
    })
    yield* owner.vectorSettings.create({ path: { id }, payload: { name: "embedding", title: "Embedding", dimensions: 2 } })
    yield* owner.datasets.publish({ path: { id } })
    yield* owner.records.bulkCreate({
      path: { id },
      payload: {
        items: ROWS.map((row, i) => ({
          external_id: `fruit-${i}`,
          fields: { text: row.text, notes: row.text.includes("rocket") ? `A **Rocket** note for record ${i}.` : "A plain note." },
          metadata: { length: row.length },
          suggestions: [{ question_name: "sentiment", value: row.value, agent: row.agent, score: row.score }],
          ...(row.vector === undefined ? {} : { vectors: { embedding: [...row.vector] } })
        }))
      }
    })
    const records = (yield* owner.records.list({ path: { id }, urlParams: { limit: 100 } })).items
    const annotator = yield* clientFor(baseUrl, user.api_key)
    for (const [index, value] of Object.entries(ANSWERED)) {
      const record = records.find((r) => r.external_id === `fruit-${index}`)
      if (record === undefined) return yield* Effect.dieMessage(`record fruit-${index} was not created`)
      yield* annotator.responses.create({
        path: { id: record.id },
        payload: { status: "submitted", values: { sentiment: { value } } }
      })
    }
    return {
      datasetId: id,
      datasetName: dataset.name,
      annotator: { username: user.username, password: ANNOTATOR_PASSWORD }
    } satisfies FiltersSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))
