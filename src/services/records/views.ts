/** Records as the API shows them: rows plus, when included, their responses, suggestions and vectors. */
import { Effect } from "effect"
import type { DatasetRecord } from "../../domain/Record.js"
import type { Response } from "../../domain/Response.js"
import type { Suggestion } from "../../domain/Suggestion.js"
import { AnswersRepo } from "./AnswersRepo.js"
import type { Include } from "./include.js"
import type { RecordRow } from "../../codecs/recordRows.js"
import type { NamedVectorRow, ResponseRow, SuggestionRow } from "./rows.js"
import { shownMetadata, type Viewer } from "../datasets/viewer.js"

export const toResponse = (row: ResponseRow): Response => row

export const toSuggestion = ({ record_id: _, ...row }: SuggestionRow): Suggestion => row

/** Rows by the record they belong to. */
export const groupBy = <A extends { readonly record_id: string }>(rows: ReadonlyArray<A>) => {
  const groups = new Map<string, Array<A>>()
  for (const row of rows) {
    const group = groups.get(row.record_id)
    if (group === undefined) groups.set(row.record_id, [row])
    else group.push(row)
  }
  return groups
}

/** What hangs off the records being shown, when asked for. */
export interface Related {
  readonly responses?: ReadonlyArray<ResponseRow> | undefined
  readonly suggestions?: ReadonlyArray<SuggestionRow> | undefined
  readonly vectors?: ReadonlyArray<NamedVectorRow> | undefined
}

/**
 * Records as `viewer` sees them, from rows and what hangs off them (`related.responses` already only those it may
 * see); keys not asked for are left out.
 */
export const assemble = (
  rows: ReadonlyArray<RecordRow>,
  include: Include,
  related: Related,
  viewer: Viewer
): Array<DatasetRecord> => {
  const responses = related.responses === undefined ? undefined : groupBy(related.responses)
  const suggestions = related.suggestions === undefined ? undefined : groupBy(related.suggestions)
  const vectors = related.vectors === undefined ? undefined : groupBy(related.vectors)
  const wanted = Array.isArray(include.vectors) ? new Set(include.vectors) : undefined
  return rows.map((row): DatasetRecord => {
    const record: { -readonly [K in keyof DatasetRecord]: DatasetRecord[K] } = {
      id: row.id,
      status: row.status,
      fields: row.fields,
      metadata: shownMetadata(viewer, row.metadata),
      external_id: row.external_id,
      dataset_id: row.dataset_id,
      inserted_at: row.inserted_at,
      updated_at: row.updated_at
    }
    if (include.responses) record.responses = (responses?.get(row.id) ?? []).map(toResponse)
    if (include.suggestions) record.suggestions = (suggestions?.get(row.id) ?? []).map(toSuggestion)
    if (include.vectors !== "none") {
      record.vectors = Object.fromEntries(
        (vectors?.get(row.id) ?? []).filter((v) => wanted === undefined || wanted.has(v.name)).map((v) => [v.name, v.value])
      )
    }
    return record
  })
}

export class RecordViews extends Effect.Service<RecordViews>()("Gloss/RecordViews", {
  effect: Effect.gen(function*() {
    const answers = yield* AnswersRepo

    /**
     * Blind mode: of `suggestions`, those on records `viewer` may see them on (where their own answer is submitted
     * or discarded); all of them when the viewer is not blind.
     */
    const seenSuggestions = (viewer: Viewer, suggestions: ReadonlyArray<SuggestionRow>, mine?: ReadonlyArray<ResponseRow>) =>
      Effect.gen(function*() {
        const blindTo = viewer.suggestionsHiddenFrom
        if (blindTo === undefined || suggestions.length === 0) return suggestions
        const own = mine ?? (yield* answers.responsesOfUser([...new Set(suggestions.map((s) => s.record_id))], blindTo))
        const answered = new Set(own.filter((r) => r.user_id === blindTo && r.status !== "draft").map((r) => r.record_id))
        return suggestions.filter((s) => answered.has(s.record_id))
      })

    /** The records with what `include` asks for, in the order given, as `viewer` sees them (see viewer.ts). */
    const show = (rows: ReadonlyArray<RecordRow>, include: Include, viewer: Viewer) =>
      Effect.gen(function*() {
        const ids = rows.map((row) => row.id)
        const onlyUser = viewer.responsesOf
        const responses = include.responses
          ? yield* (onlyUser === undefined ? answers.responsesOf(ids) : answers.responsesOfUser(ids, onlyUser))
          : undefined
        return assemble(rows, include, {
          responses,
          suggestions: include.suggestions
            ? yield* seenSuggestions(viewer, yield* answers.suggestionsOf(ids), onlyUser === viewer.suggestionsHiddenFrom ? responses : undefined)
            : undefined,
          vectors: include.vectors === "none" ? undefined : yield* answers.vectorsOf(ids)
        }, viewer)
      })

    return { show, seenSuggestions } as const
  }),
  dependencies: [AnswersRepo.Default]
}) {}
