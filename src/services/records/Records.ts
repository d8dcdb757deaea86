import { Effect, Either, Option, Schema } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import type { DatasetId, RecordId } from "../../domain/Ids.js"
import type { RecordUpdate } from "../../domain/Record.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { Datasets } from "../datasets/Datasets.js"
import { orNotFound } from "../found.js"
import { SearchIndex } from "./SearchIndex.js"
import { RecordEvents } from "./RecordEvents.js"
import { AnswersRepo } from "./AnswersRepo.js"
import { DatasetSchemas } from "../datasets/DatasetSchemas.js"
import { type Include, INCLUDE_EVERYTHING, INCLUDE_NOTHING, parseInclude } from "./include.js"
import { RecordsRepo } from "./RecordsRepo.js"
import type { RecordRow } from "../../codecs/recordRows.js"
import type { SuggestionRow, VectorRow } from "./rows.js"
import { suggestionRows } from "./suggestionRows.js"
import { validateMetadata } from "./validation/metadata.js"
import { validateVectors } from "./validation/vectors.js"
import { Viewers } from "../datasets/viewer.js"
import { RecordViews } from "./views.js"
import { newId } from "../ids.js"

const isUuid = Schema.is(Schema.UUID)

/** `ids=a,b,c` for the delete-by-ids endpoints: at least one, at most 100, all UUIDs. */
export const parseIds = (raw: string | undefined, what: string) => {
  const ids = (raw ?? "").split(",").map((id) => id.trim()).filter((id) => id !== "")
  if (ids.length === 0) return Either.left(`No ${what} IDs provided`)
  if (ids.length > 100) return Either.left(`Cannot delete more than 100 ${what}s at once`)
  if (!ids.every(isUuid)) return Either.left("Invalid UUID format")
  return Either.right(ids)
}

export const includeOrFail = (include: ReadonlyArray<string> | undefined) =>
  Either.match(parseInclude(include ?? []), {
    onLeft: (detail) => Effect.fail(new Unprocessable({ detail })),
    onRight: (parsed): Effect.Effect<Include, Unprocessable> => Effect.succeed(parsed)
  })

