/** A dataset with every kind of field, question, metadata property and vector settings, and records for it. */
import { DatasetId, QuestionId, RecordId, UserId, VectorSettingsId } from "../../../src/domain/Ids.js"
import type { IndexedRecord, IndexSchema, ResolvedScope, SearchQuery } from "../../../src/services/search/Query.js"

export const DATASET = DatasetId.make("11111111-1111-4111-8111-111111111111")
export const INDEX = `gloss.${DATASET}`
export const USER = UserId.make("22222222-2222-4222-8222-222222222222")
export const OTHER_USER = UserId.make("33333333-3333-4333-8333-333333333333")
export const VECTOR = VectorSettingsId.make("44444444-4444-4444-8444-444444444444")
export const LATER_VECTOR = VectorSettingsId.make("45454545-4545-4545-8545-454545454545")
export const RECORD = RecordId.make("55555555-5555-4555-8555-555555555555")

const question = (n: number) => QuestionId.make(`6666666${n}-6666-4666-8666-666666666666`)
export const Q = {
  comment: question(1),
  rating: question(2),
  label: question(3),
  topics: question(4),
  ranking: question(5),
  entities: question(6)
}

const options = (...values: ReadonlyArray<string>) => values.map((value) => ({ value, text: value, description: null }))

export const schema: IndexSchema = {
  datasetId: DATASET,
  fields: [
    { name: "text", settings: { type: "text", use_markdown: false } },
    { name: "picture", settings: { type: "image" } },
    { name: "chat", settings: { type: "chat", use_markdown: true } },
    { name: "widget", settings: { type: "custom", template: "<p>{{record.fields.widget.x}}</p>", advanced_mode: false } }
  ],
  questions: [
    { id: Q.comment, name: "comment", settings: { type: "text", use_markdown: false } },
    { id: Q.rating, name: "rating", settings: { type: "rating", options: [{ value: 1 }, { value: 2 }, { value: 3 }] } },
    {
      id: Q.label,
      name: "status",
      settings: { type: "label_selection", options: options("good", "bad"), visible_options: null }
    },
    {
      id: Q.topics,
      name: "topics",
      settings: {
        type: "multi_label_selection",
        options: options("a", "b", "c"),
        visible_options: null,
        options_order: "natural"
      }
    },
    { id: Q.ranking, name: "ranking", settings: { type: "ranking", options: options("x", "y") } },
    {
      id: Q.entities,
      name: "entities",
      settings: {
        type: "span",
        field: "text",
        options: options("PER"),
        visible_options: null,
        allow_overlapping: false,
        allow_character_annotation: true
      }
    }
  ],
  metadataProperties: [
    { name: "source", settings: { type: "terms", values: ["web", "book", "news"] } },
    { name: "tags", settings: { type: "terms", values: null } },
    { name: "length", settings: { type: "integer", min: 0, max: null } },
    { name: "quality", settings: { type: "float", min: null, max: null } }
  ],
  vectorSettings: [{ id: VECTOR, name: "embedding", dimensions: 3 }]
}

/** The same dataset after a metadata property and vector settings were added. */
export const grownSchema: IndexSchema = {
  ...schema,
  metadataProperties: [...schema.metadataProperties, { name: "year", settings: { type: "integer", min: null, max: null } }],
  vectorSettings: [...schema.vectorSettings, { id: LATER_VECTOR, name: "later", dimensions: 2 }]
}

export const record = (id: string, overrides: Partial<IndexedRecord> = {}): IndexedRecord => ({
  id: RecordId.make(id),
  external_id: null,
  status: "pending",
  inserted_at: new Date("2026-01-02T03:04:05.678Z"),
  updated_at: new Date("2026-01-02T03:04:05.678Z"),
  fields: { text: "hello" },
  metadata: null,
  responses: [],
  suggestions: [],
  vectors: {},
  ...overrides
})

/** `n` records with distinct, valid UUIDs. */
export const records = (n: number): ReadonlyArray<IndexedRecord> =>
  Array.from({ length: n }, (_, i) => record(`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`))

export const query = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  filters: [],
  sort: [],
  offset: 0,
  limit: 50,
  ...overrides
})

export const scopes = {
  status: { kind: "record", property: "status" },
  insertedAt: { kind: "record", property: "inserted_at" },
  source: { kind: "metadata", name: "source", type: "terms" },
  length: { kind: "metadata", name: "length", type: "integer" },
  suggestedLabel: { kind: "suggestion", questionId: Q.label, question: "status", questionType: "label_selection", property: "value" },
  suggestedComment: { kind: "suggestion", questionId: Q.comment, question: "comment", questionType: "text", property: "value" },
  suggestionAgent: { kind: "suggestion", questionId: Q.label, question: "status", questionType: "label_selection", property: "agent" },
  suggestionScore: { kind: "suggestion", questionId: Q.rating, question: "rating", questionType: "rating", property: "score" },
  suggestionType: { kind: "suggestion", questionId: Q.label, question: "status", questionType: "label_selection", property: "type" },
  responseStatus: { kind: "responseStatus" },
  rating: { kind: "responseValue", question: "rating", questionType: "rating" },
  label: { kind: "responseValue", question: "status", questionType: "label_selection" },
  comment: { kind: "responseValue", question: "comment", questionType: "text" }
} satisfies Record<string, ResolvedScope>
