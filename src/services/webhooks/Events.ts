/**
 * Emitting events (reference §6.1) and follow-up jobs through the outbox. Call these inside the transaction of the
 * change: the outbox rows commit or roll back with it, and the dispatcher moves them to the job queue afterwards,
 * so a crash between commit and enqueue loses nothing. Payloads are built only for events some enabled webhook
 * wants; with none, a call costs a cache lookup.
 */
import { Effect, Option } from "effect"
import type { WebhookEventType } from "../../domain/Webhook.js"
import { now } from "../clock.js"
import type { DatasetRow } from "../datasets/rows.js"
import type { Json, QueueName } from "../jobs/model.js"
import type { RecordRow, ResponseRow } from "../records/rows.js"
import { EventPayloads, recordData, responseData } from "./EventPayloads.js"
import { type OutboxRow, OutboxRepo } from "./OutboxRepo.js"
import { Subscriptions } from "./Subscriptions.js"
import { newId } from "../ids.js"

export type DatasetEventType = Extract<WebhookEventType, `dataset.${string}`>
export type RecordEventType = "record.created" | "record.updated" | "record.deleted"
export type ResponseEventType = Extract<WebhookEventType, `response.${string}`>

/** Rows at hand, or how to read them (only done when someone listens). */
type Rows = ReadonlyArray<RecordRow> | Effect.Effect<ReadonlyArray<RecordRow>>

interface Emitted {
  readonly type: WebhookEventType
  readonly data: unknown
}

export class Events extends Effect.Service<Events>()("Gloss/Events", {
  effect: Effect.gen(function*() {
    const outbox = yield* OutboxRepo
    const subscriptions = yield* Subscriptions
    const payloads = yield* EventPayloads

    const write = (events: ReadonlyArray<Emitted>) =>
      Effect.gen(function*() {
        if (events.length === 0) return
        const at = yield* now
        yield* outbox.insert(events.map((event): OutboxRow => ({
          id: newId(),
          kind: "event",
          name: event.type,
          queue: null,
          payload: JSON.stringify(event.data),
          occurred_at: at,
          dispatched_at: null
        })))
      })

    const rowsOf = (rows: Rows) => Effect.isEffect(rows) ? rows : Effect.succeed(rows)

    const dataset = Effect.fn("Events.dataset")(function*(type: DatasetEventType, row: DatasetRow) {
      if (!(yield* subscriptions.wants(type))) return
      yield* write([{ type, data: yield* payloads.dataset(row) }])
    })

    const records = Effect.fn("Events.records")(function*(type: RecordEventType, dataset: DatasetRow, rows: Rows) {
      if (!(yield* subscriptions.wants(type))) return
      const list = yield* rowsOf(rows)
      if (list.length === 0) return
      const data = yield* payloads.dataset(dataset)
      yield* write(list.map((row) => ({ type, data: recordData(data, row) })))
    })

    /**
     * Records whose status was just recomputed (`rows` read after the update): `record.updated` for each, and
     * `record.completed` for each that is completed, whether or not it just became so (as Argilla does).
     */
    const statuses = Effect.fn("Events.statuses")(function*(dataset: DatasetRow, rows: Rows) {
      const [updated, completed] = yield* Effect.all([
        subscriptions.wants("record.updated"),
        subscriptions.wants("record.completed")
      ])
      if (!updated && !completed) return
      const list = yield* rowsOf(rows)
      if (list.length === 0) return
      const data = yield* payloads.dataset(dataset)
      yield* write(list.flatMap((row): Array<Emitted> => {
        const record = recordData(data, row)
        return [
          ...(updated ? [{ type: "record.updated" as const, data: record }] : []),
          ...(completed && row.status === "completed" ? [{ type: "record.completed" as const, data: record }] : [])
        ]
      }))
    })

    /** A response was written or deleted and its record's status recomputed (`record` has the new status). */
    const answered = Effect.fn("Events.answered")(
      function*(type: ResponseEventType, response: ResponseRow, dataset: DatasetRow, record: RecordRow) {
        const [wanted, updated, completed] = yield* Effect.all([
          subscriptions.wants(type),
          subscriptions.wants("record.updated"),
          subscriptions.wants("record.completed")
        ])
        if (!wanted && !updated && !completed) return
        const data = recordData(yield* payloads.dataset(dataset), record)
        // The author exists while their response does (users cascade to responses).
        const user = wanted ? yield* payloads.user(response.user_id) : Option.none()
        yield* write([
          ...(Option.isSome(user) ? [{ type, data: responseData(response, data, user.value) }] : []),
          ...(updated ? [{ type: "record.updated" as const, data }] : []),
          ...(completed && record.status === "completed" ? [{ type: "record.completed" as const, data }] : [])
        ])
      }
    )

    /**
     * A job to enqueue once this transaction commits: not before (a worker could run it against data not yet
     * committed, or rolled back), and not never (the outbox row commits with the change).
     */
    const enqueueAfterCommit = Effect.fn("Events.enqueueAfterCommit")(function*(queue: QueueName, name: string, payload: Json) {
      yield* outbox.insert([{
        id: newId(),
        kind: "job",
        name,
        queue,
        payload: JSON.stringify(payload),
        occurred_at: yield* now,
        dispatched_at: null
      }])
    })

    return { dataset, records, statuses, answered, enqueueAfterCommit } as const
  }),
  dependencies: [OutboxRepo.Default, Subscriptions.Default, EventPayloads.Default]
}) {}
