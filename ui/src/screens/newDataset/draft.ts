/**
 * A dataset being created in the UI: its form state, the payloads each item becomes (as the contract's create
 * bodies), and the problems found before anything is sent. Pure, so it is tested in Node.
 */
import type { DatasetCreate } from "../../../../src/domain/Dataset.js"
import type { FieldCreate } from "../../../../src/domain/Field.js"
import type { MetadataPropertyCreate } from "../../../../src/domain/MetadataProperty.js"
import type { QuestionCreate } from "../../../../src/domain/Question.js"
import type { VectorSettingsCreate } from "../../../../src/domain/VectorSettings.js"

export type FieldType = "text" | "image" | "chat" | "custom"
export type QuestionType = "label_selection" | "multi_label_selection" | "rating" | "text" | "ranking" | "span"
export type MetadataType = "terms" | "integer" | "float"

export interface FieldDraft {
  readonly key: string
  readonly name: string
  readonly title: string
  readonly type: FieldType
  readonly required: boolean
  readonly markdown: boolean
  readonly template: string
}

export interface QuestionDraft {
  readonly key: string
  readonly name: string
  readonly title: string
  readonly description: string
  readonly type: QuestionType
  readonly required: boolean
  /** Label, multi-label, ranking and span options: one per line. */
  readonly labels: string
  /** Rating values: integers 0–10, separated by commas or spaces. */
  readonly ratings: string
  /** Span: the text field it marks. */
  readonly field: string
  readonly markdown: boolean
}

export interface MetadataDraft {
  readonly key: string
  readonly name: string
  readonly title: string
  readonly type: MetadataType
  readonly visible: boolean
}

export interface VectorDraft {
  readonly key: string
  readonly name: string
  readonly title: string
  readonly dimensions: string
}

export interface Draft {
  readonly name: string
  readonly workspaceId: string
  readonly guidelines: string
  readonly minSubmitted: string
  readonly fields: ReadonlyArray<FieldDraft>
  readonly questions: ReadonlyArray<QuestionDraft>
  readonly metadata: ReadonlyArray<MetadataDraft>
  readonly vectors: ReadonlyArray<VectorDraft>
}

let counter = 0
export const newKey = (prefix: string) => `${prefix}-${++counter}`

export const newField = (name = "", type: FieldType = "text"): FieldDraft =>
  ({ key: newKey("field"), name, title: titleOf(name), type, required: true, markdown: false, template: "" })
export const newQuestion = (name = "", type: QuestionType = "label_selection"): QuestionDraft => ({
  key: newKey("question"),
  name,
  title: titleOf(name),
  description: "",
  type,
  required: true,
  labels: "",
  ratings: "1, 2, 3, 4, 5",
  field: "",
  markdown: false
})
export const newMetadata = (): MetadataDraft => ({ key: newKey("metadata"), name: "", title: "", type: "terms", visible: true })
export const newVector = (): VectorDraft => ({ key: newKey("vector"), name: "", title: "", dimensions: "" })

/** `sentiment_label` → `Sentiment label`: a title to start from. */
export const titleOf = (name: string) => {
  const words = name.replace(/[_-]+/g, " ").trim()
  return words === "" ? "" : words[0]?.toUpperCase() + words.slice(1)
}

const NAME = /^[a-z0-9_-]*[a-z0-9][a-z0-9_-]*$/

/** The options written one per line: each line is both the value and the text shown. */
export const parseLabels = (text: string) => {
  const lines = text.split("\n").map((line) => line.trim()).filter((line) => line !== "")
  return lines.map((line) => ({ value: line, text: line }))
}

export const parseRatings = (text: string): Array<number> =>
  text.split(/[\s,;]+/).filter((part) => part !== "").map(Number)

const nameProblems = (name: string, what: string, others: ReadonlyArray<string>) => {
  const problems: Array<string> = []
  if (name === "") problems.push(`Give the ${what} a name.`)
  else if (!NAME.test(name) || name.length > 200) problems.push("Names use lowercase letters, digits, _ and - only.")
  else if (others.includes(name)) problems.push(`Another ${what} is named “${name}”.`)
  return problems
}

const titleProblems = (title: string) => (title.trim() === "" ? ["Give it a title."] : title.length > 500 ? ["Titles have at most 500 characters."] : [])

const othersNamed = <A extends { readonly key: string; readonly name: string }>(items: ReadonlyArray<A>, item: A) =>
  items.filter((other) => other.key !== item.key).map((other) => other.name)

