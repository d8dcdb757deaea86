/**
 * For the bulk view's end-to-end test and the `ui` benchmark: a published dataset with one text field, a required
 * label question and a span question, a `source` metadata property, and `count` records (every other one from
 * "web", the rest from "app"), each with a suggested span over "Acme Corp"), plus an annotator in its workspace. Seeded
 * through the typed client, as an owner would.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId } from "../../../src/domain/Ids.js"
import { MAX_RECORDS_PER_BULK } from "../../../src/domain/Record.js"
import { ANNOTATOR_PASSWORD, clientFor } from "./seed.js"

export interface BulkSeeded {
  readonly datasetId: DatasetId
  readonly datasetName: string
  readonly annotator: { readonly username: string; readonly password: string; readonly apiKey: string }
  readonly records: number
}

/** The metadata filter that keeps the "web" half, as the URL carries it (`_metadata`). */
export const WEB_ONLY = JSON.stringify({ source: { kind: "terms", values: ["web"] } })

export const seedBulk = (baseUrl: string, ownerKey: string, count: number, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `bulk-${suffix}` } })
    const user = yield* owner.users.create({
      payload: { first_name: "carol", username: `carol-${suffix}`, password: ANNOTATOR_PASSWORD, role: "annotator" }
    })
    yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
    if (user.api_key === undefined) return yield* Effect.dieMessage(`the owner was not shown ${user.username}'s API key`)
    const dataset = yield* owner.datasets.create({ payload: { name: `bulk-${suffix}`, workspace_id: workspace.id } })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Review", settings: { type: "text" } } })
    yield* owner.questions.create({
      path: { id },
      payload: {
        name: "sentiment",
        title: "Sentiment",
        required: true,
        settings: {
          type: "label_selection",
          options: [{ value: "positive", text: "Positive" }, { value: "negative", text: "Negative" }]
        }
      }
    })
    yield* owner.questions.create({
      path: { id },
      payload: {
        name: "entities",
        title: "Entities",
        settings: {
          type: "span",
          field: "text",
          options: [{ value: "ORG", text: "Organisation" }, { value: "LOC", text: "Place" }],
          allow_overlapping: false
        }
      }
    })
    yield* owner.metadataProperties.create({
      path: { id },
      payload: { name: "source", title: "Source", settings: { type: "terms", values: ["web", "app"] } }
    })
    yield* owner.datasets.publish({ path: { id } })
    const items = Array.from({ length: count }, (_, i) => {
      const head = `Review ${i + 1}: `
      return {
        external_id: `bulk-${i + 1}`,
        fields: { text: `${head}Acme Corp shipped my order to Paris.` },
        metadata: { source: i % 2 === 0 ? "web" : "app" },
        suggestions: [{ question_name: "entities", value: [{ label: "ORG", start: head.length, end: head.length + 9 }], agent: "ner" }]
      }
    })
    for (let start = 0; start < items.length; start += MAX_RECORDS_PER_BULK) {
      yield* owner.records.bulkCreate({ path: { id }, payload: { items: items.slice(start, start + MAX_RECORDS_PER_BULK) } })
    }
    return {
      datasetId: id,
      datasetName: dataset.name,
      annotator: { username: user.username, password: ANNOTATOR_PASSWORD, apiKey: user.api_key },
      records: count
    } satisfies BulkSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))
