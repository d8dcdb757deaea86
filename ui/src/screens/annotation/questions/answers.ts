/**
 * Form values ↔ the contract's response values, the checks made before a submit, and the
 * mapping of the server's 422 messages to the question they name.
 */
import type { Question } from "../../../../../src/domain/Question.js"
import type { DatasetRecord } from "../../../../../src/domain/Record.js"
import type { Response, ResponseValues } from "../../../../../src/domain/Response.js"
import type { Suggestion } from "../../../../../src/domain/Suggestion.js"
import { overlapping, type Span } from "../span/offsets.js"

export interface RankItem {
  readonly value: string
  readonly rank: number | null
}

/** Answers by question name, in the contract's value shapes. Absent = unanswered. */
export type FormValues = Readonly<Record<string, unknown>>

export const suggestionFor = (record: DatasetRecord, question: Question): Suggestion | undefined =>
  record.suggestions?.find((s) => s.question_id === question.id)

/** What the form starts with: the user's saved answer, else the suggestion (accepting it is just submitting). */
export const initialValues = (
  questions: ReadonlyArray<Question>,
  record: DatasetRecord,
  response: Response | undefined
): FormValues => {
  const values: Record<string, unknown> = {}
  for (const question of questions) {
    const saved = response?.values?.[question.name]
    if (saved !== undefined) values[question.name] = saved.value
    else if (response === undefined || response.status !== "submitted") {
      const suggestion = suggestionFor(record, question)
      if (suggestion !== undefined) values[question.name] = suggestion.value
    }
  }
  return values
}

export const isAnswered = (question: Question, value: unknown): boolean => {
  if (value === undefined || value === null) return false
  switch (question.settings.type) {
    case "text":
      return typeof value === "string" && value.trim() !== ""
    case "multi_label_selection":
    case "span":
      return Array.isArray(value) && value.length > 0
    case "ranking":
      return Array.isArray(value) && value.some((item: RankItem) => item.rank !== null)
    default:
      return true
  }
}

/** The answered questions as `values`, or null when none is answered. */
export const toResponseValues = (questions: ReadonlyArray<Question>, values: FormValues): ResponseValues | null => {
  const out: Record<string, { value: unknown }> = {}
  for (const question of questions) {
    const value = values[question.name]
    if (!isAnswered(question, value)) continue
    out[question.name] = {
      value: question.settings.type === "ranking"
        ? (value as ReadonlyArray<RankItem>).filter((item) => item.rank !== null)
        : value
    }
  }
  return Object.keys(out).length === 0 ? null : out
}

/** What would make the server refuse a submit, by question name. */
export const submitErrors = (questions: ReadonlyArray<Question>, values: FormValues): Record<string, string> => {
  const errors: Record<string, string> = {}
  for (const question of questions) {
    const value = values[question.name]
    const answered = isAnswered(question, value)
    if (question.required && !answered) {
      errors[question.name] = "This question is required."
      continue
    }
    if (!answered) continue
    const settings = question.settings
    if (settings.type === "ranking") {
      const ranked = (value as ReadonlyArray<RankItem>).filter((item) => item.rank !== null)
      if (ranked.length !== settings.options.length) errors[question.name] = "Give every option a rank."
    }
    if (settings.type === "span" && !settings.allow_overlapping && overlapping(value as ReadonlyArray<Span>).length > 0) {
      errors[question.name] = "Spans must not overlap in this question."
    }
  }
  return errors
}

/** The question a server message is about: `… question 'name' …` or `… name='name'`. */
export const questionOfMessage = (questions: ReadonlyArray<Question>, message: string): string | undefined => {
  const found = /question '([^']+)'/.exec(message) ?? /question with name='([^']+)'/.exec(message)
  const name = found?.[1]
  return questions.some((q) => q.name === name) ? name : undefined
}
