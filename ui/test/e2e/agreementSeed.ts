/**
 * A dataset for the agreement page, seeded through the typed client: three annotators (ann, ben, cat) answer a label,
 * a multi-label and a span question on five records, agreeing on some and not on others, with the model's sentiment
 * suggested on each; one record is answered by ann alone and one by nobody; cat has not answered the fourth yet (the
 * journey answers it). A fourth annotator (dan) belongs to the workspace and has answered nothing.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId, RecordId, UserId, WorkspaceId } from "../../../src/domain/Ids.js"
import { clientFor } from "./seed.js"

export const AGREEMENT_PASSWORD = "annotator-password"

export const AGREEMENT_TEXTS = [
  "Ada flew to Paris and loved it.",
  "Grace waited in Lisbon for a week.",
  "The parcel from Oslo never came.",
  "Alan called from Rome, calm as ever.",
  "Edith wrote from Vienna.",
  "Nobody answered this one from Berlin."
] as const

type Sentiment = "positive" | "negative" | "neutral"
type Answer = { readonly sentiment: Sentiment; readonly topics: ReadonlyArray<string>; readonly entities: ReadonlyArray<string> }

/**
 * Per record, each annotator's answer (undefined: none): `entities` lists the words marked, the first as a person,
 * the others as places.
 */
const ANSWERS: ReadonlyArray<ReadonlyArray<Answer | undefined>> = [
  [
    { sentiment: "positive", topics: ["travel"], entities: ["Ada", "Paris"] },
    { sentiment: "positive", topics: ["travel"], entities: ["Ada", "Paris"] },
    { sentiment: "positive", topics: ["travel", "food"], entities: ["Ada", "Paris"] }
  ],
  [
    { sentiment: "negative", topics: ["travel"], entities: ["Grace", "Lisbon"] },
    { sentiment: "neutral", topics: ["travel"], entities: ["Grace"] },
    { sentiment: "negative", topics: ["delivery"], entities: ["Grace", "Lisbon"] }
  ],
  [
    { sentiment: "negative", topics: ["delivery"], entities: ["parcel", "Oslo"] },
    { sentiment: "negative", topics: ["delivery"], entities: ["parcel", "Oslo"] },
    { sentiment: "negative", topics: ["delivery"], entities: ["parcel", "Oslo"] }
  ],
  [
    { sentiment: "neutral", topics: ["travel"], entities: ["Alan", "Rome"] },
    { sentiment: "positive", topics: ["travel"], entities: ["Alan", "Rome"] },
    undefined
  ],
  [{ sentiment: "positive", topics: ["food"], entities: ["Edith", "Vienna"] }, undefined, undefined],
  [undefined, undefined, undefined]
]

const SUGGESTED: ReadonlyArray<Sentiment> = ["positive", "negative", "negative", "neutral", "positive", "neutral"]

/** The spans of `words` in `text`, in code points (the texts are ASCII, so UTF-16 offsets are the same). */
const spansOf = (text: string, words: ReadonlyArray<string>) =>
  words.map((word, i) => {
    const start = text.indexOf(word)
    return { start, end: start + word.length, label: i === 0 ? "PER" : "LOC" }
  })

/** The response cat has not given yet: the journey submits it and watches the figure change. */
export const CAT_LATE_ANSWER = { sentiment: "negative" as Sentiment, topics: ["delivery"], entities: ["Alan"] }

export const answerValues = (text: string, answer: Answer) => ({
  sentiment: { value: answer.sentiment },
  topics: { value: [...answer.topics] },
  entities: { value: spansOf(text, answer.entities) }
})

export interface AgreementUser {
  readonly id: UserId
  readonly username: string
  readonly password: string
  readonly apiKey: string
}

export interface AgreementSeeded {
  readonly workspaceId: WorkspaceId
  readonly workspaceName: string
  readonly datasetId: DatasetId
  readonly datasetName: string
  /** ann, ben and cat, who answered; dan, who did not */
  readonly annotators: ReadonlyArray<AgreementUser>
  readonly dan: AgreementUser
  readonly records: ReadonlyArray<RecordId>
}

export const seedAgreement = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `agreement-${suffix}` } })
    const users: Array<AgreementUser> = []
    for (const name of ["ann", "ben", "cat", "dan"]) {
      const user = yield* owner.users.create({
        payload: { first_name: name, username: `${name}-${suffix}`, password: AGREEMENT_PASSWORD, role: "annotator" }
      })
      yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
      if (user.api_key === undefined) return yield* Effect.dieMessage(`the owner was not shown ${user.username}'s API key`)
      users.push({ id: user.id, username: user.username, password: AGREEMENT_PASSWORD, apiKey: user.api_key })
    }
    const dataset = yield* owner.datasets.create({ payload: { name: `agreement-${suffix}`, workspace_id: workspace.id } })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Text", settings: { type: "text" } } })
    const options = (...values: ReadonlyArray<string>) => values.map((value) => ({ value, text: value[0]?.toUpperCase() + value.slice(1) }))
    yield* owner.questions.create({
      path: { id },
      payload: {
        name: "sentiment",
        title: "Sentiment",
        required: true,
        settings: { type: "label_selection", options: options("positive", "negative", "neutral") }
      }
    })
    yield* owner.questions.create({
      path: { id },
      payload: { name: "topics", title: "Topics", settings: { type: "multi_label_selection", options: options("travel", "delivery", "food") } }
    })
    yield* owner.questions.create({
      path: { id },
      payload: {
        name: "entities",
        title: "Entities",
        settings: { type: "span", field: "text", options: [{ value: "PER", text: "Person" }, { value: "LOC", text: "Place" }] }
      }
    })
    yield* owner.datasets.publish({ path: { id } })
    const created = yield* owner.records.bulkCreate({
      path: { id },
      payload: {
        items: AGREEMENT_TEXTS.map((text, r) => ({
          external_id: `a-${r + 1}`,
          fields: { text },
          suggestions: [{ question_name: "sentiment", value: SUGGESTED[r] ?? "neutral", agent: "sentiment-model" }]
        }))
      }
    })
    const records = created.items.map((record) => record.id)
    for (const [r, answers] of ANSWERS.entries()) {
      const record = records[r]
      const text = AGREEMENT_TEXTS[r]
      if (record === undefined || text === undefined) return yield* Effect.dieMessage("records were not created")
      for (const [u, answer] of answers.entries()) {
        const user = users[u]
        if (answer === undefined || user === undefined) continue
        const client = yield* clientFor(baseUrl, user.apiKey)
        yield* client.responses.create({ path: { id: record }, payload: { status: "submitted", values: answerValues(text, answer) } })
      }
    }
    const [ann, ben, cat, dan] = users
    if (ann === undefined || ben === undefined || cat === undefined || dan === undefined) return yield* Effect.dieMessage("no users")
    return {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      datasetId: id,
      datasetName: dataset.name,
      annotators: [ann, ben, cat],
      dan,
      records
    } satisfies AgreementSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))
