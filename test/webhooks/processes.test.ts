/**
 * Deliveries across processes, on every queue: a receiver that hangs never holds up requests; two worker processes
 * never deliver one job twice; a server stopped after a commit (before dispatch, or mid-delivery) loses nothing,
 * and a redelivery carries the same `webhook-id`.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { type Context, Duration, Effect, Exit, Layer, Scope } from "effect"
import { DeliverWebhook, DeliverWebhookBurst } from "../../src/services/webhooks/deliveryJob.js"
import { messageIdFor } from "../../src/services/webhooks/signing.js"
import { datasetPath, draftDataset, publishedDataset, send } from "../support/datasets.js"
import { unique } from "../support/fixtures.js"
import { hook, removeAllHooks } from "./support/hooks.js"
import { distinct, ok } from "./support/receiver.js"
import { backends, BareSuiteLive, eventually, jobIds, serverProcess, Setup, SuiteLive, TheReceiver, workerProcess } from "./support/setup.js"

const statusesOf = (ids: ReadonlyArray<string>) =>
  Effect.forEach(ids, (id) =>
    Effect.map(send("GET", `/api/v1/jobs/${id}`), (response) => (response.body as { status?: string }).status ?? ""))
const allFinished = (statuses: ReadonlyArray<string>) => statuses.every((status) => status === "finished")

for (const backend of backends) {
  describe(backend, () => {
    layer(SuiteLive(backend, {}, { timeout: Duration.millis(500) }), { excludeTestServices: true, timeout: 180_000 })("a hanging receiver", (it) => {
      it.effect("times out, is retried with the same webhook-id, and never holds up the requests that caused events", () =>
        Effect.gen(function*() {
          const receiver = yield* TheReceiver
          yield* removeAllHooks
          const path = unique("hang")
          yield* hook(receiver, path, ["dataset.created", "dataset.updated"])
          receiver.setMode(path, { _tag: "hang" })
          const before = yield* jobIds(DeliverWebhook)
          const dataset = yield* draftDataset()
          yield* eventually(Effect.sync(() => receiver.at(path)), (list) => list.length >= 2, "a timed-out attempt retried")
          // While deliveries hang, requests are answered as usual.
          expect((yield* send("PATCH", datasetPath(dataset), { guidelines: "still answering" })).status).toBe(200)
          const created = receiver.at(path).filter((d) => d.event?.type === "dataset.created")
          expect(new Set(created.map((d) => d.messageId)).size).toBe(1)
          receiver.setMode(path, ok)
          const hung = receiver.at(path).length
          // Each timed-out attempt's job finished; the retries are jobs of their own, delivered once the receiver answers.
          const delivered = yield* eventually(
            Effect.sync(() => receiver.at(path).slice(hung).map((d) => d.event?.type)),
            (types) => new Set(types).size === 2,
            "both events delivered"
          )
          expect([...new Set(delivered)].sort()).toEqual(["dataset.created", "dataset.updated"])
          const ids = yield* Effect.map(jobIds(DeliverWebhook), (all) => all.filter((id) => !before.includes(id)))
          yield* eventually(statusesOf(ids), allFinished, "every delivery job finished")
        }), 120_000)
    })

    // No workers in the server: the two `gloss worker` processes started by the test do all the work.
    layer(SuiteLive(backend, { GLOSS_JOB_WORKERS: "0" }), { excludeTestServices: true, timeout: 180_000 })("worker processes", (it) => {
      it.scoped("two workers (and three dispatchers) never deliver the same job twice", () =>
        Effect.gen(function*() {
          const setup = yield* Setup
          const receiver = yield* TheReceiver
          yield* removeAllHooks
          const path = unique("workers")
          yield* hook(receiver, path, ["record.created"])
          yield* Layer.build(workerProcess(setup, 2))
          yield* Layer.build(workerProcess(setup, 2))
          const dataset = yield* publishedDataset()
          const created = yield* send("POST", datasetPath(dataset, "/records/bulk"), {
            items: Array.from({ length: 60 }, (_, i) => ({ fields: { text: `record ${i}` } }))
          })
          const ids = (created.body as { items: Array<{ id: string }> }).items.map((record) => record.id)
          // 60 events of one bulk write to one webhook go out as burst jobs (a job per event below `burstFrom`).
          yield* eventually(Effect.sync(() => receiver.at(path)), (list) => list.length >= 60, "60 deliveries")
          const jobs = [...yield* jobIds(DeliverWebhookBurst), ...yield* jobIds(DeliverWebhook)]
          expect(jobs.length).toBeGreaterThan(0)
          yield* eventually(statusesOf(jobs), allFinished, "every delivery job finished")
          const deliveries = receiver.at(path)
          expect(deliveries.filter((d) => d.verifyError !== undefined)).toEqual([])
          expect(deliveries).toHaveLength(60)
          expect(new Set(deliveries.map((d) => d.messageId)).size).toBe(60)
          expect(deliveries.map((d) => String(d.event?.data.id)).sort()).toEqual([...ids].sort())
        }), 120_000)
    })

    layer(BareSuiteLive(backend), { excludeTestServices: true, timeout: 180_000 })("restarts", (it) => {
      it.scoped("a server stopped after a commit loses no event; a delivery cut short is redelivered with the same webhook-id", () =>
        Effect.gen(function*() {
          const setup = yield* Setup
          const receiver = yield* TheReceiver
          const path = unique("restart")
          const run = <R>(context: Context.Context<R>) => <A, E, R2>(effect: Effect.Effect<A, E, R2>) => Effect.provide(effect, context)

          // Process A commits a dataset and its event, then stops before its dispatcher's next pass.
          const a = yield* Scope.make()
          const inA = run(yield* Layer.buildWithScope(
            serverProcess(setup, { GLOSS_JOB_WORKERS: "0" }, { dispatchInterval: Duration.hours(1) }),
            a
          ))
          const webhook = yield* inA(hook(receiver, path, ["dataset.created"]))
          const dataset = yield* inA(draftDataset())
          const pending = yield* inA(Effect.flatMap(SqlClient.SqlClient, (sql) =>
            Effect.orDie(sql<{ readonly id: string; readonly name: string }>`select id, name from outbox where dispatched_at is null`)))
          expect(pending.map((row) => row.name)).toEqual(["dataset.created"])
          yield* Scope.close(a, Exit.void)
          expect(receiver.at(path)).toEqual([])

          // Process B dispatches it on start-up; it stops while the receiver is still holding the delivery.
          receiver.setMode(path, { _tag: "hold" })
          const b = yield* Scope.make()
          yield* Layer.buildWithScope(serverProcess(setup), b)
          const [first] = yield* eventually(Effect.sync(() => receiver.at(path)), (list) => list.length >= 1, "the first attempt")
          expect(first?.messageId).toBe(messageIdFor(pending[0]?.id ?? "", webhook.id))
          expect(first?.event).toMatchObject({ type: "dataset.created", data: { id: dataset.id } })
          yield* Scope.close(b, Exit.void)

          // Process C delivers it again: same webhook-id, so the receiver can tell it is the same message.
          receiver.setMode(path, ok)
          receiver.release()
          const inC = run(yield* Layer.build(serverProcess(setup)))
          const deliveries = yield* eventually(Effect.sync(() => receiver.at(path)), (list) => list.length >= 2, "the redelivery")
          expect(deliveries.every((d) => d.verifyError === undefined)).toBe(true)
          expect(new Set(deliveries.map((d) => d.messageId))).toEqual(new Set([first?.messageId]))
          const jobs = yield* inC(jobIds(DeliverWebhook))
          expect(jobs).toHaveLength(1)
          yield* inC(eventually(statusesOf(jobs), allFinished, "finished"))
          yield* inC(removeAllHooks)
        }), 120_000)
    })
  })
}
