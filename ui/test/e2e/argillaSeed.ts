/**
 * The dataset Argilla's web UI is driven over (ui/test/e2e/argilla-ui.test.ts), seeded through Gloss's API as the
 * owner: one text field, one label question, a terms metadata property, and records whose metadata splits them
 * into "web" and "app".
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId } from "../../../src/domain/Ids.js"
import { clientFor } from "./seed.js"

/** Each review has a word no other review has, to search for. */
export const REVIEWS: ReadonlyArray<{ readonly text: string; readonly source: "web" | "app"; readonly keyword: string }> = [
  { text: "Great service from Acme, would recommend.", source: "web", keyword: "recommend" },
  { text: "The parcel arrived late and damaged.", source: "app", keyword: "damaged" },
  { text: "Best croissants in Lyon, every single time.", source: "web", keyword: "croissants" },
  { text: "Support never answered my emails.", source: "app", keyword: "answered" },
  { text: "Clean rooms and friendly staff in Madrid.", source: "web", keyword: "Madrid" },
  { text: "They shipped the wrong size twice.", source: "app", keyword: "shipped" },
  { text: "Fast delivery to Berlin, well packed.", source: "web", keyword: "Berlin" },
  { text: "The app crashes every time I open it.", source: "app", keyword: "crashes" }
]

export interface ArgillaSeeded {
  readonly workspaceName: string
  readonly datasetId: DatasetId
  readonly datasetName: string
}

export const seedArgillaDataset = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `argilla-ui-${suffix}` } })
    const dataset = yield* owner.datasets.create({
      payload: { name: `reviews-${suffix}`, workspace_id: workspace.id, guidelines: "Pick the review's sentiment." }
    })
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
    yield* owner.metadataProperties.create({
      path: { id },
      payload: { name: "source", title: "Source", settings: { type: "terms", values: ["web", "app"] } }
    })
    yield* owner.datasets.publish({ path: { id } })
    yield* owner.records.bulkCreate({
      path: { id },
      payload: {
        items: REVIEWS.map((review, i) => ({
          external_id: `review-${i + 1}`,
          fields: { text: review.text },
          metadata: { source: review.source }
        }))
      }
    })
    return { workspaceName: workspace.name, datasetId: id, datasetName: dataset.name } satisfies ArgillaSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))
