/**
 * A dataset made to break small screens, seeded through the typed client as an owner would: long names, words and
 * URLs that cannot break, a markdown table and code wider than any phone, a wide image, a chat with long words, a
 * custom field, a span question and label questions with many long labels; and one annotator in its workspace.
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { DatasetId } from "../../../src/domain/Ids.js"
import { ANNOTATOR_PASSWORD, clientFor } from "./seed.js"

export interface ResponsiveSeeded {
  readonly datasetId: DatasetId
  readonly datasetName: string
  readonly annotator: { readonly username: string; readonly password: string }
}

const LONG_WORD = "Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft"
const LONG_URL = "https://example.com/" + "a-very-long-path-segment-".repeat(8) + "end?with=query&and=more-parameters"

const TEXT = `${LONG_WORD} met Acme Corp in Paris; see ${LONG_URL} for the order.`

const WIDE_TABLE = [
  "| " + Array.from({ length: 10 }, (_, i) => `Column number ${i + 1}`).join(" | ") + " |",
  "| " + Array.from({ length: 10 }, () => "---").join(" | ") + " |",
  "| " + Array.from({ length: 10 }, (_, i) => `value-${i}-${LONG_WORD.slice(0, 20)}`).join(" | ") + " |"
].join("\n")

const NOTES = `**Order** ${LONG_WORD}, ${LONG_URL}\n\n${WIDE_TABLE}\n\n\`\`\`\n${"const x = 1; ".repeat(20)}\n\`\`\``

/** An image far wider than the screen (an SVG, so no binary in the repository). */
const WIDE_IMAGE = "data:image/svg+xml;base64," + Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="300"><rect width="2400" height="300" fill="#3b5bdb"/></svg>'
).toString("base64")

const LABELS = Array.from({ length: 30 }, (_, i) => ({
  value: `label-${i}`,
  text: i % 5 === 0 ? `${LONG_WORD}-${i}` : `Category number ${i} with a long name`
}))

export const seedResponsive = (baseUrl: string, ownerKey: string, suffix = Date.now().toString(36)) =>
  Effect.gen(function*() {
    const owner = yield* clientFor(baseUrl, ownerKey)
    const workspace = yield* owner.workspaces.create({ payload: { name: `workspace-with-a-long-name-${suffix}` } })
    const user = yield* owner.users.create({
      payload: { first_name: "Narrow", username: `narrow-${suffix}`, password: ANNOTATOR_PASSWORD, role: "annotator" }
    })
    yield* owner.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: user.id } })
    const dataset = yield* owner.datasets.create({
      payload: {
        name: `a-dataset-name-that-goes-on-and-on-without-any-space-${suffix}`,
        workspace_id: workspace.id,
        guidelines: `# Guidelines\n\n${LONG_WORD}: ${LONG_URL}\n\n${WIDE_TABLE}`
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
    yield* question({
      name: "category",
      title: `Category (${LONG_WORD})`,
      description: `Pick one. ${LONG_URL}`,
      required: true,
      settings: { type: "label_selection", options: LABELS, visible_options: 20 }
    })
    yield* question({
      name: "entities",
      title: "Entities",
      settings: {
        type: "span",
        field: "text",
        options: [{ value: "ORG", text: "Organisation" }, { value: "LOC", text: "Place" }, { value: "LONG", text: LONG_WORD }],
        allow_overlapping: true
      }
    })
    yield* question({ name: "tags", title: "Tags", settings: { type: "multi_label_selection", options: LABELS.slice(0, 10) } })
    yield* question({ name: "quality", title: "Quality", settings: { type: "rating", options: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((value) => ({ value })) } })
    yield* question({
      name: "ranking",
      title: "What matters most",
      settings: { type: "ranking", options: LABELS.slice(0, 4) }
    })
    yield* question({ name: "comment", title: "Comment", settings: { type: "text" } })
    yield* owner.datasets.publish({ path: { id } })
    yield* owner.records.bulkCreate({
      path: { id },
      payload: {
        items: [0, 1, 2].map((i) => ({
          external_id: `narrow-${i}`,
          fields: {
            text: TEXT,
            notes: NOTES,
            photo: WIDE_IMAGE,
            chat: [{ role: "user", content: `Where is ${LONG_WORD}?` }, { role: "assistant", content: `At ${LONG_URL}` }],
            product: { name: LONG_WORD, price: 10 + i }
          },
          suggestions: [
            { question_name: "category", value: "label-5", agent: "model", score: 0.5 },
            { question_name: "entities", value: [{ label: "ORG", start: 0, end: LONG_WORD.length }], agent: "ner", score: [0.9] }
          ]
        }))
      }
    })
    // One record answered, so review and team progress have something to show (and two stay pending).
    if (user.api_key === undefined) return yield* Effect.dieMessage(`the owner was not shown ${user.username}'s API key`)
    const answered = (yield* owner.records.list({ path: { id }, urlParams: { limit: 10 } })).items
      .find((r) => r.external_id === "narrow-2")
    if (answered === undefined) return yield* Effect.dieMessage("record narrow-2 was not created")
    const annotator = yield* clientFor(baseUrl, user.api_key)
    yield* annotator.responses.create({
      path: { id: answered.id },
      payload: {
        status: "submitted",
        values: {
          category: { value: "label-5" },
          tags: { value: ["label-0", "label-1"] },
          entities: { value: [{ label: "LONG", start: 0, end: LONG_WORD.length }] },
          comment: { value: `${LONG_WORD} ${LONG_URL}` }
        }
      }
    })
    return {
      datasetId: id,
      datasetName: dataset.name,
      annotator: { username: user.username, password: ANNOTATOR_PASSWORD }
    } satisfies ResponsiveSeeded
  }).pipe(Effect.provide(FetchHttpClient.layer))
