/**
 * Final answers: the one answer per record and question a reviewer settles on, kept apart from the responses
 * (FinalAnswersRepo). Reading them needs review rights too: annotators answer blind, without the settled labels.
 */
import { Effect, Either, Option } from "effect"
import { NotFound, Unprocessable } from "../../domain/Errors.js"
import type { RecordId } from "../../domain/Ids.js"
import type { FinalAnswer, FinalAnswers as FinalAnswersList, FinalAnswersUpdate } from "../../domain/Review.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { DatasetSchemas } from "../datasets/DatasetSchemas.js"
import { AnswersRepo } from "../records/AnswersRepo.js"
import { validateAnswer } from "../records/validation/answers.js"
import { type FinalAnswerRow, FinalAnswersRepo, type NamedFinalAnswerRow } from "./FinalAnswersRepo.js"
import { ReviewRights } from "./ReviewRights.js"

export const toFinalAnswer = ({ dataset_id: _, question_id: __, ...row }: NamedFinalAnswerRow): FinalAnswer => row

const invalid = (detail: string) => new Unprocessable({ detail })

export class FinalAnswers extends Effect.Service<FinalAnswers>()("Gloss/FinalAnswers", {
  effect: Effect.gen(function*() {
    const rights = yield* ReviewRights
    const repo = yield* FinalAnswersRepo
    const answers = yield* AnswersRepo
    const schemas = yield* DatasetSchemas
    const db = yield* Database

    const listOf = (recordId: RecordId) =>
      Effect.map(repo.ofRecord(recordId), (rows): FinalAnswersList => ({ items: rows.map(toFinalAnswer) }))

    const get = Effect.fn("FinalAnswers.get")(function*(actor: User, recordId: RecordId) {
      yield* rights.record(actor, recordId)
      return yield* listOf(recordId)
    })

    /**
     * Settles the questions named: each value checked as a submitted response's would be (422), `source: response`
     * naming an annotator with a submitted response to this record. The others keep their final answer.
     */
    const settle = Effect.fn("FinalAnswers.settle")(function*(actor: User, recordId: RecordId, update: FinalAnswersUpdate) {
      const { dataset, record } = yield* rights.record(actor, recordId)
      const { context } = yield* schemas.load(dataset)
      const submitted = new Set(
        (yield* answers.responsesOf([record.id])).filter((r) => r.status === "submitted").map((r) => r.user_id)
      )
      const at = yield* now
      const seen = new Set<string>()
      const rows: Array<FinalAnswerRow> = []
      for (const item of update.items) {
        const question = context.questions.find((q) => q.name === item.question)
        if (question === undefined) {
          return yield* invalid(`question \`${item.question}\` is not a question of dataset \`${dataset.name}\``)
        }
        if (seen.has(question.name)) return yield* invalid(`question \`${question.name}\` is settled more than once`)
        seen.add(question.name)
        yield* Either.mapLeft(validateAnswer(question, item.value, record.fields, "submitted"), invalid)
        const sourceUser = item.source_user_id ?? null
        if (item.source === "response") {
          if (sourceUser === null) {
            return yield* invalid(`question \`${question.name}\`: a final answer from a response needs its source_user_id`)
          }
          if (!submitted.has(sourceUser)) {
            return yield* invalid(
              `question \`${question.name}\`: user with id \`${sourceUser}\` has no submitted response to this record`
            )
          }
        } else if (sourceUser !== null) {
          return yield* invalid(`question \`${question.name}\`: source_user_id is only for a final answer from a response`)
        }
        rows.push({
          record_id: record.id,
          question_id: question.id,
          dataset_id: dataset.id,
          value: item.value,
          source: item.source,
          source_user_id: sourceUser,
          note: item.note ?? null,
          settled_by: actor.id,
          inserted_at: at,
          updated_at: at
        })
      }
      yield* db.write(repo.upsert(rows))
      return yield* listOf(record.id)
    })

    /** Removes a question's final answer (404 for a question the dataset lacks or that is not settled). */
    const unsettle = Effect.fn("FinalAnswers.unsettle")(function*(actor: User, recordId: RecordId, questionName: string) {
      const { dataset, record } = yield* rights.record(actor, recordId)
      const { context } = yield* schemas.load(dataset)
      const question = context.questions.find((q) => q.name === questionName)
      if (question === undefined) {
        return yield* new NotFound({ detail: `Question with name \`${questionName}\` not found in dataset \`${dataset.name}\`` })
      }
      const removed = yield* db.write(repo.remove({ record_id: record.id, question_id: question.id }))
      if (Option.isNone(removed)) {
        return yield* new NotFound({ detail: `Question \`${questionName}\` of record with id \`${record.id}\` is not settled` })
      }
      return yield* listOf(record.id)
    })

    return { get, settle, unsettle } as const
  }),
  dependencies: [ReviewRights.Default, FinalAnswersRepo.Default, AnswersRepo.Default, DatasetSchemas.Default]
}) {}
