/**
 * `POST /api/gloss/datasets/{id}/review/records`: the review queue. One walk through the dataset's submitted answers
 * gives each answered record its agreement (the mean of `recordAgreement` over its compared questions), the
 * questions it disagrees on, and whether every answered question has a final answer; the queues are counted, the
 * one asked for is filtered, ordered and paged, and only the page's records are read whole.
 */
import { Effect, Option } from "effect"
import type { DatasetId, RecordId, UserId } from "../../domain/Ids.js"
import type { FinalAnswer, ReviewItem, ReviewQueuePage, ReviewQueueRequest } from "../../domain/Review.js"
import type { User } from "../../domain/User.js"
import { Viewers } from "../datasets/viewer.js"
import { RecordsRepo } from "../records/RecordsRepo.js"
import { RecordViews } from "../records/views.js"
import { recordAgreement } from "./agreement/index.js"
import { toFinalAnswer } from "./FinalAnswers.js"
import { FinalAnswersRepo } from "./FinalAnswersRepo.js"
import { ReviewRights } from "./ReviewRights.js"
import { answerOf, ReviewScope } from "./ReviewScope.js"
import { inSample } from "./sample.js"

interface Entry {
  readonly id: RecordId
  readonly insertedAt: number
  readonly agreement: number | null
  readonly disagreements: ReadonlyArray<string>
  readonly settled: boolean
}

/** Least agreement first (records with no compared question last), then the oldest, then by id. */
const byLeastAgreement = (a: Entry, b: Entry) =>
  (a.agreement ?? 2) - (b.agreement ?? 2) || byInsertion(a, b)
const byInsertion = (a: Entry, b: Entry) => a.insertedAt - b.insertedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export class ReviewQueue extends Effect.Service<ReviewQueue>()("Gloss/ReviewQueue", {
  effect: Effect.gen(function*() {
    const rights = yield* ReviewRights
    const scope = yield* ReviewScope
    const finalAnswers = yield* FinalAnswersRepo
    const records = yield* RecordsRepo
    const views = yield* RecordViews
    const viewers = yield* Viewers

    const page = Effect.fn("ReviewQueue.page")(function*(
      actor: User,
      datasetId: DatasetId,
      request: ReviewQueueRequest,
      paging: { readonly offset: number; readonly limit: number }
    ) {
      const dataset = yield* rights.dataset(actor, datasetId)
      const questions = yield* scope.questions(dataset, request.question == null ? undefined : [request.question])
      const matching = yield* scope.matching(actor, dataset, request.query)
      const settledKeys = new Set((yield* finalAnswers.settledOfDataset(datasetId)).map((k) => `${k.record_id}/${k.question_id}`))
      const annotator: UserId | null = request.annotator ?? null
      const entries: Array<Entry> = []
      yield* scope.walk(datasetId, false, (walked) => {
        const answers = new Map<string, Array<{ readonly user_id: string; readonly values: unknown }>>()
        for (const row of walked.answers) {
          const list = answers.get(row.record_id)
          if (list === undefined) answers.set(row.record_id, [row])
          else list.push(row)
        }
        for (const record of walked.records) {
          const responses = answers.get(record.id)
          if (responses === undefined) continue
          if (Option.isSome(matching) && !matching.value.has(record.id)) continue
          if (annotator !== null && !responses.some((r) => r.user_id === annotator)) continue
          let answered = 0
          let settled = 0
          let sum = 0
          let compared = 0
          const disagreements: Array<string> = []
          for (const question of questions) {
            const values: Array<unknown> = []
            for (const response of responses) {
              const value = answerOf(response.values, question.name)
              if (value !== undefined && value !== null) values.push(value)
            }
            if (values.length === 0) continue
            answered++
            if (settledKeys.has(`${record.id}/${question.id}`)) settled++
            if (values.length < 2) continue
            const { agreement, disagree } = recordAgreement(question, values)
            if (agreement !== null) {
              sum += agreement
              compared++
            }
            if (disagree) disagreements.push(question.name)
          }
          // Answered, but not (with `question`) the questions looked at: in no queue.
          if (answered === 0) continue
          entries.push({
            id: record.id,
            insertedAt: record.inserted_at.getTime(),
            agreement: compared === 0 ? null : sum / compared,
            disagreements,
            settled: settled === answered
          })
        }
      })
      const counts = {
        all: entries.length,
        disagreement: entries.filter((e) => e.disagreements.length > 0).length,
        unsettled: entries.filter((e) => !e.settled).length,
        settled: entries.filter((e) => e.settled).length
      }
      const seed = request.seed ?? ""
      const percent = request.sample_percent ?? 10
      const queue = entries.filter((e) => {
        switch (request.queue) {
          case "all":
            return true
          case "disagreement":
            return e.disagreements.length > 0
          case "unsettled":
            return !e.settled
          case "settled":
            return e.settled
          case "sample":
            return inSample(seed, e.id, percent)
        }
      })
      queue.sort(request.order === "least_agreement" ? byLeastAgreement : byInsertion)
      const shown = queue.slice(paging.offset, paging.offset + paging.limit)
      const ids = shown.map((e) => e.id)
      const viewer = yield* viewers.of(actor, dataset, false, false)
      // Everyone's answers: what reviewing is for, to an annotator reviewer too (their metadata view stays theirs).
      const rows = yield* records.findByIds(datasetId, ids)
      const shownRecords = yield* views.show(rows, { responses: true, suggestions: true, vectors: "none" }, {
        ...viewer,
        responsesOf: undefined
      })
      const byId = new Map(shownRecords.map((r) => [r.id, r]))
      const finals = new Map<string, Array<FinalAnswer>>()
      for (const row of yield* finalAnswers.ofRecords(ids)) {
        const list = finals.get(row.record_id)
        if (list === undefined) finals.set(row.record_id, [toFinalAnswer(row)])
        else list.push(toFinalAnswer(row))
      }
      const items = shown.flatMap((entry): ReadonlyArray<ReviewItem> => {
        const record = byId.get(entry.id)
        // Deleted since the walk: left out of the page.
        if (record === undefined) return []
        return [{
          record,
          agreement: entry.agreement,
          disagreements: entry.disagreements,
          final_answers: finals.get(entry.id) ?? []
        }]
      })
      const result: ReviewQueuePage = { items, total: queue.length, counts }
      return result
    })

    return { page } as const
  }),
  dependencies: [
    ReviewRights.Default,
    ReviewScope.Default,
    FinalAnswersRepo.Default,
    RecordsRepo.Default,
    RecordViews.Default,
    Viewers.Default
  ]
}) {}
