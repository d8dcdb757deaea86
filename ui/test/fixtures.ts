/** Questions and records for UI tests, decoded from wire JSON by the domain schemas (as the client would). */
import { Schema } from "effect"
import { Question } from "../../src/domain/Question.js"
import { DatasetRecord } from "../../src/domain/Record.js"
import { Dataset } from "../../src/domain/Dataset.js"
import { Field } from "../../src/domain/Field.js"

let counter = 0
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`
const DATASET = "10000000-0000-4000-8000-000000000000"
const AT = "2026-01-01T00:00:00"

export const question = (name: string, settings: unknown, extra: { required?: boolean; id?: string } = {}): Question =>
  Schema.decodeUnknownSync(Question)({
    id: extra.id ?? uuid(),
    name,
    title: name[0]?.toUpperCase() + name.slice(1),
    description: null,
    required: extra.required ?? false,
    settings,
    dataset_id: DATASET,
    inserted_at: AT,
    updated_at: AT
  })

export const options = (...values: ReadonlyArray<string>) => values.map((value) => ({ value, text: value.toUpperCase() }))

export const label = (name = "sentiment", required = false) =>
  question(name, { type: "label_selection", options: options("positive", "negative", "neutral") }, { required })
export const multi = () => question("topics", { type: "multi_label_selection", options: options("a", "b", "c") })
export const rating = () => question("quality", { type: "rating", options: [1, 2, 3, 4, 5].map((value) => ({ value })) })
export const ranking = () => question("order", { type: "ranking", options: options("x", "y", "z") })
export const text = () => question("comment", { type: "text" })
export const span = (allowOverlapping = false) =>
  question("entities", {
    type: "span",
    field: "text",
    options: options("ORG", "LOC", "PER"),
    allow_overlapping: allowOverlapping
  })

export const record = (fields: Record<string, unknown>, extra: Record<string, unknown> = {}): DatasetRecord =>
  Schema.decodeUnknownSync(DatasetRecord)({
    id: uuid(),
    status: "pending",
    fields,
    metadata: null,
    external_id: null,
    dataset_id: DATASET,
    inserted_at: AT,
    updated_at: AT,
    ...extra
  })

export const suggestion = (questionId: string, value: unknown, score: number | Array<number> | null = 0.9) => ({
  id: uuid(),
  question_id: questionId,
  type: "model",
  value,
  agent: "test-model",
  score,
  inserted_at: AT,
  updated_at: AT
})

export const dataset = () =>
  Schema.decodeUnknownSync(Dataset)({
    id: DATASET,
    name: "reviews",
    guidelines: null,
    allow_extra_metadata: true,
    status: "ready",
    distribution: { strategy: "overlap", min_submitted: 1 },
    metadata: null,
    workspace_id: "20000000-0000-4000-8000-000000000000",
    last_activity_at: AT,
    inserted_at: AT,
    updated_at: AT
  })

export const field = (name: string, settings: unknown): Field =>
  Schema.decodeUnknownSync(Field)({
    id: uuid(),
    name,
    title: name,
    required: true,
    settings,
    dataset_id: DATASET,
    inserted_at: AT,
    updated_at: AT
  })
