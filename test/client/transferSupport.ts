/**
 * What the dataset transfer tests share: a dataset with every kind of setting and records carrying every
 * kind of data, and the record and settings views they compare (no ids, no times).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import type { Dataset, DatasetRecord, GlossClientShape, RecordUpsert } from "../../src/client/index.js"
import { unique } from "../support/fixtures.js"

export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "gloss-disk-"))

/** A published dataset with every kind of setting, in a new workspace, and an annotator of that workspace. */
export const fullDataset = (client: GlossClientShape) =>
  Effect.gen(function*() {
    const workspace = yield* client.workspaces.add({ name: unique("ws") })
    const annotator = yield* client.users.add({ username: unique("ann"), password: "annotator-password-1" })
    yield* client.call(client.api.workspaces.addUser({ path: { id: workspace.id }, payload: { user_id: annotator.id } }))
    const dataset = yield* client.datasets.add({
      name: unique("full"),
      workspace: workspace.name,
      guidelines: "Read, then label.",
      allow_extra_metadata: false,
      distribution: { strategy: "overlap", min_submitted: 2 },
      settings: {
        fields: [
          { name: "text", title: "Text", required: true, settings: { type: "text", use_markdown: true } },
          { name: "image", title: "Image", settings: { type: "image" } },
          { name: "chat", title: "Chat", settings: { type: "chat" } },
          { name: "custom", title: "Custom", settings: { type: "custom", template: "<b>{{record.fields.custom.k}}</b>" } }
        ],
        questions: [
          {
            name: "label",
            title: "Label",
            description: "The sentiment",
            required: true,
            settings: { type: "label_selection", options: [{ value: "pos", text: "Positive" }, { value: "neg", text: "Negative" }] }
          },
          {
            name: "topics",
            title: "Topics",
            settings: { type: "multi_label_selection", options: [{ value: "a", text: "A" }, { value: "b", text: "B" }] }
          },
          { name: "rating", title: "Rating", settings: { type: "rating", options: [{ value: 1 }, { value: 2 }, { value: 3 }] } },
          {
            name: "ranking",
            title: "Ranking",
            settings: { type: "ranking", options: [{ value: "x", text: "X" }, { value: "y", text: "Y" }, { value: "z", text: "Z" }] }
          },
          { name: "comment", title: "Comment", settings: { type: "text", use_markdown: false } },
          {
            name: "spans",
            title: "Spans",
            settings: { type: "span", field: "text", options: [{ value: "PER", text: "Person" }, { value: "ORG", text: "Org" }] }
          }
        ],
        metadata: [
          { name: "topic", title: "Topic", settings: { type: "terms", values: ["sport", "music"] } },
          { name: "rank", title: "Rank", settings: { type: "integer", min: 0, max: 100 }, visible_for_annotators: false },
          { name: "score", title: "Score", settings: { type: "float", min: 0, max: 1 } }
        ],
        vectors: [{ name: "emb", title: "Embedding", dimensions: 3 }]
      }
    })
    const me = yield* client.me
    const records: Array<RecordUpsert> = Array.from({ length: 23 }, (_, i) => ({
      external_id: `r-${i}`,
      fields: {
        text: `Text number ${i} about "quotes" and ] brackets`,
        ...(i % 2 === 0 ? { image: "https://example.com/cat.png" } : {}),
        ...(i % 3 === 0 ? { chat: [{ role: "user", content: `hi ${i}` }] } : {}),
        ...(i % 4 === 0 ? { custom: { k: `v${i}` } } : {})
      },
      metadata: { topic: i % 2 === 0 ? "sport" : "music", rank: i, score: (i % 10) / 10 },
      vectors: { emb: [i, i / 2, -i] },
      suggestions: [
        { question_name: "label", value: i % 2 === 0 ? "pos" : "neg", score: 0.25, agent: "model-1", type: "model" },
        ...(i % 3 === 0 ? [{ question_name: "topics", value: ["a", "b"], score: [0.5, 0.75] }] : []),
        ...(i % 5 === 0 ? [{ question_name: "ranking", value: [{ value: "z" }, { value: "x" }] }] : []),
        ...(i % 7 === 0 ? [{ question_name: "spans", value: [{ label: "PER", start: 0, end: 4 }], agent: "ner" }] : [])
      ],
      responses: [
        ...(i % 2 === 0
          ? [{
            user_id: me.id,
            status: "submitted" as const,
            values: {
              label: { value: "pos" },
              rating: { value: 1 + (i % 3) },
              ranking: { value: [{ value: "y", rank: 1 }, { value: "x", rank: 2 }, { value: "z", rank: 2 }] },
              comment: { value: `comment ${i}` }
            }
          }]
          : []),
        ...(i % 3 === 1 ? [{ user_id: annotator.id, status: "draft" as const, values: { topics: { value: ["b"] } } }] : []),
        ...(i % 3 === 2 ? [{ user_id: annotator.id, status: "discarded" as const }] : [])
      ]
    }))
    yield* client.records.log(dataset, records)
    return { dataset, workspace, annotator }
  })

export const allRecords = (client: GlossClientShape, dataset: Dataset) =>
  Effect.map(
    client.call(client.api.records.list({
      path: { id: dataset.id },
      urlParams: { offset: 0, limit: 1000, include: ["responses", "suggestions", "vectors"] }
    })),
    ({ items }) => items
  )

/** A record as compared: what it holds, without ids and times, suggestions by question name, responses by user. */
export const comparable = (dataset: Dataset) => (record: DatasetRecord) => {
  const questionName = new Map(dataset.settings.questions.map((q) => [q.id, q.name]))
  return {
    external_id: record.external_id,
    status: record.status,
    fields: record.fields,
    metadata: record.metadata,
    vectors: record.vectors,
    suggestions: Object.fromEntries((record.suggestions ?? []).map((s) => [
      questionName.get(s.question_id),
      { value: s.value, score: s.score, agent: s.agent, type: s.type }
    ])),
    // No values: `null` or `{}` (what the SDK sends for a response without any).
    responses: Object.fromEntries((record.responses ?? []).map((r) => [
      r.user_id,
      { values: r.values === null || Object.keys(r.values).length === 0 ? null : r.values, status: r.status }
    ]))
  }
}

export const comparableSettings = (dataset: Dataset) => ({
  guidelines: dataset.guidelines,
  allow_extra_metadata: dataset.allow_extra_metadata,
  distribution: dataset.distribution,
  status: dataset.status,
  fields: dataset.settings.fields.map(({ name, required, settings, title }) => ({ name, title, required, settings })),
  questions: dataset.settings.questions.map(({ description, name, required, settings, title }) => ({ name, title, description, required, settings })),
  metadata: dataset.settings.metadata.map(({ name, settings, title, visible_for_annotators }) => ({ name, title, settings, visible_for_annotators })),
  vectors: dataset.settings.vectors.map(({ dimensions, name, title }) => ({ name, title, dimensions }))
})

