/** One answer (a response value or a suggestion value) against its question's type and options. */
import { type Check, fail, firstDuplicate, isArray, isInteger, isStringArray, ok, show, showList } from "./common.js"
import type { AnswerMode, QuestionSpec } from "./context.js"
import { validateRanking } from "./ranking.js"
import { validateSpans } from "./spans.js"

const validateMultiLabel = (question: string, labels: ReadonlyArray<string>, value: unknown): Check => {
  const expected = `multi label selection question '${question}' expects a non-empty list of labels`
  if (!isArray(value) || value.length === 0 || !isStringArray(value)) return fail(`${expected}, found ${show(value)}`)
  const duplicate = firstDuplicate(value)
  if (duplicate !== undefined) {
    return fail(`multi label selection question '${question}' expects unique labels, found ${show(duplicate.value)} more than once`)
  }
  const invalid = value.filter((label) => !labels.includes(label))
  return invalid.length === 0
    ? ok
    : fail(`${showList(invalid)} are not valid labels for multi label selection question '${question}', valid labels are: ${showList(labels)}`)
}

/**
 * `mode` matters only for ranking: a submitted ranking must place every option; drafts and suggestions may not.
 * `recordFields` matters only for spans, whose offsets refer to a text field of the record.
 */
export const validateAnswer = (
  question: QuestionSpec,
  value: unknown,
  recordFields: Readonly<Record<string, unknown>>,
  mode: AnswerMode
): Check => {
  const { name, settings } = question
  switch (settings.type) {
    case "text":
      return typeof value === "string" ? ok : fail(`text question '${name}' expects a text value, found ${show(value)}`)
    case "rating": {
      const ratings = settings.options.map((option) => option.value)
      if (!isInteger(value)) return fail(`rating question '${name}' expects an integer value, found ${show(value)}`)
      return ratings.includes(value)
        ? ok
        : fail(`${show(value)} is not a valid rating for rating question '${name}', valid ratings are: ${showList(ratings)}`)
    }
    case "label_selection": {
      const labels = settings.options.map((option) => option.value)
      if (typeof value !== "string") return fail(`label selection question '${name}' expects a label, found ${show(value)}`)
      return labels.includes(value)
        ? ok
        : fail(`${show(value)} is not a valid label for label selection question '${name}', valid labels are: ${showList(labels)}`)
    }
    case "multi_label_selection":
      return validateMultiLabel(name, settings.options.map((option) => option.value), value)
    case "ranking":
      return validateRanking(name, settings.options, value, mode)
    case "span":
      return validateSpans(name, settings, value, recordFields)
  }
}
