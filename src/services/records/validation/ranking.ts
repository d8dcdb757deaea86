/** Ranking answers: options put in order, `{value, rank}` each, complete only once submitted. */
import { Either } from "effect"
import type { LabelOption } from "../../../domain/Question.js"
import { type Check, fail, firstDuplicate, isArray, isInteger, isJsonObject, show, showList } from "./common.js"
import type { AnswerMode } from "./context.js"

interface RankedValue {
  readonly value: string
  readonly rank: number | null
}

const parseItem = (question: string, index: number, item: unknown): Either.Either<RankedValue, string> => {
  const shape = `ranking question '${question}' item ${index} must be {"value": string, "rank": integer | null}`
  if (!isJsonObject(item) || typeof item.value !== "string") return Either.left(`${shape}, found ${show(item)}`)
  // `rank` may be left out, as in Argilla where it defaults to null.
  const rank = item.rank ?? null
  if (rank !== null && !isInteger(rank)) return Either.left(`${shape}, found rank ${show(rank)}`)
  return Either.right({ value: item.value, rank })
}

export const validateRanking = (
  question: string,
  options: ReadonlyArray<LabelOption>,
  value: unknown,
  mode: AnswerMode
): Check =>
  Either.gen(function*() {
    if (!isArray(value)) return yield* fail(`ranking question '${question}' expects a list of values, found ${show(value)}`)
    const items: Array<RankedValue> = []
    for (const [index, item] of value.entries()) items.push(yield* parseItem(question, index, item))
    const available = options.map((option) => option.value)
    const invalid = items.map((item) => item.value).filter((v) => !available.includes(v))
    if (invalid.length > 0) {
      return yield* fail(
        `${showList(invalid)} are not valid values for ranking question '${question}', valid values are: ${showList(available)}`
      )
    }
    const duplicate = firstDuplicate(items.map((item) => item.value))
    if (duplicate !== undefined) {
      return yield* fail(
        `ranking question '${question}' expects a list of unique values, found ${show(duplicate.value)} more than once`
      )
    }
    // Drafts and suggestions may rank some options only, and their ranks are not checked (as in Argilla).
    if (mode !== "submitted") return
    // With values valid and unique, a list as long as the options holds every option exactly once.
    if (items.length !== available.length) {
      const missing = available.filter((option) => !items.some((item) => item.value === option))
      return yield* fail(
        `ranking question '${question}' expects a list containing ${available.length} values, found a list of ` +
          `${items.length} values (missing ${showList(missing)})`
      )
    }
    // Ties are allowed: two options may share a rank, so only the range is checked.
    const badRanks = items.map((item) => item.rank).filter((rank) => rank === null || rank < 1 || rank > available.length)
    if (badRanks.length > 0) {
      return yield* fail(
        `${showList(badRanks)} are not valid ranks for ranking question '${question}', valid ranks are 1 to ${available.length}`
      )
    }
  })
