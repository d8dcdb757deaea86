import { Schema } from "effect"
import { FreeText, inputOf, SettingName, Title } from "./Common.js"
import { DatasetId, QuestionId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** Option values must be unique within a question; the message names the repeated one. */
const uniqueValues = <A extends { readonly value: unknown }>(options: ReadonlyArray<A>) => {
  const seen = new Set<unknown>()
  for (const option of options) {
    if (seen.has(option.value)) return `option values must be unique, found ${JSON.stringify(option.value)} more than once`
    seen.add(option.value)
  }
  return true
}

export const LabelOption = Schema.Struct({
  value: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  text: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)),
  description: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000))), {
    default: () => null
  })
})
export type LabelOption = typeof LabelOption.Type

/**
 * The upper bound here is a sanity limit; the configured maxima (`GLOSS_LABEL_SELECTION_OPTIONS_MAX_ITEMS`,
 * `GLOSS_SPAN_OPTIONS_MAX_ITEMS`) are checked by the service, which knows them.
 */
const labelOptions = (min: number, max = 100_000) =>
  Schema.Array(LabelOption).pipe(Schema.minItems(min), Schema.maxItems(max), Schema.filter(uniqueValues))

const RatingOption = Schema.Struct({ value: Schema.Int.pipe(Schema.between(0, 10)) })

const VisibleOptions = Schema.optionalWith(Schema.NullOr(Schema.Int.pipe(Schema.greaterThanOrEqualTo(3))), {
  default: () => null
})

const visibleWithinOptions = <
  S extends { readonly options: ReadonlyArray<unknown>; readonly visible_options: number | null }
>(settings: S) =>
  settings.visible_options === null || settings.visible_options <= settings.options.length ||
  `visible_options (${settings.visible_options}) must not exceed the number of options (${settings.options.length})`

const TextQuestion = Schema.Struct({
  type: Schema.Literal("text"),
  use_markdown: Schema.optionalWith(Schema.Boolean, { default: () => false })
})
const RatingQuestion = Schema.Struct({
  type: Schema.Literal("rating"),
  options: Schema.Array(RatingOption).pipe(Schema.minItems(2), Schema.maxItems(11), Schema.filter(uniqueValues))
})
const LabelQuestion = Schema.Struct({
  type: Schema.Literal("label_selection"),
  options: labelOptions(2),
  visible_options: VisibleOptions
}).pipe(Schema.filter(visibleWithinOptions))
const MultiLabelQuestion = Schema.Struct({
  type: Schema.Literal("multi_label_selection"),
  options: labelOptions(2),
  visible_options: VisibleOptions,
  options_order: Schema.optionalWith(Schema.Literal("natural", "suggestion"), { default: () => "natural" as const })
}).pipe(Schema.filter(visibleWithinOptions))
const RankingQuestion = Schema.Struct({
  type: Schema.Literal("ranking"),
  options: labelOptions(2, 50)
})
const SpanQuestion = Schema.Struct({
  type: Schema.Literal("span"),
  /** The name of the text field whose text is annotated. */
  field: SettingName,
  options: labelOptions(1),
  visible_options: VisibleOptions,
  allow_overlapping: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  allow_character_annotation: Schema.optionalWith(Schema.Literal(true), { default: () => true as const })
}).pipe(Schema.filter(visibleWithinOptions))

export const QuestionSettings = Schema.Union(
  TextQuestion,
  RatingQuestion,
  LabelQuestion,
  MultiLabelQuestion,
  RankingQuestion,
  SpanQuestion
).annotations({ identifier: "QuestionSettings" })
export type QuestionSettings = typeof QuestionSettings.Type
export type QuestionType = QuestionSettings["type"]

export const Question = Schema.Struct({
  id: QuestionId,
  name: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  required: Schema.Boolean,
  settings: QuestionSettings,
  dataset_id: DatasetId,
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Question" })
export type Question = typeof Question.Type

const Description = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000), FreeText)

export const NewQuestion = Schema.Struct({
  id: Schema.optional(Schema.NullOr(QuestionId)),
  name: SettingName,
  title: Title,
  description: Schema.optional(Schema.NullOr(Description)),
  required: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  settings: QuestionSettings
})
export type NewQuestion = typeof NewQuestion.Type

export const QuestionCreate = inputOf(NewQuestion).annotations({ identifier: "QuestionCreate" })
export type QuestionCreate = typeof QuestionCreate.Type

/** What may change after creation: per type, and never the type itself (checked by the service). */
export const QuestionSettingsUpdate = Schema.Union(
  Schema.Struct({ type: Schema.Literal("text"), use_markdown: Schema.optional(Schema.Boolean) }),
  Schema.Struct({ type: Schema.Literal("rating") }),
  Schema.Struct({ type: Schema.Literal("ranking") }),
  Schema.Struct({
    type: Schema.Literal("label_selection", "multi_label_selection", "span"),
    options: Schema.optional(labelOptions(1)),
    visible_options: Schema.optional(Schema.NullOr(Schema.Int.pipe(Schema.greaterThanOrEqualTo(3)))),
    options_order: Schema.optional(Schema.Literal("natural", "suggestion")),
    allow_overlapping: Schema.optional(Schema.Boolean)
  })
).annotations({ identifier: "QuestionSettingsUpdate" })
export type QuestionSettingsUpdate = typeof QuestionSettingsUpdate.Type

export const QuestionUpdate = Schema.Struct({
  title: Schema.optional(Title),
  description: Schema.optional(Schema.NullOr(Description)),
  settings: Schema.optional(QuestionSettingsUpdate)
}).annotations({ identifier: "QuestionUpdate" })
export type QuestionUpdate = typeof QuestionUpdate.Type
