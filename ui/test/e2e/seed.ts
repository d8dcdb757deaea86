/**
 * Seeds, through the typed client as an owner would, a dataset that shows every field kind and every question
 * kind, with suggestions, metadata and guidelines, and two annotators in its workspace; and, for the `ui`
 * benchmark, a dataset with a very long text and many spans. Used by the end-to-end test, the benchmark and, for
 * development, by `npx tsx ui/test/e2e/seed.ts http://127.0.0.1:6999 owner.apikey`.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../../src/contract/Api.js"
import type { DatasetId } from "../../../src/domain/Ids.js"
import type { Question } from "../../../src/domain/Question.js"

export const ANNOTATOR_PASSWORD = "annotator-password"

/** A short text with an emoji (two UTF-16 units, one code point) and a combining accent before the names. */
export const TEXTS: ReadonlyArray<string> = [
  "Great 👍🏽 service from Zoë at Acme Corp in Paris, would recommend.",
  "The parcel from Globex arrived late and damaged.",
  "Cafe\u0301 Lumière in Lyon serves the best croissants 🥐 ever.",
  "Customer support at Initech never answered my emails.",
  "Stayed at the Hotel Ritz in Madrid: clean rooms, friendly staff.",
  "Umbrella Corp shipped the wrong size twice.",
  "Fast delivery to Berlin, well packed, thanks Hooli!",
  "The app from Pied Piper crashes every time I open it.",
  "Ordered from Stark Industries; the drone works perfectly.",
  "Wayne Enterprises refunded me within two days.",
  "Sent 3 emails to Cyberdyne, still waiting 😤.",
  "Soylent shakes taste odd but arrive on time in Oslo."
]

/** A word found in one text only, for searching. */
export const KEYWORDS: ReadonlyArray<string> = [
  "recommend", "damaged", "croissants", "answered", "Madrid", "wrong", "Berlin", "crashes", "drone", "refunded", "waiting",
  "Soylent"
]

const PIXEL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkqPj/HwAFgwJ/lHQ4jQAAAABJRU5ErkJggg=="

/** A typed client that sends `apiKey` in `X-Gloss-Api-Key`. */
export const clientFor = (baseUrl: string, apiKey: string) =>
  HttpApiClient.make(Api, {
    baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("X-Gloss-Api-Key", apiKey))
  })

export interface Seeded {
  readonly workspaceId: string
  readonly datasetId: DatasetId
  readonly datasetName: string
  readonly annotators: ReadonlyArray<{ readonly username: string; readonly password: string; readonly apiKey: string }>
  readonly records: number
  readonly questions: ReadonlyArray<Question>
}

