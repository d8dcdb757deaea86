/**
 * `POST /api/gloss/datasets/{id}/agreement`: the dataset's submitted answers (and suggestions) gathered per
 * question in one walk through the dataset, never its records' fields, then the measures of `agreement/`.
 */
import { Effect, Option } from "effect"
import type { DatasetId } from "../../domain/Ids.js"
import type { AgreementReport, AgreementRequest } from "../../domain/Review.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { type AgreementUnit, questionAgreement } from "./agreement/index.js"
import { ReviewRights } from "./ReviewRights.js"
import { answerOf, ReviewScope } from "./ReviewScope.js"

type Answer = { readonly userId: string; readonly value: unknown }

export class Agreement extends Effect.Service<Agreement>()("Gloss/Agreement", {
  effect: Effect.gen(function*() {
    const rights = yield* ReviewRights
    const scope = yield* ReviewScope

    const report = Effect.fn("Agreement.report")(function*(actor: User, datasetId: DatasetId, request: AgreementRequest) {
      const dataset = yield* rights.dataset(actor, datasetId)
      const questions = yield* scope.questions(dataset, request.questions)
      const matching = yield* scope.matching(actor, dataset, request.query)
      const units: Array<Array<AgreementUnit>> = questions.map(() => [])
      const users = new Set<string>()
      let records = 0
      yield* scope.walk(datasetId, true, (page) => {
        const answers = new Map<string, Array<{ readonly user_id: string; readonly values: unknown }>>()
        for (const row of page.answers) {
          const list = answers.get(row.record_id)
          if (list === undefined) answers.set(row.record_id, [row])
          else list.push(row)
        }
        const suggestions = new Map<string, unknown>()
        for (const row of page.suggestions) suggestions.set(`${row.record_id}/${row.question_id}`, row.value)
        for (const record of page.records) {
          if (Option.isSome(matching) && !matching.value.has(record.id)) continue
          records++
          const responses = answers.get(record.id) ?? []
          questions.forEach((question, q) => {
            const given: Array<Answer> = []
            for (const response of responses) {
              const value = answerOf(response.values, question.name)
              if (value === undefined || value === null) continue
              given.push({ userId: response.user_id, value })
              users.add(response.user_id)
            }
            const key = `${record.id}/${question.id}`
            units[q]?.push(
              suggestions.has(key)
                ? { recordId: record.id, answers: given, suggestion: suggestions.get(key) }
                : { recordId: record.id, answers: given }
            )
          })
        }
      })
      const usernames = yield* scope.usernames([...users])
      const report: AgreementReport = {
        dataset_id: dataset.id,
        records,
        questions: questions.map((question, q) =>
          questionAgreement({ name: question.name, settings: question.settings }, units[q] ?? [], usernames)
        ),
        computed_at: yield* now
      }
      return report
    })

    return { report } as const
  }),
  dependencies: [ReviewRights.Default, ReviewScope.Default]
}) {}