/** What keeps each part of the draft from being sent, by item key (and `dataset` for the dataset itself). */
export const draftProblems = (draft: Draft): Record<string, Array<string>> => {
  const problems: Record<string, Array<string>> = {}
  const add = (key: string, list: ReadonlyArray<string>) => {
    if (list.length > 0) problems[key] = [...(problems[key] ?? []), ...list]
  }
  const min = Number(draft.minSubmitted)
  add("dataset", [
    ...(draft.name.trim() === "" ? ["Give the dataset a name."] : []),
    ...(draft.workspaceId === "" ? ["Pick a workspace."] : []),
    ...(Number.isInteger(min) && min >= 1 ? [] : ["Responses per record is a whole number, 1 or more."])
  ])
  if (draft.fields.length === 0) add("fields", ["Add at least one field."])
  if (draft.questions.length === 0) add("questions", ["Add at least one question."])
  for (const field of draft.fields) {
    add(field.key, [...nameProblems(field.name, "field", othersNamed(draft.fields, field)), ...titleProblems(field.title)])
    if (field.type === "custom" && field.template.trim() === "") add(field.key, ["A custom field needs a template."])
  }
  const textFields = draft.fields.filter((f) => f.type === "text").map((f) => f.name)
  for (const question of draft.questions) {
    add(question.key, [...nameProblems(question.name, "question", othersNamed(draft.questions, question)), ...titleProblems(question.title)])
    const labels = parseLabels(question.labels)
    const values = labels.map((l) => l.value)
    const labelled = question.type === "label_selection" || question.type === "multi_label_selection" || question.type === "ranking"
    if (labelled && labels.length < 2) add(question.key, ["Write at least two options, one per line."])
    if (question.type === "span" && labels.length < 1) add(question.key, ["Write at least one label, one per line."])
    if (new Set(values).size !== values.length) add(question.key, ["Each option must be different."])
    if (question.type === "ranking" && labels.length > 50) add(question.key, ["A ranking has at most 50 options."])
    if (question.type === "rating") {
      const ratings = parseRatings(question.ratings)
      if (ratings.length < 2 || ratings.length > 11 || ratings.some((r) => !Number.isInteger(r) || r < 0 || r > 10) ||
        new Set(ratings).size !== ratings.length) {
        add(question.key, ["Ratings are 2 to 11 different whole numbers from 0 to 10."])
      }
    }
    if (question.type === "span") {
      if (!textFields.includes(question.field)) add(question.key, ["Pick the text field the spans are marked in."])
      else if (draft.questions.some((q) => q.key !== question.key && q.type === "span" && q.field === question.field)) {
        add(question.key, ["Another span question already marks this field."])
      }
    }
  }
  for (const property of draft.metadata) {
    add(property.key, [...nameProblems(property.name, "metadata property", othersNamed(draft.metadata, property)), ...titleProblems(property.title)])
  }
  for (const vector of draft.vectors) {
    const dimensions = Number(vector.dimensions)
    add(vector.key, [
      ...nameProblems(vector.name, "vector", othersNamed(draft.vectors, vector)),
      ...titleProblems(vector.title),
      ...(Number.isInteger(dimensions) && dimensions >= 1 && dimensions <= 65_536 ? [] : ["Dimensions are a whole number from 1 to 65 536."])
    ])
  }
  return problems
}

export const datasetPayload = (draft: Draft, workspaceId: DatasetCreate["workspace_id"]): DatasetCreate => ({
  name: draft.name.trim(),
  workspace_id: workspaceId,
  ...(draft.guidelines.trim() === "" ? {} : { guidelines: draft.guidelines }),
  distribution: { strategy: "overlap", min_submitted: Number(draft.minSubmitted) }
})

export const fieldPayload = (field: FieldDraft): FieldCreate => {
  const base = { name: field.name, title: field.title.trim(), required: field.required }
  switch (field.type) {
    case "text":
      return { ...base, settings: { type: "text", use_markdown: field.markdown } }
    case "chat":
      return { ...base, settings: { type: "chat", use_markdown: field.markdown } }
    case "image":
      return { ...base, settings: { type: "image" } }
    case "custom":
      return { ...base, settings: { type: "custom", template: field.template } }
  }
}

export const questionPayload = (question: QuestionDraft): QuestionCreate => {
  const base = {
    name: question.name,
    title: question.title.trim(),
    required: question.required,
    ...(question.description.trim() === "" ? {} : { description: question.description })
  }
  const options = parseLabels(question.labels)
  switch (question.type) {
    case "text":
      return { ...base, settings: { type: "text", use_markdown: question.markdown } }
    case "rating":
      return { ...base, settings: { type: "rating", options: parseRatings(question.ratings).map((value) => ({ value })) } }
    case "label_selection":
      return { ...base, settings: { type: "label_selection", options } }
    case "multi_label_selection":
      return { ...base, settings: { type: "multi_label_selection", options } }
    case "ranking":
      return { ...base, settings: { type: "ranking", options } }
    case "span":
      return { ...base, settings: { type: "span", field: question.field, options } }
  }
}

export const metadataPayload = (property: MetadataDraft): MetadataPropertyCreate => ({
  name: property.name,
  title: property.title.trim(),
  visible_for_annotators: property.visible,
  settings: property.type === "terms" ? { type: "terms" } : { type: property.type }
})

export const vectorPayload = (vector: VectorDraft): VectorSettingsCreate => ({
  name: vector.name,
  title: vector.title.trim(),
  dimensions: Number(vector.dimensions)
})
