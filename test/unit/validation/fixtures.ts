/** Datasets and assertions shared by the validation tests. */
import { expect } from "@effect/vitest"
import { Either } from "effect"
import { DatasetId, QuestionId } from "../../../src/domain/Ids.js"
import type { QuestionSettings } from "../../../src/domain/Question.js"
import type { Check } from "../../../src/services/records/validation/common.js"
import type { ChatLimits, QuestionSpec, ValidationContext } from "../../../src/services/records/validation/context.js"

export const datasetId = DatasetId.make("6c4e1a3b-2f0d-4e8a-9b7c-1d2e3f4a5b6c")

/** The configuration defaults (GLOSS_MIN/MAX_MESSAGE_LENGTH 1/20000, GLOSS_MIN/MAX_ROLE_LENGTH 1/20). */
export const defaultLimits: ChatLimits = { minMessageLength: 1, maxMessageLength: 20_000, minRoleLength: 1, maxRoleLength: 20 }

export const context = (overrides: Partial<ValidationContext> = {}): ValidationContext => ({
  datasetId,
  allowExtraMetadata: false,
  fields: [],
  questions: [],
  metadataProperties: [],
  vectorSettings: [],
  limits: defaultLimits,
  ...overrides
})

let nextQuestion = 0
export const question = (name: string, settings: QuestionSettings, required = false): QuestionSpec => ({
  id: QuestionId.make(`00000000-0000-4000-8000-${String(++nextQuestion).padStart(12, "0")}`),
  name,
  required,
  settings
})

export const labels = (...values: ReadonlyArray<string>) => values.map((value) => ({ value, text: value, description: null }))

export const textQuestion = (name = "comment", required = false) =>
  question(name, { type: "text", use_markdown: false }, required)
export const ratingQuestion = (name = "quality", required = false) =>
  question(name, { type: "rating", options: [1, 2, 3].map((value) => ({ value })) }, required)
export const labelQuestion = (name = "sentiment", required = false) =>
  question(name, { type: "label_selection", options: labels("positive", "negative"), visible_options: null }, required)
export const multiLabelQuestion = (name = "topics", required = false) =>
  question(name, {
    type: "multi_label_selection",
    options: labels("sports", "politics", "science"),
    visible_options: null,
    options_order: "natural"
  }, required)
export const rankingQuestion = (name = "preference", required = false) =>
  question(name, { type: "ranking", options: labels("a", "b", "c") }, required)
export const spanQuestion = (name = "entities", allow_overlapping = false, field = "text") =>
  question(name, {
    type: "span",
    field,
    options: labels("PER", "ORG"),
    visible_options: null,
    allow_overlapping,
    allow_character_annotation: true
  })

export const messageOf = (result: Check): string => Either.isLeft(result) ? result.left : "<valid>"

export const expectValid = (result: Check) => expect(messageOf(result)).toBe("<valid>")

/** Invalid, with a message that mentions every given part (the offending name, key or value). */
export const expectInvalid = (result: Check, ...mentions: ReadonlyArray<string>) => {
  expect(Either.isLeft(result), "expected the value to be refused").toBe(true)
  for (const mention of mentions) expect(messageOf(result)).toContain(mention)
}
