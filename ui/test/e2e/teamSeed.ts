/**
 * What the team journeys need besides what they create in the browser: a small published dataset (one label
 * question, three records) in a workspace the first owner made, so an invited annotator has something to answer.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId, WorkspaceId } from "../../../src/domain/Ids.js"
import { clientFor } from "./seed.js"

export const TEAM_TEXTS = [
  "The parcel came a day early and the box was intact.",
  "Support never answered my two emails.",
  "It works, although the manual is confusing."
] as const

export const seedTeamDataset = (baseUrl: string, ownerKey: string, workspaceId: WorkspaceId, name: string) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const dataset = yield* owner.datasets.create({ payload: { name, workspace_id: workspaceId } })
    const id: DatasetId = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Review", settings: { type: "text" } } })
    yield* owner.questions.create({
      path: { id },
      payload: {
        name: "sentiment",
        title: "Sentiment",
        required: true,
        settings: {
          type: "label_selection",
          options: [{ value: "positive", text: "Positive" }, { value: "negative", text: "Negative" }, { value: "neutral", text: "Neutral" }]
        }
      }
    })
    yield* owner.datasets.publish({ path: { id } })
    yield* owner.records.bulkCreate({
      path: { id },
      payload: { items: TEAM_TEXTS.map((text, i) => ({ external_id: `team-${i + 1}`, fields: { text } })) }
    })
    return { datasetId: id, datasetName: dataset.name }
  }).pipe(Effect.provide(FetchHttpClient.layer))
