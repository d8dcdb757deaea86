/**
 * Data for the schema fuzzer, created through the API as the owner: a published dataset with every kind of setting
 * and a few records, so path parameters name things that exist. Each delete endpoint gets its own victim, so one
 * early delete does not turn the rest of the run into 404s.
 */
import { Effect } from "effect"
import { unique } from "../support/fixtures.js"
import { send } from "../support/datasets.js"

type Json = { readonly [key: string]: unknown }

const created = (what: string) => (response: { readonly status: number; readonly body: unknown }) =>
  response.status >= 200 && response.status < 300
    ? Effect.succeed(response.body as Json)
    : Effect.dieMessage(`fuzz seed: ${what} answered ${response.status}: ${JSON.stringify(response.body)}`)

const post = (what: string, path: string, body?: unknown, method = "POST") =>
  Effect.flatMap(send(method, path, body), created(what))

const idOf = (body: Json) => body.id as string

/** The ids of what the seed made, named for the endpoints that use them. */
export interface FuzzSeed {
  readonly workspace: string
  readonly workspaceToDelete: string
  readonly user: string
  readonly userToDelete: string
  readonly dataset: string
  readonly draftDataset: string
  readonly datasetToPublish: string
  readonly datasetToDelete: string
  readonly field: string
  readonly fieldToDelete: string
  readonly question: string
  readonly questionToDelete: string
  readonly metadataProperty: string
  readonly metadataPropertyToDelete: string
  readonly vectorSettings: string
  readonly vectorSettingsToDelete: string
  readonly record: string
  readonly recordToAnswer: string
  readonly recordToDelete: string
  readonly response: string
  readonly responseToDelete: string
  readonly suggestionToDelete: string
  readonly webhook: string
  readonly webhookToDelete: string
}

const settingsOf = (dataset: string) => {
  const base = `/api/v1/datasets/${dataset}`
  return {
    field: (name: string, settings: Json, required = false) =>
      post(`field ${name}`, `${base}/fields`, { name, title: name, required, settings }),
    question: (name: string, settings: Json, required = false) =>
      post(`question ${name}`, `${base}/questions`, { name, title: name, required, settings }),
    metadata: (name: string, settings: Json) =>
      post(`metadata property ${name}`, `${base}/metadata-properties`, { name, title: name, settings }),
    vectors: (name: string, dimensions: number) =>
      post(`vector settings ${name}`, `${base}/vectors-settings`, { name, title: name, dimensions })
  }
}

