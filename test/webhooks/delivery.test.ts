/**
 * Delivery as a receiver sees it, on every queue: retries while it is down, misbehaves or answers 5xx/429; a
 * final failure on other 4xx; `GET /jobs/{id}` following each delivery job (one attempt each: a retry is a job of
 * its own); the request that caused an event never waits for its delivery.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { datasetPath, draftDataset, publishedDataset, send } from "../support/datasets.js"
import { unique } from "../support/fixtures.js"
import { DeliverWebhook, DeliverWebhookBurst } from "../../src/services/webhooks/deliveryJob.js"
import { hook, removeAllHooks } from "./support/hooks.js"
import { distinct, ok } from "./support/receiver.js"
import { backends, eventually, jobIds, SuiteLive, TheReceiver } from "./support/setup.js"

const statusOf = (id: string) =>
  Effect.map(send("GET", `/api/v1/jobs/${id}`), (response) => (response.body as { status?: string }).status ?? `HTTP ${response.status}`)
const statusesOf = (ids: ReadonlyArray<string>) => Effect.forEach(ids, statusOf)

/** The delivery jobs enqueued since `before` (a snapshot of `jobIds`), once there are `count` of them. */
const newJobs = (before: ReadonlyArray<string>, count: number) =>
  eventually(
    Effect.map(jobIds(DeliverWebhook), (ids) => ids.filter((id) => !before.includes(id))),
    (ids) => ids.length >= count,
    `${count} new delivery job(s)`
  )

const allAre = (status: string) => (statuses: ReadonlyArray<string>) => statuses.every((s) => s === status)

