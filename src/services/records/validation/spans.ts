/** Span answers: labelled character ranges of one text field of the record. */
import { Either } from "effect"
import type { QuestionSettings } from "../../../domain/Question.js"
import { type Check, codePointLength, fail, isArray, isInteger, isJsonObject, ownValue, show, showList } from "./common.js"

type SpanSettings = Extract<QuestionSettings, { readonly type: "span" }>

const SPAN_MAX_ITEMS = 10_000

interface Span {
  readonly label: string
  readonly start: number
  readonly end: number
}

const parseSpan = (question: string, index: number, item: unknown): Either.Either<Span, string> => {
  const at = `span question '${question}' item ${index}`
  if (!isJsonObject(item) || typeof item.label !== "string") {
    return Either.left(`${at} must be {"label": string, "start": integer, "end": integer}, found ${show(item)}`)
  }
  const { end, label, start } = item
  if (!isInteger(start) || start < 0) return Either.left(`${at} \`start\` must be an integer >= 0, found ${show(start)}`)
  if (!isInteger(end) || end < 1) return Either.left(`${at} \`end\` must be an integer >= 1, found ${show(end)}`)
  if (end <= start) return Either.left(`${at} \`end\` (${end}) must have a value greater than \`start\` (${start})`)
  return Either.right({ label, start, end })
}

/**
 * The first overlapping pair, as indices into `spans`. Sorted by start, a span overlaps an earlier one exactly when
 * it starts before the furthest end seen so far, so one pass finds a pair without comparing all of them.
 */
const findOverlap = (spans: ReadonlyArray<Span>): readonly [number, number] | undefined => {
  const sorted = spans.map((span, index) => ({ span, index })).sort((a, b) => a.span.start - b.span.start)
  let reach: (typeof sorted)[number] | undefined
  for (const current of sorted) {
    if (reach !== undefined && current.span.start < reach.span.end) {
      return [Math.min(reach.index, current.index), Math.max(reach.index, current.index)]
    }
    if (reach === undefined || current.span.end > reach.span.end) reach = current
  }
  return undefined
}

export const validateSpans = (
  question: string,
  settings: SpanSettings,
  value: unknown,
  recordFields: Readonly<Record<string, unknown>>
): Check =>
  Either.gen(function*() {
    if (!isArray(value)) return yield* fail(`span question '${question}' expects a list of values, found ${show(value)}`)
    if (value.length > SPAN_MAX_ITEMS) {
      return yield* fail(`span question '${question}' expects at most ${SPAN_MAX_ITEMS} spans, found ${value.length}`)
    }
    const spans: Array<Span> = []
    for (const [index, item] of value.entries()) spans.push(yield* parseSpan(question, index, item))
    const text = ownValue(recordFields, settings.field)
    if (typeof text !== "string") {
      return yield* fail(`span question '${question}' requires record to have a text value for field \`${settings.field}\``)
    }
    // Offsets count code points, as Python's len does and Argilla clients send them: "👍🏽" is 2, not 4.
    const length = codePointLength(text)
    const where = `record field \`${settings.field}\` length that is \`${length}\``
    for (const [index, span] of spans.entries()) {
      if (span.start > length - 1) {
        return yield* fail(`span question '${question}' item ${index} \`start\` (${span.start}) must be lower than ${where}`)
      }
      if (span.end > length) {
        return yield* fail(`span question '${question}' item ${index} \`end\` (${span.end}) must be lower or equal than ${where}`)
      }
    }
    const labels = settings.options.map((option) => option.value)
    const undefinedLabel = spans.find((span) => !labels.includes(span.label))
    if (undefinedLabel !== undefined) {
      return yield* fail(
        `undefined label ${show(undefinedLabel.label)} for span question '${question}', valid labels are: ${showList(labels)}`
      )
    }
    if (settings.allow_overlapping) return
    const overlap = findOverlap(spans)
    if (overlap !== undefined) {
      return yield* fail(
        `span question '${question}' has overlapping values between spans at index idx=${overlap[0]} and idx=${overlap[1]}`
      )
    }
  })
