/**
 * A dataset for the review queue and adjudication journey, seeded through the typed client. Three annotators (ann,
 * ben, cat) answer a sentiment; only ann writes a note, once. Per record:
 *   r-1  all three "positive"                    agreed
 *   r-2  ann positive, ben negative, cat positive disputed (agreement 1/3), a model's suggestion "negative"
 *   r-3  ann positive, ben negative               disputed (agreement 0)
 *   r-4  ann negative, ben negative               agreed
 *   r-5  nobody                                   not in any review queue
 * ann also writes the note on r-2; ben and cat leave it blank there (one answer: nothing to compare).
 * A fourth annotator, rita, is given review rights in the workspace; a fifth, pat, is a plain member.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId, RecordId, UserId } from "../../../src/domain/Ids.js"
import { clientFor } from "./seed.js"

export const QUEUE_PASSWORD = "annotator-password"
export const QUEUE_TEXTS = [
  "All three liked the parcel.",
  "Two liked the parcel, one did not.",
  "One liked the parcel, one did not.",
  "Nobody liked the parcel.",
  "Nobody has read this one."
] as const

export interface Person {
  readonly id: UserId
  readonly username: string
  readonly password: string
}

export interface ReviewQueueSeeded {
  readonly datasetId: DatasetId
  readonly annotators: ReadonlyArray<Person>
  /** an annotator with review rights in the workspace */
  readonly reviewer: Person
  /** an annotator member without them */
  readonly plain: Person
  readonly records: ReadonlyArray<RecordId>
}

/** Each annotator's sentiment per record (undefined: no response). */
const SENTIMENTS: ReadonlyArray<ReadonlyArray<string | undefined>> = [
  ["positive", "positive", "positive"],
  ["positive", "negative", "positive"],
  ["positive", "negative", undefined],
  ["negative", "negative", undefined],
  [undefined, undefined, undefined]
]

export const seedReviewQueue = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `queue-${suffix}` } })
    const people: Array<Person & { readonly apiKey: string }> = []
    for (const name of ["ann", "ben", "cat", "rita", "pat"]) {
      const user = yield* owner.users.create({
        payload: { first_name: name, username: `${name}-${suffix}`, password: QUEUE_PASSWORD, role: "annotator" }
      })
      yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
      if (user.api_key === undefined) return yield* Effect.dieMessage(`the owner was not shown ${user.username}'s API key`)
      people.push({ id: user.id, username: user.username, password: QUEUE_PASSWORD, apiKey: user.api_key })
    }
    const [ann, ben, cat, rita, pat] = people
    if (ann === undefined || ben === undefined || cat === undefined || rita === undefined || pat === undefined) {
      return yield* Effect.dieMessage("users were not created")
    }
    yield* owner.review.addReviewer({ path: { id: workspace.id }, payload: { user_id: rita.id } })

    const dataset = yield* owner.datasets.create({ payload: { name: `queue-${suffix}`, workspace_id: workspace.id } })
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
          options: [
            { value: "positive", text: "Positive" },
            { value: "negative", text: "Negative" },
            { value: "neutral", text: "Neutral" }
          ]
        }
      }
    })
    yield* owner.questions.create({ path: { id }, payload: { name: "note", title: "Note", settings: { type: "text" } } })
    yield* owner.datasets.publish({ path: { id } })
    const created = yield* owner.records.bulkCreate({
      path: { id },
      payload: {
        items: QUEUE_TEXTS.map((text, i) => ({
          external_id: `r-${i + 1}`,
          fields: { text },
          ...(i === 1 ? { suggestions: [{ question_name: "sentiment", value: "negative", agent: "model-x", score: 0.8 }] } : {})
        }))
      }
    })
    const records = created.items.map((r) => r.id)
    for (const [who, annotator] of [ann, ben, cat].entries()) {
      const client = yield* clientFor(baseUrl, annotator.apiKey)
      for (const [r, record] of records.entries()) {
        const sentiment = SENTIMENTS[r]?.[who]
        if (sentiment === undefined) continue
        const note = who === 0 && r === 1 ? { note: { value: "ann's note" } } : {}
        yield* client.responses.create({
          path: { id: record },
          payload: { status: "submitted", values: { sentiment: { value: sentiment }, ...note } }
        })
      }
    }
    const person = (p: Person) => ({ id: p.id, username: p.username, password: p.password })
    return {
      datasetId: id,
      annotators: [ann, ben, cat].map(person),
      reviewer: person(rita),
      plain: person(pat),
      records
    } satisfies ReviewQueueSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))
