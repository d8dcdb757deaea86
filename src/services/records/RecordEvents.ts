/**
 * The `record.*` and `response.*` events and their `data`, in Argilla's shapes. Call these inside the
 * transaction of the change (see `webhooks/Events.ts`); nothing is built or read unless a webhook wants the event.
 */
import { Effect, Option } from "effect"
import type { RecordEventData, ResponseEventData } from "../../domain/Event.js"
import type { WebhookEventType } from "../../domain/Webhook.js"
import { type DatasetData, DatasetEvents } from "../datasets/DatasetEvents.js"
import type { DatasetRow } from "../datasets/rows.js"
import { type UserRow, UsersRepo } from "../users/UsersRepo.js"
import { type Emitted, Events, stamps } from "../webhooks/Events.js"
import type { RecordRow } from "../../codecs/recordRows.js"
import type { ResponseRow } from "./rows.js"

export type RecordEventType = "record.created" | "record.updated" | "record.deleted"
export type ResponseEventType = Extract<WebhookEventType, `response.${string}`>
export type RecordData = typeof RecordEventData.Encoded
export type ResponseData = typeof ResponseEventData.Encoded

/** Rows at hand, or how to read them (only done when someone listens). */
type Rows = ReadonlyArray<RecordRow> | Effect.Effect<ReadonlyArray<RecordRow>>

export const recordData = (dataset: DatasetData, row: RecordRow): RecordData => ({
  id: row.id,
  status: row.status,
  fields: row.fields,
  metadata: row.metadata,
  external_id: row.external_id,
  dataset,
  ...stamps(row)
})

export const responseData = (row: ResponseRow, record: RecordData, user: UserRow): ResponseData => ({
  id: row.id,
  values: row.values,
  status: row.status,
  record,
  user: {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    username: user.username,
    role: user.role,
    ...stamps(user)
  },
  ...stamps(row)
})

export class RecordEvents extends Effect.Service<RecordEvents>()("Gloss/RecordEvents", {
  effect: Effect.gen(function*() {
    const events = yield* Events
    const datasets = yield* DatasetEvents
    const users = yield* UsersRepo

    const rowsOf = (rows: Rows) => Effect.isEffect(rows) ? rows : Effect.succeed(rows)

    const records = Effect.fn("RecordEvents.records")(function*(type: RecordEventType, dataset: DatasetRow, rows: Rows) {
      if (!(yield* events.wants(type))) return
      const list = yield* rowsOf(rows)
      if (list.length === 0) return
      const data = yield* datasets.data(dataset)
      yield* events.write(list.map((row) => ({ type, data: recordData(data, row) })))
    })

    /**
     * Records whose status was just recomputed (`rows` read after the update): `record.updated` for each, and
     * `record.completed` for each that is completed, whether or not it just became so (as Argilla does).
     */
    const statuses = Effect.fn("RecordEvents.statuses")(function*(dataset: DatasetRow, rows: Rows) {
      const [updated, completed] = yield* Effect.all([
        events.wants("record.updated"),
        events.wants("record.completed")
      ])
      if (!updated && !completed) return
      const list = yield* rowsOf(rows)
      if (list.length === 0) return
      const data = yield* datasets.data(dataset)
      yield* events.write(list.flatMap((row): Array<Emitted> => {
        const record = recordData(data, row)
        return [
          ...(updated ? [{ type: "record.updated" as const, data: record }] : []),
          ...(completed && row.status === "completed" ? [{ type: "record.completed" as const, data: record }] : [])
        ]
      }))
    })

    /** A response was written or deleted and its record's status recomputed (`record` has the new status). */
    const answered = Effect.fn("RecordEvents.answered")(
      function*(type: ResponseEventType, response: ResponseRow, dataset: DatasetRow, record: RecordRow) {
        const [wanted, updated, completed] = yield* Effect.all([
          events.wants(type),
          events.wants("record.updated"),
          events.wants("record.completed")
        ])
        if (!wanted && !updated && !completed) return
        const data = recordData(yield* datasets.data(dataset), record)
        // The author exists while their response does (users cascade to responses).
        const user = wanted ? yield* users.findById(response.user_id) : Option.none()
        yield* events.write([
          ...(Option.isSome(user) ? [{ type, data: responseData(response, data, user.value) }] : []),
          ...(updated ? [{ type: "record.updated" as const, data }] : []),
          ...(completed && record.status === "completed" ? [{ type: "record.completed" as const, data }] : [])
        ])
      }
    )

    return { records, statuses, answered } as const
  }),
  dependencies: [Events.Default, DatasetEvents.Default, UsersRepo.Default]
}) {}
