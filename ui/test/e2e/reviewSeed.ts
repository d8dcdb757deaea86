/**
 * A small dataset for review mode, seeded through the typed client: two annotators who submit the same
 * sentiment on one record and different ones on another, a third record nobody answered, and an admin member.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId, RecordId } from "../../../src/domain/Ids.js"
import { clientFor } from "./seed.js"

export const REVIEW_PASSWORD = "annotator-password"
export const REVIEW_TEXTS = ["Agreed: the parcel came early.", "Disputed: the parcel came, sort of.", "Nobody read this one."]

export interface ReviewSeeded {
  readonly datasetId: DatasetId
  readonly datasetName: string
  readonly annotators: ReadonlyArray<{ readonly username: string; readonly password: string }>
  /** an admin member of the dataset's workspace, who has not answered */
  readonly admin: { readonly username: string; readonly password: string }
  readonly records: ReadonlyArray<RecordId>
}

export const seedReview = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `review-${suffix}` } })
    const annotators = []
    for (const name of ["ann", "ben"]) {
      const user = yield* owner.users.create({
        payload: { first_name: name, username: `${name}-${suffix}`, password: REVIEW_PASSWORD, role: "annotator" }
      })
      yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
      if (user.api_key === undefined) return yield* Effect.dieMessage(`the owner was not shown ${user.username}'s API key`)
      annotators.push({ username: user.username, password: REVIEW_PASSWORD, apiKey: user.api_key })
    }
    const admin = yield* owner.users.create({
      payload: { first_name: "ada", username: `ada-${suffix}`, password: REVIEW_PASSWORD, role: "admin" }
    })
    yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: admin.id } })
    const dataset = yield* owner.datasets.create({ payload: { name: `review-${suffix}`, workspace_id: workspace.id } })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Text", settings: { type: "text" } } })
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
    yield* owner.questions.create({ path: { id }, payload: { name: "note", title: "Note", settings: { type: "text" } } })
    yield* owner.datasets.publish({ path: { id } })
    const created = yield* owner.records.bulkCreate({
      path: { id },
      payload: { items: REVIEW_TEXTS.map((text, i) => ({ external_id: `r-${i + 1}`, fields: { text } })) }
    })
    const records = created.items.map((r) => r.id)
    const [agreed, disputed] = records
    if (agreed === undefined || disputed === undefined) return yield* Effect.dieMessage("records were not created")
    const answers: ReadonlyArray<ReadonlyArray<string>> = [["positive", "positive"], ["positive", "negative"]]
    for (const [i, annotator] of annotators.entries()) {
      const client = yield* clientFor(baseUrl, annotator.apiKey)
      for (const [r, record] of [agreed, disputed].entries()) {
        yield* client.responses.create({
          path: { id: record },
          payload: { status: "submitted", values: { sentiment: { value: answers[r]?.[i] ?? "" }, note: { value: "ok" } } }
        })
      }
    }
    return {
      datasetId: id,
      datasetName: dataset.name,
      annotators: annotators.map(({ password, username }) => ({ username, password })),
      admin: { username: admin.username, password: REVIEW_PASSWORD },
      records
    } satisfies ReviewSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))
