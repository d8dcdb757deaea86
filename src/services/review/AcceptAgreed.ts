/**
 * `POST /api/gloss/datasets/{id}/final-answers/accept-agreed`: where a record's submitted answers to a question all
 * agree (at least `min_answers` of them; equal as `recordAgreement` compares that question type: a text's case and
 * spaces, a label set's order do not count), the first of them becomes the final answer, source `agreement`. Questions
 * settled already, before or while this runs, keep their answer. Written a page of records at a time, each page in
 * its own transaction.
 */
import { Effect, Option } from "effect"
import type { DatasetId } from "../../domain/Ids.js"
import type { AcceptAgreedRequest, AcceptAgreedResult } from "../../domain/Review.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { yieldToEventLoop } from "../eventLoop.js"
import { recordAgreement } from "./agreement/index.js"
import { type FinalAnswerRow, FinalAnswersRepo } from "./FinalAnswersRepo.js"
import { ReviewRights } from "./ReviewRights.js"
import { answerOf, ReviewScope } from "./ReviewScope.js"

export class AcceptAgreed extends Effect.Service<AcceptAgreed>()("Gloss/AcceptAgreed", {
  effect: Effect.gen(function*() {
    const rights = yield* ReviewRights
    const scope = yield* ReviewScope
    const repo = yield* FinalAnswersRepo
    const db = yield* Database

    const accept = Effect.fn("AcceptAgreed.accept")(function*(actor: User, datasetId: DatasetId, request: AcceptAgreedRequest) {
      const dataset = yield* rights.dataset(actor, datasetId)
      const questions = yield* scope.questions(dataset, request.questions)
      const matching = yield* scope.matching(actor, dataset, request.query)
      const settledKeys = new Set((yield* repo.settledOfDataset(datasetId)).map((k) => `${k.record_id}/${k.question_id}`))
      const at = yield* now
      const pending: Array<ReadonlyArray<FinalAnswerRow>> = []
      yield* scope.walk(datasetId, false, (walked) => {
        const answers = new Map<string, Array<unknown>>()
        for (const row of walked.answers) {
          const list = answers.get(row.record_id)
          if (list === undefined) answers.set(row.record_id, [row.values])
          else list.push(row.values)
        }
        const rows: Array<FinalAnswerRow> = []
        for (const record of walked.records) {
          const responses = answers.get(record.id)
          if (responses === undefined) continue
          if (Option.isSome(matching) && !matching.value.has(record.id)) continue
          for (const question of questions) {
            if (settledKeys.has(`${record.id}/${question.id}`)) continue
            const values: Array<unknown> = []
            for (const response of responses) {
              const value = answerOf(response, question.name)
              if (value !== undefined && value !== null) values.push(value)
            }
            const first = values[0]
            if (first === undefined || values.length < request.min_answers) continue
            if (values.length > 1) {
              const { agreement, disagree } = recordAgreement(question, values)
              if (disagree || agreement === null) continue
            }
            rows.push({
              record_id: record.id,
              question_id: question.id,
              dataset_id: dataset.id,
              value: first,
              source: "agreement",
              source_user_id: null,
              note: null,
              settled_by: actor.id,
              inserted_at: at,
              updated_at: at
            })
          }
        }
        if (rows.length > 0) pending.push(rows)
      })
      let settled = 0
      const records = new Set<string>()
      for (const rows of pending) {
        const written = yield* db.write(repo.insertNew(rows))
        settled += written.length
        for (const key of written) records.add(key.record_id)
        yield* yieldToEventLoop
      }
      const result: AcceptAgreedResult = { settled, records: records.size }
      return result
    })

    return { accept } as const
  }),
  dependencies: [ReviewRights.Default, ReviewScope.Default, FinalAnswersRepo.Default]
}) {}
