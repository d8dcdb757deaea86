import { Either } from "effect"
import { type RecordId, SuggestionId } from "../../domain/Ids.js"
import type { SuggestionCreate } from "../../domain/Suggestion.js"
import type { SuggestionRow } from "./rows.js"
import type { QuestionSpec, ValidationContext } from "./validation/context.js"
import { validateSuggestion } from "./validation/suggestions.js"
import { newId } from "../ids.js"

/** The question a suggestion is for: by id, else by name (the Python SDK may send only the name). */
export const questionOf = (context: ValidationContext, suggestion: SuggestionCreate): Either.Either<QuestionSpec, string> => {
  const question = suggestion.question_id != null
    ? context.questions.find((q) => q.id === suggestion.question_id)
    : suggestion.question_name != null
    ? context.questions.find((q) => q.name === suggestion.question_name)
    : undefined
  if (question !== undefined) return Either.right(question)
  const which = suggestion.question_id ?? suggestion.question_name
  return Either.left(
    which == null
      ? "a suggestion needs a question_id or a question_name"
      : `question \`${which}\` is not a question of dataset with id \`${context.datasetId}\``
  )
}

/** Checked rows for a record's suggestions: at most one per question, each value and score valid for it. */
export const suggestionRows = (
  context: ValidationContext,
  recordId: RecordId,
  recordFields: Readonly<Record<string, unknown>>,
  suggestions: ReadonlyArray<SuggestionCreate>,
  at: Date
): Either.Either<ReadonlyArray<SuggestionRow>, string> => {
  const rows: Array<SuggestionRow> = []
  for (const suggestion of suggestions) {
    const question = questionOf(context, suggestion)
    if (Either.isLeft(question)) return Either.left(question.left)
    if (rows.some((row) => row.question_id === question.right.id)) {
      return Either.left(`there is more than one suggestion for question \`${question.right.name}\``)
    }
    const valid = validateSuggestion(question.right, suggestion.value, suggestion.score ?? null, recordFields)
    if (Either.isLeft(valid)) return Either.left(valid.left)
    rows.push({
      id: SuggestionId.make(newId()),
      record_id: recordId,
      question_id: question.right.id,
      value: suggestion.value,
      score: suggestion.score ?? null,
      agent: suggestion.agent ?? null,
      type: suggestion.type ?? null,
      inserted_at: at,
      updated_at: at
    })
  }
  return Either.right(rows)
}