export class Records extends Effect.Service<Records>()("Gloss/Records", {
  effect: Effect.gen(function*() {
    const repo = yield* RecordsRepo
    const answers = yield* AnswersRepo
    const datasets = yield* Datasets
    const schemas = yield* DatasetSchemas
    const views = yield* RecordViews
    const viewers = yield* Viewers
    const db = yield* Database
    const index = yield* SearchIndex
    const events = yield* RecordEvents

    /** The record and its dataset, once the caller may do `action` there (404 before 403). */
    const access = (actor: User, id: RecordId, action: "records.read" | "records.write" | "suggestions.write") =>
      Effect.gen(function*() {
        const record = yield* repo.findById(id).pipe(orNotFound("Record", id))
        const dataset = yield* datasets.access(actor, record.dataset_id, action)
        return { record, dataset }
      })

    /** A page of the dataset's records as `actor` sees them, read by `read` once the caller may list them. */
    const listed = <A extends { readonly rows: ReadonlyArray<RecordRow> }>(
      actor: User,
      datasetId: DatasetId,
      include: ReadonlyArray<string> | undefined,
      read: Effect.Effect<A>
    ) =>
      Effect.gen(function*() {
        const included = yield* includeOrFail(include)
        const dataset = yield* datasets.access(actor, datasetId, "records.list")
        const { rows, ...rest } = yield* read
        return { items: yield* views.show(rows, included, yield* viewers.of(actor, dataset)), ...rest }
      })

    const list = Effect.fn("Records.list")(
      function*(actor: User, datasetId: DatasetId, page: { offset: number; limit: number; include?: ReadonlyArray<string> | undefined }) {
        const read = Effect.map(
          Effect.all([repo.page(datasetId, page.offset, page.limit), repo.count(datasetId)]),
          ([rows, total]) => ({ rows, total })
        )
        return yield* listed(actor, datasetId, page.include, read)
      }
    )

    /**
     * Every record of the dataset, a page at a time in insertion order, for a walk through all of them (an export):
     * by keyset, without a count, where `list`'s offset reads and drops every record before its page (see
     * RecordsRepo.pageAfter). `next` goes into the next call; undefined on the last page.
     */
    const listAfter = Effect.fn("Records.listAfter")(
      function*(actor: User, datasetId: DatasetId, page: { after: number | undefined; limit: number; include?: ReadonlyArray<string> | undefined }) {
        return yield* listed(actor, datasetId, page.include, repo.pageAfter(datasetId, page.after, page.limit))
      }
    )

    const get = Effect.fn("Records.get")(function*(actor: User, id: RecordId) {
      const { dataset, record } = yield* access(actor, id, "records.read")
      const [shown] = yield* views.show([record], INCLUDE_EVERYTHING, yield* viewers.of(actor, dataset))
      return yield* Effect.succeed(Option.fromNullable(shown)).pipe(orNotFound("Record", id))
    })

    const update = Effect.fn("Records.update")(function*(actor: User, id: RecordId, patch: RecordUpdate) {
      const { dataset, record } = yield* access(actor, id, "records.write")
      const { context, vectorSettings } = yield* schemas.load(dataset)
      const invalid = (reason: string) => new Unprocessable({ detail: reason })
      if (patch.metadata != null) yield* Either.mapLeft(validateMetadata(context, patch.metadata), invalid)
      if (patch.vectors !== undefined) yield* Either.mapLeft(validateVectors(context, patch.vectors), invalid)
      const at = yield* now
      const suggestions: ReadonlyArray<SuggestionRow> = patch.suggestions === undefined
        ? []
        : yield* Either.mapLeft(suggestionRows(context, record.id, record.fields, patch.suggestions, at), invalid)
      const vectorIds = new Map(vectorSettings.map((settings) => [settings.name, settings.id]))
      const vectors: ReadonlyArray<VectorRow> = Object.entries(patch.vectors ?? {}).flatMap(([name, value]) => {
        const settingsId = vectorIds.get(name)
        return settingsId === undefined ? [] : [{
          id: newId(),
          record_id: record.id,
          vector_settings_id: settingsId,
          value,
          inserted_at: at,
          updated_at: at
        }]
      })
      yield* db.write(
        Effect.gen(function*() {
          // `metadata` replaces the whole dict; `suggestions` replace all of the record's; `vectors` are upserted.
          const updated = yield* repo.replace({
            ...record,
            metadata: patch.metadata === undefined ? record.metadata : patch.metadata,
            updated_at: at
          })
          yield* events.records("record.updated", dataset, [updated])
          if (patch.suggestions !== undefined) {
            yield* answers.deleteSuggestions(record.id, null)
            yield* answers.upsertSuggestions(suggestions)
          }
          yield* answers.upsertVectors(vectors)
        }),
        { afterCommit: () => index.records(record.dataset_id, [record.id]) }
      )
      return yield* get(actor, id)
    })

    const remove = Effect.fn("Records.delete")(function*(actor: User, id: RecordId) {
      const { dataset, record } = yield* access(actor, id, "records.write")
      yield* db.write(
        Effect.zipRight(events.records("record.deleted", dataset, [record]), repo.deleteIds(record.dataset_id, [record.id])),
        { afterCommit: () => index.removed(record.dataset_id, [record.id]) }
      )
      const [shown] = yield* views.show([record], INCLUDE_NOTHING, yield* viewers.of(actor, dataset))
      return yield* Effect.succeed(Option.fromNullable(shown)).pipe(orNotFound("Record", id))
    })

    /** `DELETE /datasets/{id}/records?ids=`: ids of other datasets are ignored. */
    const deleteMany = Effect.fn("Records.deleteMany")(function*(actor: User, datasetId: DatasetId, rawIds: string | undefined) {
      const ids = yield* Either.mapLeft(parseIds(rawIds, "record"), (detail) => new Unprocessable({ detail }))
      const dataset = yield* datasets.access(actor, datasetId, "records.write")
      return yield* db.write(
        Effect.zipRight(events.records("record.deleted", dataset, repo.findByIds(datasetId, ids)), repo.deleteIds(datasetId, ids)),
        { afterCommit: (deleted) => index.removed(datasetId, deleted) }
      )
    })

    return { access, list, listAfter, get, update, delete: remove, deleteMany } as const
  }),
  dependencies: [
    RecordsRepo.Default,
    AnswersRepo.Default,
    Datasets.Default,
    DatasetSchemas.Default,
    RecordViews.Default,
    Viewers.Default,
    SearchIndex.Default,
    RecordEvents.Default,
    Database.Default
  ]
}) {}

