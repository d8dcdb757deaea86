/**
 * What the panel offers for a dataset: the sort keys and filters the contract and both engines support
 * (as in Argilla, answers are indexed for rating, label and multi-label questions only; no scope reaches a
 * field's text, so records sort by their times, metadata, suggestions and answers), with readable names.
 */
import type { MetadataProperty } from "../../../../../src/domain/MetadataProperty.js"
import type { Question } from "../../../../../src/domain/Question.js"
import type { SortKey, TermValue } from "../../../data/search.js"
import { sortKeyId } from "../../../data/search.js"

export interface SortOption {
  readonly key: SortKey
  readonly label: string
  readonly group: string
}

/** Questions whose answers and suggestion values can be filtered: their options, as values and labels. */
export const filterableValues = (question: Question): ReadonlyArray<{ readonly value: TermValue; readonly text: string }> => {
  const settings = question.settings
  switch (settings.type) {
    case "label_selection":
    case "multi_label_selection":
      return settings.options.map((o) => ({ value: o.value, text: o.text }))
    case "rating":
      return settings.options.map((o) => ({ value: o.value, text: String(o.value) }))
    default:
      return []
  }
}

/** A single value per answer: what an answer or a suggestion can be sorted by. */
const sortsByValue = (question: Question) =>
  question.settings.type === "rating" || question.settings.type === "label_selection"

export const sortOptions = (
  properties: ReadonlyArray<MetadataProperty>,
  questions: ReadonlyArray<Question>
): ReadonlyArray<SortOption> => [
  { key: { kind: "record", property: "inserted_at" }, label: "Inserted time", group: "Record" },
  { key: { kind: "record", property: "updated_at" }, label: "Updated time", group: "Record" },
  { key: { kind: "record", property: "external_id" }, label: "External id", group: "Record" },
  { key: { kind: "record", property: "status" }, label: "Record status (pending, completed)", group: "Record" },
  ...properties.map((p) => ({ key: { kind: "metadata" as const, name: p.name }, label: p.title, group: "Metadata" })),
  ...questions.flatMap((q) => [
    { key: { kind: "suggestion" as const, question: q.name, property: "score" as const }, label: `${q.title}: score`, group: "Suggestions" },
    ...(sortsByValue(q)
      ? [{ key: { kind: "suggestion" as const, question: q.name, property: "value" as const }, label: `${q.title}: value`, group: "Suggestions" }]
      : [])
  ]),
  ...questions.filter(sortsByValue).map((q) => ({ key: { kind: "response" as const, question: q.name }, label: q.title, group: "My responses" }))
]

/** A readable name for a sort key, from the offered options (the key's id when the dataset no longer has it). */
export const sortLabel = (options: ReadonlyArray<SortOption>, key: SortKey): string => {
  const id = sortKeyId(key)
  const option = options.find((o) => sortKeyId(o.key) === id)
  return option === undefined ? id : option.group === "Record" ? option.label : `${option.group}: ${option.label}`
}