export const seedForFuzzing = Effect.gen(function*() {
  const workspace = idOf(yield* post("workspace", "/api/v1/workspaces", { name: unique("fuzz") }))
  const workspaceToDelete = idOf(yield* post("workspace", "/api/v1/workspaces", { name: unique("fuzz-delete") }))
  const member = (role: string) =>
    post(`user ${role}`, "/api/v1/users", { first_name: role, username: unique(role), password: "password-1234", role })
  const user = idOf(yield* member("annotator"))
  const userToDelete = idOf(yield* member("annotator"))
  for (const id of [user, userToDelete]) {
    yield* post("membership", `/api/v1/workspaces/${workspace}/users`, { user_id: id })
  }
  const owner = idOf(yield* post("me", "/api/v1/me", undefined, "GET"))

  const newDataset = (name: string) =>
    Effect.map(post(`dataset ${name}`, "/api/v1/datasets", { name: unique(name), workspace_id: workspace }), idOf)
  const dataset = yield* newDataset("fuzz")
  const settings = settingsOf(dataset)
  const field = idOf(yield* settings.field("text", { type: "text" }, true))
  yield* settings.field("chat", { type: "chat" })
  const question = idOf(
    yield* settings.question("label", {
      type: "label_selection",
      options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }]
    }, true)
  )
  yield* settings.question("stars", { type: "rating", options: [{ value: 1 }, { value: 2 }, { value: 3 }] })
  yield* settings.question("spans", { type: "span", field: "text", options: [{ value: "ORG", text: "Org" }] })
  yield* settings.question("notes", { type: "text" })
  const metadataProperty = idOf(yield* settings.metadata("source", { type: "terms", values: ["web", "book"] }))
  yield* settings.metadata("n", { type: "integer", min: 0, max: 10 })
  yield* settings.metadata("score", { type: "float" })
  const metadataPropertyToDelete = idOf(yield* settings.metadata("doomed", { type: "terms" }))
  const vectorSettings = idOf(yield* settings.vectors("emb", 3))
  const vectorSettingsToDelete = idOf(yield* settings.vectors("doomed", 2))
  yield* post("publish", `/api/v1/datasets/${dataset}/publish`, undefined, "PUT")

  const bulk = yield* post("records", `/api/v1/datasets/${dataset}/records/bulk`, {
    items: ["one", "two", "three", "four"].map((external_id, index) => ({
      external_id,
      fields: { text: `Acme hires ${external_id}`, chat: [{ role: "user", content: "hi" }] },
      metadata: { source: index % 2 === 0 ? "web" : "book", n: index, score: index / 2 },
      vectors: { emb: [index, 0.5, 1] },
      ...(index === 2 ? {} : {
        responses: [{ user_id: owner, status: "submitted", values: { label: { value: "yes" }, stars: { value: 2 } } }],
        suggestions: [{ question_id: question, value: "no", score: 0.5, agent: "fuzz", type: "model" }]
      })
    }))
  })
  const records = (bulk.items as ReadonlyArray<Json>).map(idOf)
  const [record = "", toDelete = "", recordToAnswer = "", withVictims = ""] = records
  const answersOf = (id: string) =>
    Effect.map(
      post("record", `/api/v1/records/${id}?include=responses&include=suggestions`, undefined, "GET"),
      (body) => ({
        response: idOf((body.responses as ReadonlyArray<Json>)[0] ?? {}),
        suggestion: idOf((body.suggestions as ReadonlyArray<Json>)[0] ?? {})
      })
    )
  const { response } = yield* answersOf(record)
  const victims = yield* answersOf(withVictims)

  // The settings endpoints that change or delete act on a draft, where that is allowed.
  const draftDataset = yield* newDataset("fuzz-draft")
  const draft = settingsOf(draftDataset)
  yield* draft.field("text", { type: "text" })
  const fieldToDelete = idOf(yield* draft.field("doomed", { type: "text" }))
  yield* draft.question("label", { type: "label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] })
  const questionToDelete = idOf(yield* draft.question("doomed", { type: "text" }))
  const datasetToPublish = yield* newDataset("fuzz-publish")
  yield* settingsOf(datasetToPublish).field("text", { type: "text" })
  yield* settingsOf(datasetToPublish).question("notes", { type: "text" })
  const datasetToDelete = yield* newDataset("fuzz-delete")

  const webhook = (events: ReadonlyArray<string>) =>
    // Port 9 (discard) on loopback: deliveries fail at once instead of leaving the machine.
    Effect.map(post("webhook", "/api/v1/webhooks", { url: "http://127.0.0.1:9/hook", events }), idOf)

  return {
    workspace,
    workspaceToDelete,
    user,
    userToDelete,
    dataset,
    draftDataset,
    datasetToPublish,
    datasetToDelete,
    field,
    fieldToDelete,
    question,
    questionToDelete,
    metadataProperty,
    metadataPropertyToDelete,
    vectorSettings,
    vectorSettingsToDelete,
    record,
    recordToAnswer,
    recordToDelete: toDelete,
    response,
    responseToDelete: victims.response,
    suggestionToDelete: victims.suggestion,
    webhook: yield* webhook(["dataset.created"]),
    webhookToDelete: yield* webhook(["record.created"])
  } satisfies FuzzSeed
})
