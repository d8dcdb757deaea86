/**
 * Which questions a training format can be made from (the server's rule, `src/transfer/training.ts`, read from
 * `trainingQuestionTypes`), free of I/O, so the dialog offers only those and says why a format is out of reach.
 */
import { type ExportFormat, isTrainingFormat, trainingQuestionTypes } from "../../../../src/domain/Export.js"
import type { Field } from "../../../../src/domain/Field.js"
import type { Question } from "../../../../src/domain/Question.js"

export interface Choice {
  readonly name: string
  readonly title: string
}

/**
 * The questions `format` can use, or undefined when it takes none (the file formats; `training-jsonl`, where one is
 * optional, lists every question). A label question makes DPO pairs only when two of its options name text fields.
 */
export const questionsFor = (
  format: ExportFormat,
  questions: ReadonlyArray<Question>,
  fields: ReadonlyArray<Field>
): ReadonlyArray<Choice> | undefined => {
  if (!isTrainingFormat(format)) return undefined
  const types: ReadonlyArray<string> | null = trainingQuestionTypes[format]
  const textFields = new Set(fields.filter((f) => f.settings.type === "text").map((f) => f.name))
  return questions
    .filter((q) => types === null || types.includes(q.settings.type))
    .filter((q) =>
      format !== "dpo" || q.settings.type !== "label_selection" ||
      q.settings.options.filter((o) => textFields.has(o.value)).length >= 2
    )
    .map((q) => ({ name: q.name, title: q.title }))
}

/** Why `format` cannot be chosen for this dataset, or undefined when it can. */
export const unavailableReason = (
  format: ExportFormat,
  questions: ReadonlyArray<Question>,
  fields: ReadonlyArray<Field>
): string | undefined => {
  const choices = questionsFor(format, questions, fields)
  if (choices === undefined || choices.length > 0 || format === "training-jsonl") return undefined
  return format === "dpo"
    ? "needs a ranking question, or a label question whose options name text fields: this dataset has none"
    : "needs a span question: this dataset has none"
}
