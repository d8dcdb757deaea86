/** A suggestion (a model's or a person's proposed answer, with an optional confidence) for one question. */
import { Either, ParseResult, Schema } from "effect"
import { SuggestionCreate } from "../../../domain/Suggestion.js"
import { validateAnswer } from "./answers.js"
import { type Check, fail, isArray, isFiniteNumber, ok, show } from "./common.js"
import type { QuestionSpec } from "./context.js"

/** The agent rule lives in the payload schema; decoding it here keeps one definition of it. */
const decodeAgent = Schema.decodeUnknownEither(Schema.Struct({ agent: SuggestionCreate.fields.agent }))

/** The payload schema has already checked agents from requests; this covers callers holding an unchecked one. */
const validateAgent = (agent: string | null | undefined): Check =>
  Either.match(decodeAgent({ agent }), {
    onLeft: (error) => {
      const reason = ParseResult.ArrayFormatter.formatErrorSync(error)[0]?.message ?? "invalid agent"
      return fail(`suggestion agent ${show(agent)} is not valid: ${reason}`)
    },
    onRight: () => ok
  })

const isProbability = (score: unknown): boolean => isFiniteNumber(score) && score >= 0 && score <= 1

/**
 * One score per item of a list value (each label, ranked option or span), or one for the whole value otherwise;
 * mixing the two would leave scores that belong to nothing.
 */
const validateScore = (value: unknown, score: unknown): Check => {
  if (score === null || score === undefined) return ok
  if (!isArray(value)) {
    if (isArray(score)) return fail("a list of score values is not allowed for a suggestion with a single value")
    return isProbability(score) ? ok : fail(`suggestion score must be a number between 0 and 1, found ${show(score)}`)
  }
  if (!isArray(score)) return fail("a single score value is not allowed for a suggestion with a multiple items value")
  if (score.length !== value.length) {
    return fail(
      `number of items on value and score attributes doesn't match: value has ${value.length} items, score has ${score.length}`
    )
  }
  const bad = score.findIndex((item) => !isProbability(item))
  return bad < 0 ? ok : fail(`suggestion score at index ${bad} must be a number between 0 and 1, found ${show(score[bad])}`)
}

export const validateSuggestion = (
  question: QuestionSpec,
  value: unknown,
  score: unknown,
  recordFields: Readonly<Record<string, unknown>>,
  agent?: string | null
): Check =>
  Either.gen(function*() {
    yield* validateAnswer(question, value, recordFields, "suggestion")
    yield* validateScore(value, score)
    yield* validateAgent(agent)
  })
