/**
 * Emitting webhook events and follow-up jobs through the outbox. Call these inside the transaction of the
 * change: the outbox rows commit or roll back with it, and the dispatcher moves them to the job queue afterwards,
 * so a crash between commit and enqueue loses nothing. The features build their events' `data`
 * (`datasets/DatasetEvents.ts`, `records/RecordEvents.ts`), and only for events some enabled webhook `wants`:
 * with none, a change costs a cache lookup.
 */
import { Effect } from "effect"
import type { WebhookEventType } from "../../domain/Webhook.js"
import { now } from "../clock.js"
import { newId } from "../ids.js"
import type { Json, QueueName } from "../jobs/model.js"
import { type OutboxRow, OutboxRepo } from "./OutboxRepo.js"
import { Subscriptions } from "./Subscriptions.js"

export interface Emitted {
  readonly type: WebhookEventType
  readonly data: unknown
}

/** As the `Timestamp` schema encodes: ISO-8601 without the zone suffix (event data goes to the outbox as text). */
export const naive = (at: Date): string => at.toISOString().slice(0, -1)

export const stamps = (row: { readonly inserted_at: Date; readonly updated_at: Date }) => ({
  inserted_at: naive(row.inserted_at),
  updated_at: naive(row.updated_at)
})

export class Events extends Effect.Service<Events>()("Gloss/Events", {
  effect: Effect.gen(function*() {
    const outbox = yield* OutboxRepo
    const subscriptions = yield* Subscriptions

    /** Whether any enabled webhook wants `type` (cached): ask before building the data. */
    const wants = (type: WebhookEventType) => subscriptions.wants(type)

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

    return { wants, write, enqueueAfterCommit } as const
  }),
  dependencies: [OutboxRepo.Default, Subscriptions.Default]
}) {}
