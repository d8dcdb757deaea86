import { Effect, Either } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import type { RecordId, SuggestionId } from "../../domain/Ids.js"
import type { SuggestionCreate } from "../../domain/Suggestion.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { Datasets } from "../datasets/Datasets.js"
import { orNotFound } from "../found.js"
import { SearchIndex } from "./SearchIndex.js"
import { AnswersRepo } from "./AnswersRepo.js"
import { DatasetSchemas } from "../datasets/DatasetSchemas.js"
import { parseIds, Records } from "./Records.js"
import { RecordsRepo } from "./RecordsRepo.js"
import { suggestionRows } from "./suggestionRows.js"
import { RecordViews, toSuggestion } from "./views.js"
import { Viewers } from "../datasets/viewer.js"

/** Model (or human) pre-answers, at most one per question per record. */
export class Suggestions extends Effect.Service<Suggestions>()("Gloss/Suggestions", {
  effect: Effect.gen(function*() {
    const records = yield* Records
    const recordsRepo = yield* RecordsRepo
    const answers = yield* AnswersRepo
    const datasets = yield* Datasets
    const schemas = yield* DatasetSchemas
    const db = yield* Database
    const index = yield* SearchIndex
    const viewers = yield* Viewers
    const views = yield* RecordViews

    const list = Effect.fn("Suggestions.list")(function*(actor: User, recordId: RecordId) {
      const { dataset, record } = yield* records.access(actor, recordId, "records.read")
      const viewer = yield* viewers.of(actor, dataset)
      return (yield* views.seenSuggestions(viewer, yield* answers.suggestionsOf([record.id]))).map(toSuggestion)
    })

    /** Creates or replaces the record's suggestion for the question; says which it was (201 or 200). */
    const upsert = Effect.fn("Suggestions.upsert")(function*(actor: User, recordId: RecordId, body: SuggestionCreate) {
      const { dataset, record } = yield* records.access(actor, recordId, "suggestions.write")
      const { context } = yield* schemas.load(dataset)
      const [row] = yield* Either.mapLeft(
        suggestionRows(context, record.id, record.fields, [body], yield* now),
        (detail) => new Unprocessable({ detail })
      )
      if (row === undefined) return yield* new Unprocessable({ detail: "a suggestion is required" })
      const existed = (yield* answers.suggestionsOf([record.id])).some((s) => s.question_id === row.question_id)
      const [saved] = yield* db.write(answers.upsertSuggestions([row]), {
        afterCommit: () => index.records(record.dataset_id, [record.id])
      })
      return { suggestion: toSuggestion(saved ?? row), created: !existed }
    })

    const deleteMany = Effect.fn("Suggestions.deleteMany")(function*(actor: User, recordId: RecordId, rawIds: string | undefined) {
      const ids = yield* Either.mapLeft(parseIds(rawIds, "suggestion"), (detail) => new Unprocessable({ detail }))
      const { record } = yield* records.access(actor, recordId, "suggestions.write")
      yield* db.write(answers.deleteSuggestions(record.id, ids), {
        afterCommit: () => index.records(record.dataset_id, [record.id])
      })
    })

    const remove = Effect.fn("Suggestions.delete")(function*(actor: User, id: SuggestionId) {
      const suggestion = yield* answers.suggestion(id).pipe(orNotFound("Suggestion", id))
      const record = yield* recordsRepo.findById(suggestion.record_id).pipe(orNotFound("Record", suggestion.record_id))
      yield* datasets.access(actor, record.dataset_id, "suggestions.write")
      yield* db.write(answers.deleteSuggestions(record.id, [id]), {
        afterCommit: () => index.records(record.dataset_id, [record.id])
      })
      return toSuggestion(suggestion)
    })

    return { list, upsert, deleteMany, delete: remove } as const
  }),
  dependencies: [
    Records.Default,
    RecordsRepo.Default,
    AnswersRepo.Default,
    Datasets.Default,
    DatasetSchemas.Default,
    SearchIndex.Default,
    Database.Default,
    Viewers.Default,
    RecordViews.Default
  ]
}) {}