for (const backend of backends) {
  describe(backend, () => {
    // Two workers in the server (the default); attempts time out after 10 s (only the hang test waits for that).
    layer(SuiteLive(backend, { GLOSS_JOB_WORKERS: "2" }, { timeout: Duration.seconds(10) }), { excludeTestServices: true, timeout: 180_000 })(
      "webhook delivery",
      (it) => {
        it.effect("GET /jobs/{id} follows a delivery: queued, started while the receiver works, finished", () =>
          Effect.gen(function*() {
            const receiver = yield* TheReceiver
            yield* removeAllHooks
            const path = unique("life")
            yield* hook(receiver, path, ["dataset.created"])
            receiver.setMode(path, { _tag: "hold" })
            const before = yield* jobIds(DeliverWebhook)
            // Three deliveries for two workers: two are held by the receiver, the third waits its turn.
            for (let i = 0; i < 3; i++) yield* draftDataset()
            const ids = yield* newJobs(before, 3)
            const waiting = yield* eventually(
              statusesOf(ids),
              (statuses) => statuses.filter((s) => s === "started").length === 2 && statuses.includes("queued"),
              "two started, one queued"
            )
            expect([...waiting].sort()).toEqual(["queued", "started", "started"])
            receiver.setMode(path, ok)
            receiver.release()
            yield* eventually(statusesOf(ids), allAre("finished"), "all finished")
            expect(distinct(receiver.at(path))).toHaveLength(3)
          }), 120_000)

        it.effect("5xx and 429 are retried after the webhook's back-off, with the same webhook-id; another 4xx is not retried", () =>
          Effect.gen(function*() {
            const receiver = yield* TheReceiver
            for (const status of [503, 429]) {
              const path = unique(`retry-${status}`)
              yield* removeAllHooks
              yield* hook(receiver, path, ["dataset.created"])
              receiver.setMode(path, { _tag: "status", status })
              const before = yield* jobIds(DeliverWebhook)
              yield* draftDataset()
              // The failed attempt's job finishes; the retry is a job of its own, delayed by the back-off.
              const [first] = yield* newJobs(before, 1)
              yield* eventually(statusesOf([first ?? ""]), allAre("finished"), "the first attempt done")
              yield* newJobs(before, 2)
              yield* eventually(Effect.sync(() => receiver.at(path)), (list) => list.length >= 2, "a second attempt")
              const tried = receiver.at(path).length
              receiver.setMode(path, ok)
              yield* eventually(Effect.sync(() => receiver.at(path)), (list) => list.length > tried, "delivered once the receiver recovers")
              yield* eventually(newJobs(before, 2).pipe(Effect.flatMap(statusesOf)), allAre("finished"), "no delivery left")
              // Every attempt carried the same id, so the receiver can tell they are one message.
              expect(distinct(receiver.at(path))).toHaveLength(1)
            }
            const path = unique("gone")
            yield* removeAllHooks
            yield* hook(receiver, path, ["dataset.created"])
            receiver.setMode(path, { _tag: "status", status: 410 })
            const before = yield* jobIds(DeliverWebhook)
            yield* draftDataset()
            const [id] = yield* newJobs(before, 1)
            yield* eventually(statusesOf([id ?? ""]), allAre("finished"), "the attempt done")
            // No follow-up was enqueued (it would have been, before the job finished).
            expect((yield* jobIds(DeliverWebhook)).filter((job) => !before.includes(job))).toHaveLength(1)
            expect(receiver.at(path)).toHaveLength(1)
          }), 120_000)

        it.effect("receiver down, then up: every event arrives", () =>
          Effect.gen(function*() {
            const receiver = yield* TheReceiver
            yield* removeAllHooks
            const path = unique("down")
            yield* hook(receiver, path, ["dataset.created", "dataset.updated"])
            const port = receiver.port
            yield* Effect.promise(() => receiver.down())
            const before = yield* jobIds(DeliverWebhook)
            const datasets = []
            for (let i = 0; i < 3; i++) {
              const dataset = yield* draftDataset()
              expect((yield* send("PATCH", `/api/v1/datasets/${dataset.id}`, { guidelines: `v${i}` })).status).toBe(200)
              datasets.push(dataset.id)
            }
            // Connection refused: the deliveries wait out the webhook's back-off, as jobs enqueued again.
            yield* newJobs(before, 7)
            yield* Effect.promise(() => receiver.up(port))
            const arrived = yield* eventually(
              Effect.sync(() => distinct(receiver.at(path))),
              (list) => list.length >= 6,
              "the six events"
            )
            expect(arrived.every((d) => d.verifyError === undefined)).toBe(true)
            const seen = arrived.map((d) => `${d.event?.type} ${String(d.event?.data.id)}`).sort()
            expect(seen).toEqual(datasets.flatMap((id) => [`dataset.created ${id}`, `dataset.updated ${id}`]).sort())
          }), 120_000)

        it.effect("a burst of events (a bulk write) is one job; the events it cannot deliver wait in one job, retried with the same webhook-ids", () =>
          Effect.gen(function*() {
            const receiver = yield* TheReceiver
            yield* removeAllHooks
            const path = unique("burst")
            yield* hook(receiver, path, ["record.created"])
            receiver.setMode(path, { _tag: "status", status: 503 })
            const bursts = yield* jobIds(DeliverWebhookBurst)
            const singles = yield* jobIds(DeliverWebhook)
            const dataset = yield* publishedDataset()
            const created = yield* send("POST", datasetPath(dataset, "/records/bulk"), {
              items: Array.from({ length: 12 }, (_, i) => ({ fields: { text: `record ${i}` } }))
            })
            expect(created.status).toBe(201)
            // The burst finishes; its twelve failed sends are handed, together, to a burst job of their own.
            yield* eventually(
              Effect.map(jobIds(DeliverWebhookBurst), (ids) => ids.filter((id) => !bursts.includes(id))),
              (ids) => ids.length >= 2,
              "the burst job and its follow-up"
            )
            expect(receiver.at(path).length).toBeGreaterThanOrEqual(12)
            expect(yield* jobIds(DeliverWebhook)).toEqual(singles)
            receiver.setMode(path, ok)
            const arrived = yield* eventually(Effect.sync(() => distinct(receiver.at(path))), (list) => list.length >= 12, "all twelve")
            expect(arrived).toHaveLength(12)
            // Every event was sent at least twice (by the burst, then by its follow-up), always under one webhook-id.
            yield* eventually(Effect.sync(() => receiver.at(path)), (list) => list.length >= 24, "each event sent again")
            expect(new Set(receiver.at(path).map((d) => d.messageId)).size).toBe(12)
          }), 120_000)

        it.effect("a receiver answering bytes that are not HTTP is retried; a 200 with any body is delivered", () =>
          Effect.gen(function*() {
            const receiver = yield* TheReceiver
            yield* removeAllHooks
            const path = unique("garbage")
            yield* hook(receiver, path, ["dataset.created"])
            receiver.setMode(path, { _tag: "garbage" })
            const dataset = yield* draftDataset()
            yield* eventually(Effect.sync(() => receiver.at(path)), (list) => list.length >= 2, "retried after garbage")
            const tried = receiver.at(path).length
            receiver.setMode(path, { _tag: "status", status: 200, body: "<<<not json, not anything>>>" })
            yield* eventually(Effect.sync(() => receiver.at(path)), (list) => list.length > tried, "delivered")
            expect(distinct(receiver.at(path)).map((d) => d.event?.data.id)).toEqual([dataset.id])
          }), 120_000)
      }
    )
  })
}
