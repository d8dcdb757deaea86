import { Effect, Either, Option } from "effect"
import { Conflict, Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import { type RecordId, ResponseId } from "../../domain/Ids.js"
import type { ResponseBulkItem, ResponseCreate } from "../../domain/Response.js"
import type { User } from "../../domain/User.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { DatasetsRepo } from "../datasets/DatasetsRepo.js"
import type { DatasetRow } from "../datasets/rows.js"
import { orNotFound } from "../found.js"
import { SearchIndex } from "./SearchIndex.js"
import { Policy } from "../Policy.js"
import { RecordEvents, type ResponseEventType } from "./RecordEvents.js"
import { AnswersRepo } from "./AnswersRepo.js"
import { DatasetSchemas } from "../datasets/DatasetSchemas.js"
import { Records } from "./Records.js"
import { RecordsRepo } from "./RecordsRepo.js"
import type { RecordRow } from "../../codecs/recordRows.js"
import type { ResponseRow } from "./rows.js"
import { validateResponseValues } from "./validation/responses.js"
import { newId } from "../ids.js"

/**
 * A user's answer to a record. Every change recomputes the record's status inside the same
 * transaction, with the record row locked (PostgreSQL), so concurrent annotators never leave a wrong status.
 */
export class Responses extends Effect.Service<Responses>()("Gloss/Responses", {
  effect: Effect.gen(function*() {
    const records = yield* Records
    const recordsRepo = yield* RecordsRepo
    const answers = yield* AnswersRepo
    const datasetsRepo = yield* DatasetsRepo
    const schemas = yield* DatasetSchemas
    const policy = yield* Policy
    const db = yield* Database
    const index = yield* SearchIndex
    const events = yield* RecordEvents

    const check = (record: RecordRow, body: ResponseCreate) =>
      Effect.gen(function*() {
        const dataset = yield* datasetsRepo.findById(record.dataset_id).pipe(orNotFound("Dataset", record.dataset_id))
        const { context } = yield* schemas.load(dataset)
        yield* Either.mapLeft(
          validateResponseValues(context, body.status, body.values ?? null, record.fields),
          (detail) => new Unprocessable({ detail })
        )
        return dataset
      })

    /**
     * Writes `row` (via `save`), refreshes the record's status and the dataset's activity, and emits `event` (with
     * `record.updated`/`record.completed`), atomically. The event shows `shown` when given (a deleted response as
     * it was), else what was saved.
     */
    const persist = <E>(
      record: RecordRow,
      dataset: DatasetRow,
      save: Effect.Effect<ResponseRow, E>,
      event: ResponseEventType,
      shown?: ResponseRow
    ) =>
      db.write(
        Effect.gen(function*() {
          const locked = yield* recordsRepo.findForUpdate(record.id)
          const saved = yield* save
          const [recomputed] = yield* recordsRepo.recompute([record.id], dataset.distribution.min_submitted)
          yield* answers.touchDatasetUsers(record.dataset_id, [saved.user_id], saved.updated_at)
          yield* datasetsRepo.touchActivity(record.dataset_id, saved.updated_at)
          const current = Option.getOrElse(locked, () => record)
          yield* events.answered(event, shown ?? saved, dataset, { ...current, status: recomputed?.status ?? current.status })
          return saved
        }),
        { afterCommit: () => index.records(record.dataset_id, [record.id]) }
      )

    const create = Effect.fn("Responses.create")(function*(actor: User, recordId: RecordId, body: ResponseCreate) {
      const { dataset, record } = yield* records.access(actor, recordId, "records.read").pipe(
        Effect.tap(({ dataset }) => policy.require(actor, "responses.create", dataset.workspace_id))
      )
      yield* check(record, body)
      const at = yield* now
      const row: ResponseRow = {
        id: ResponseId.make(newId()),
        record_id: record.id,
        user_id: actor.id,
        values: body.values ?? null,
        status: body.status,
        inserted_at: at,
        updated_at: at
      }
      return yield* persist(record, dataset, Effect.flatMap(answers.insertResponse(row), Option.match({
        onSome: Effect.succeed,
        onNone: () =>
          Effect.fail(new Conflict({
            detail: `Response already exists for record with id \`${record.id}\` and by user with id \`${actor.id}\``
          }))
      })), "response.created")
    })

    /** The response and its record, once the caller may change it: its author, an owner, or a member admin. */
    const own = (actor: User, id: ResponseId) =>
      Effect.gen(function*() {
        const response = yield* answers.response(id).pipe(orNotFound("Response", id))
        const record = yield* recordsRepo.findById(response.record_id).pipe(orNotFound("Record", response.record_id))
        const dataset = yield* datasetsRepo.findById(record.dataset_id).pipe(orNotFound("Dataset", record.dataset_id))
        // Authors may always change their own response; others need to be an owner or an admin of the workspace.
        if (response.user_id !== actor.id) yield* policy.require(actor, "responses.manageOthers", dataset.workspace_id)
        return { response, record, dataset }
      })

    const update = Effect.fn("Responses.update")(function*(actor: User, id: ResponseId, body: ResponseCreate) {
      const { dataset, record, response } = yield* own(actor, id)
      yield* check(record, body)
      const next: ResponseRow = { ...response, values: body.values ?? null, status: body.status, updated_at: yield* now }
      return yield* persist(record, dataset, Effect.flatMap(answers.replaceResponse(next), Option.match({
        onSome: Effect.succeed,
        onNone: () => Effect.fail(NotFound.byId("Response", id))
      })), "response.updated")
    })

    const remove = Effect.fn("Responses.delete")(function*(actor: User, id: ResponseId) {
      const { dataset, record, response } = yield* own(actor, id)
      yield* persist(
        record,
        dataset,
        Effect.as(answers.deleteResponse(id), { ...response, updated_at: yield* now }),
        "response.deleted",
        response
      )
      return response
    })

    /** One upsert of the caller's own response; the failure of one item never touches the others. */
    const upsertOwn = (actor: User, item: ResponseBulkItem) =>
      Effect.gen(function*() {
        const { dataset, record } = yield* records.access(actor, item.record_id, "records.read").pipe(
          Effect.tap(({ dataset }) => policy.require(actor, "responses.create", dataset.workspace_id))
        )
        yield* check(record, item)
        const at = yield* now
        const existing = (yield* answers.responsesOfUser([record.id], actor.id))[0]
        const row: ResponseRow = {
          id: existing?.id ?? ResponseId.make(newId()),
          record_id: record.id,
          user_id: actor.id,
          values: item.values ?? null,
          status: item.status,
          inserted_at: existing?.inserted_at ?? at,
          updated_at: at
        }
        return yield* persist(
          record,
          dataset,
          Effect.map(answers.upsertResponses([row]), (rows) => rows[0] ?? row),
          existing === undefined ? "response.created" : "response.updated"
        )
      })

    const describe = (error: NotFound | Forbidden | Unprocessable | Conflict) =>
      error._tag === "Forbidden"
        ? `argilla.api.errors::ForbiddenOperationError(detail=${error.detail})`
        : error.detail

    const bulk = Effect.fn("Responses.bulk")(function*(actor: User, items: ReadonlyArray<ResponseBulkItem>) {
      const results = []
      for (const item of items) {
        results.push(
          yield* upsertOwn(actor, item).pipe(
            Effect.match({
              onSuccess: (response) => ({ item: response, error: null }),
              onFailure: (error) => ({ item: null, error: { detail: describe(error) } })
            })
          )
        )
      }
      return { items: results }
    })

    /**
     * The caller's answer `body` to each of `ids` (records of `dataset`), written as `bulk` writes each one
     * (validated against its record, status recomputed, events, search index) but in one transaction for all: what
     * applying an answer to many records uses, once it has checked that the caller may answer in the dataset.
     * The answers in `body` replace the caller's earlier answers to those questions and keep the rest, as the web
     * UI's bulk form does. Records that are gone, or that the answer does not fit, come back as failures; the others
     * are written.
     */
    const answerMany = Effect.fn("Responses.answerMany")(
      function*(actor: User, dataset: DatasetRow, ids: ReadonlyArray<RecordId>, body: ResponseCreate) {
        const { context } = yield* schemas.load(dataset)
        const at = yield* now
        return yield* db.write(
          Effect.gen(function*() {
            const locked = new Map((yield* recordsRepo.findManyForUpdate(ids)).map((record) => [record.id, record]))
            const inDataset = ids.filter((id) => locked.get(id)?.dataset_id === dataset.id)
            const existing = new Map((yield* answers.responsesOfUser(inDataset, actor.id)).map((row) => [row.record_id, row]))
            const failures: Array<{ readonly id: RecordId; readonly detail: string }> = []
            const rows: Array<ResponseRow> = []
            for (const id of ids) {
              const record = locked.get(id)
              if (record === undefined || record.dataset_id !== dataset.id) {
                failures.push({ id, detail: NotFound.byId("Record", id).detail })
                continue
              }
              // The answers given replace those questions' earlier answers; the others (a draft's spans, say) stay.
              const before = existing.get(id)
              const values = before?.values == null ? body.values ?? null : { ...before.values, ...body.values }
              const checked = validateResponseValues(context, body.status, values, record.fields)
              if (Either.isLeft(checked)) {
                failures.push({ id, detail: checked.left })
                continue
              }
              rows.push({
                id: before?.id ?? ResponseId.make(newId()),
                record_id: record.id,
                user_id: actor.id,
                values,
                status: body.status,
                inserted_at: before?.inserted_at ?? at,
                updated_at: at
              })
            }
            const validIds = rows.map((row) => row.record_id)
            const saved = yield* answers.upsertResponses(rows)
            const statuses = new Map(
              (yield* recordsRepo.recompute(validIds, dataset.distribution.min_submitted)).map((row) => [row.id, row.status])
            )
            if (rows.length > 0) {
              yield* answers.touchDatasetUsers(dataset.id, [actor.id], at)
              yield* datasetsRepo.touchActivity(dataset.id, at)
            }
            for (const response of saved) {
              const record = locked.get(response.record_id)
              if (record === undefined) continue
              yield* events.answered(
                existing.has(record.id) ? "response.updated" : "response.created",
                response,
                dataset,
                { ...record, status: statuses.get(record.id) ?? record.status }
              )
            }
            return { written: validIds, failures }
          }),
          { afterCommit: ({ written }) => index.records(dataset.id, written) }
        )
      }
    )

    return { create, update, delete: remove, bulk, answerMany } as const
  }),
  dependencies: [
    Records.Default,
    RecordsRepo.Default,
    AnswersRepo.Default,
    DatasetsRepo.Default,
    DatasetSchemas.Default,
    Policy.Default,
    SearchIndex.Default,
    RecordEvents.Default,
    Database.Default
  ]
}) {}
