/**
 * What a review computation runs over: the dataset's questions (all, or those named), the records a search matches
 * for the caller (all without one), and a walk through the dataset's answers a page at a time.
 */
import { Effect, Either, Option } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import { isPlainObject } from "../../domain/Json.js"
import type { DatasetId, QuestionId, RecordId } from "../../domain/Ids.js"
import type { AgreementQuestion } from "../../domain/Review.js"
import type { SearchRecordsQuery } from "../../domain/Search.js"
import type { User } from "../../domain/User.js"
import { DatasetSchemas } from "../datasets/DatasetSchemas.js"
import type { DatasetRow } from "../datasets/rows.js"
import { searchableBy, Viewers } from "../datasets/viewer.js"
import { yieldToEventLoop } from "../eventLoop.js"
import { resolveQuery } from "../search/resolve.js"
import { SearchEngine } from "../search/SearchEngine.js"
import { type ReviewPage, ReviewRowsRepo } from "./ReviewRowsRepo.js"

/** Records read per page: a page's answers and suggestions are three small reads. */
const PAGE = 2000

export type ScopedQuestion = AgreementQuestion & { readonly id: QuestionId }

const invalid = (detail: string) => new Unprocessable({ detail })

export class ReviewScope extends Effect.Service<ReviewScope>()("Gloss/ReviewScope", {
  effect: Effect.gen(function*() {
    const schemas = yield* DatasetSchemas
    const viewers = yield* Viewers
    const rows = yield* ReviewRowsRepo

    /** The dataset's questions named in `names` (every one when absent), in the dataset's order; 422 for another name. */
    const questions = (dataset: DatasetRow, names: ReadonlyArray<string> | null | undefined) =>
      Effect.gen(function*() {
        const all: ReadonlyArray<ScopedQuestion> = (yield* schemas.indexSchema(dataset.id)).questions
        if (names == null) return all
        const unknown = names.find((name) => !all.some((q) => q.name === name))
        if (unknown !== undefined) return yield* invalid(`question \`${unknown}\` is not a question of dataset \`${dataset.name}\``)
        return all.filter((q) => names.includes(q.name))
      })

    /**
     * The ids of the records `query` matches, resolved in what `actor` may see of the dataset (hidden metadata does
     * not exist for an annotator reviewer); its text and filters count, its sort and vector do not. None: every
     * record.
     */
    const matching = (actor: User, dataset: DatasetRow, query: SearchRecordsQuery | null | undefined) =>
      Effect.gen(function*() {
        if (query == null) return Option.none<ReadonlySet<RecordId>>()
        if (dataset.status !== "ready") return Option.some<ReadonlySet<RecordId>>(new Set())
        const engine = yield* SearchEngine
        const schema = yield* schemas.indexSchema(dataset.id)
        const viewer = yield* viewers.of(actor, dataset, false, false)
        const text = query.query?.text
        const body: SearchRecordsQuery = { filters: query.filters ?? null, ...(text == null ? {} : { query: { text } }) }
        const resolved = yield* Either.mapLeft(
          resolveQuery({ schema: searchableBy(viewer, schema), datasetName: dataset.name, body, offset: 0, limit: 1 }),
          invalid
        )
        return Option.some<ReadonlySet<RecordId>>(new Set(yield* engine.matchingIds(schema, resolved)))
      })

    /** Calls `onPage` with every page of the dataset's records, in insertion order, letting the event loop run between. */
    const walk = (datasetId: DatasetId, withSuggestions: boolean, onPage: (page: ReviewPage) => void) =>
      Effect.gen(function*() {
        let after: number | undefined
        do {
          const page = yield* rows.page(datasetId, after, PAGE, withSuggestions)
          onPage(page)
          after = page.next
          yield* yieldToEventLoop
        } while (after !== undefined)
      })

    return { questions, matching, walk, usernames: rows.usernames } as const
  }),
  dependencies: [DatasetSchemas.Default, Viewers.Default, ReviewRowsRepo.Default]
}) {}

/** A response's answer to `question`, as stored in its `values` (`{ [name]: { value } }`); undefined without one. */
export const answerOf = (values: unknown, question: string): unknown => {
  if (!isPlainObject(values) || !Object.hasOwn(values, question)) return undefined
  const answer = values[question]
  return isPlainObject(answer) && Object.hasOwn(answer, "value") ? answer.value : undefined
}