export const seed = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `team-${suffix}` } })
    const annotators = []
    for (const name of ["alice", "bob"]) {
      const user = yield* owner.users.create({
        payload: { first_name: name, username: `${name}-${suffix}`, password: ANNOTATOR_PASSWORD, role: "annotator" }
      })
      yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
      // Owners are shown the API keys of the users they create (nobody else but the user is).
      if (user.api_key === undefined) return yield* Effect.dieMessage(`the owner was not shown ${user.username}'s API key`)
      annotators.push({ username: user.username, password: ANNOTATOR_PASSWORD, apiKey: user.api_key })
    }
    const dataset = yield* owner.datasets.create({
      payload: {
        name: `reviews-${suffix}`,
        workspace_id: workspace.id,
        guidelines: "# Guidelines\n\nRead the **review**, pick its sentiment, then mark organisations and places.\n\n" +
          "- Accept a suggestion by submitting it.\n- Discard records that are not reviews."
      }
    })
    const id = dataset.id
    const field = (name: string, title: string, settings: Parameters<typeof owner.fields.create>[0]["payload"]["settings"]) =>
      owner.fields.create({ path: { id }, payload: { name, title, settings } })
    yield* field("text", "Review", { type: "text" })
    yield* field("notes", "Notes", { type: "text", use_markdown: true })
    yield* field("photo", "Photo", { type: "image" })
    yield* field("chat", "Conversation", { type: "chat" })
    yield* field("product", "Product", {
      type: "custom",
      template: "<strong>{{record.fields.product.name}}</strong> costs {{record.fields.product.price}} €"
    })
    const question = (payload: Parameters<typeof owner.questions.create>[0]["payload"]) =>
      owner.questions.create({ path: { id }, payload })
    const options = (...values: ReadonlyArray<string>) => values.map((v) => ({ value: v, text: v[0]?.toUpperCase() + v.slice(1) }))
    yield* question({
      name: "sentiment",
      title: "Sentiment",
      description: "How does the customer feel?",
      required: true,
      settings: { type: "label_selection", options: options("positive", "negative", "neutral") }
    })
    yield* question({
      name: "entities",
      title: "Entities",
      settings: {
        type: "span",
        field: "text",
        options: [{ value: "ORG", text: "Organisation" }, { value: "LOC", text: "Place" }, { value: "PER", text: "Person" }],
        allow_overlapping: true
      }
    })
    yield* question({
      name: "topics",
      title: "Topics",
      settings: { type: "multi_label_selection", options: options("delivery", "quality", "support", "price") }
    })
    yield* question({ name: "quality", title: "Quality", settings: { type: "rating", options: [1, 2, 3, 4, 5].map((value) => ({ value })) } })
    yield* question({ name: "ranking", title: "What matters most", settings: { type: "ranking", options: options("speed", "price", "care") } })
    yield* question({ name: "comment", title: "Comment", settings: { type: "text" } })
    yield* owner.metadataProperties.create({
      path: { id },
      payload: { name: "source", title: "Source", settings: { type: "terms", values: ["web", "app"] } }
    })
    yield* owner.datasets.publish({ path: { id } })
    const questions = (yield* owner.questions.list({ path: { id } })).items
    yield* owner.records.bulkCreate({
      path: { id },
      payload: {
        items: TEXTS.map((text, i) => ({
          external_id: `review-${i + 1}`,
          fields: {
            text,
            notes: `Order **#${1000 + i}** — see [the FAQ](https://example.com/faq).`,
            photo: PIXEL,
            chat: [{ role: "user", content: "Where is my order?" }, { role: "assistant", content: "On its way!" }],
            product: { name: `Product ${i + 1}`, price: 10 + i }
          },
          metadata: { source: i % 2 === 0 ? "web" : "app" },
          suggestions: [
            { question_name: "sentiment", value: i % 3 === 1 ? "negative" : "positive", agent: "sentiment-model", score: 0.87 },
            ...(i === 0 ? [{ question_name: "entities", value: [{ label: "ORG", start: 23, end: 32 }], agent: "ner-model", score: [0.9] }] : [])
          ]
        }))
      }
    })
    return { workspaceId: workspace.id, datasetId: id, datasetName: dataset.name, annotators, records: TEXTS.length, questions } satisfies Seeded
  }).pipe(Effect.provide(FetchHttpClient.layer))

/** 50 000 characters of words, with the 200 spans the long record is suggested (word-aligned or not, as a model's). */
export const LONG_TEXT = "lorem ipsum dolor sit amet ".repeat(1852).slice(0, 50_000)
export const LONG_SPANS = Array.from({ length: 200 }, (_, i) => ({ label: i % 2 === 0 ? "ORG" : "LOC", start: i * 240, end: i * 240 + 11 }))

/**
 * A dataset in `workspaceId` with one span question over one text field, and two records: `LONG_TEXT` with
 * `LONG_SPANS` suggested (so they are pre-filled), and a short one to move to and from.
 */
export const seedLongText = (baseUrl: string, ownerKey: string, workspaceId: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const dataset = yield* owner.datasets.create({ payload: { name: `long-text-${suffix}`, workspace_id: workspaceId } })
    const id = dataset.id
    yield* owner.fields.create({ path: { id }, payload: { name: "text", title: "Text", settings: { type: "text" } } })
    yield* owner.questions.create({
      path: { id },
      payload: {
        name: "entities",
        title: "Entities",
        required: true,
        settings: {
          type: "span",
          field: "text",
          options: [{ value: "ORG", text: "Organisation" }, { value: "LOC", text: "Place" }],
          allow_overlapping: true
        }
      }
    })
    yield* owner.datasets.publish({ path: { id } })
    yield* owner.records.bulkCreate({
      path: { id },
      payload: {
        items: [
          {
            external_id: "long",
            fields: { text: LONG_TEXT },
            suggestions: [{ question_name: "entities", value: LONG_SPANS, agent: "ner-model" }]
          },
          { external_id: "short", fields: { text: TEXTS[0] ?? "" } }
        ]
      }
    })
    return { datasetId: id, datasetName: dataset.name }
  }).pipe(Effect.provide(FetchHttpClient.layer))

// Development: seed a running server.
if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, "/"))) {
  const [url = "http://127.0.0.1:6999", key = "owner.apikey"] = process.argv.slice(2)
  Effect.runPromise(seed(url, key)).then((s) => console.log(JSON.stringify(s.annotators.concat(), null, 2), s.datasetId))
}
