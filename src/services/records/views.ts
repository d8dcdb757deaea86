/** Records as the API shows them: rows plus, when included, their responses, suggestions and vectors. */
import { Effect } from "effect"
import type { UserId } from "../../domain/Ids.js"
import type { DatasetRecord } from "../../domain/Record.js"
import type { Response } from "../../domain/Response.js"
import type { Suggestion } from "../../domain/Suggestion.js"
import { AnswersRepo } from "./AnswersRepo.js"
import type { Include } from "./include.js"
import type { RecordRow, ResponseRow, SuggestionRow } from "./rows.js"

export const toResponse = (row: ResponseRow): Response => row

export const toSuggestion = ({ record_id: _, ...row }: SuggestionRow): Suggestion => row

const groupBy = <A extends { readonly record_id: string }>(rows: ReadonlyArray<A>) => {
  const groups = new Map<string, Array<A>>()
  for (const row of rows) {
    const group = groups.get(row.record_id)
    if (group === undefined) groups.set(row.record_id, [row])
    else group.push(row)
  }
  return groups
}

export class RecordViews extends Effect.Service<RecordViews>()("Gloss/RecordViews", {
  effect: Effect.gen(function*() {
    const answers = yield* AnswersRepo

    /**
     * The records with what `include` asks for, in the order given. With `onlyUser`, responses are that user's
     * alone (the caller-scoped search).
     */
    const show = (rows: ReadonlyArray<RecordRow>, include: Include, onlyUser?: UserId) =>
      Effect.gen(function*() {
        const ids = rows.map((row) => row.id)
        const responses = include.responses
          ? groupBy(yield* (onlyUser === undefined ? answers.responsesOf(ids) : answers.responsesOfUser(ids, onlyUser)))
          : undefined
        const suggestions = include.suggestions ? groupBy(yield* answers.suggestionsOf(ids)) : undefined
        const vectors = include.vectors === "none" ? undefined : groupBy(yield* answers.vectorsOf(ids))
        const wanted = Array.isArray(include.vectors) ? new Set(include.vectors) : undefined
        return rows.map((row): DatasetRecord => {
          const record: { -readonly [K in keyof DatasetRecord]: DatasetRecord[K] } = {
            id: row.id,
            status: row.status,
            fields: row.fields,
            metadata: row.metadata,
            external_id: row.external_id,
            dataset_id: row.dataset_id,
            inserted_at: row.inserted_at,
            updated_at: row.updated_at
          }
          if (responses !== undefined) record.responses = (responses.get(row.id) ?? []).map(toResponse)
          if (suggestions !== undefined) record.suggestions = (suggestions.get(row.id) ?? []).map(toSuggestion)
          if (vectors !== undefined) {
            record.vectors = Object.fromEntries(
              (vectors.get(row.id) ?? []).filter((v) => wanted === undefined || wanted.has(v.name)).map((v) => [v.name, v.value])
            )
          }
          return record
        })
      })

    return { show } as const
  }),
  dependencies: [AnswersRepo.Default]
}) {}
