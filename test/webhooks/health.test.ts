/**
 * A failing receiver: its webhook is backed off as a whole (the events wait instead of each spending its
 * attempts), disabled after `disableAfter` consecutive failures with the reason in the API, and enabled again by its
 * owner; every failed attempt is one log line, never a stack trace.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { WebhookId } from "../../src/domain/Ids.js"
import { WebhookDelivery } from "../../src/services/webhooks/Delivery.js"
import { DeliverWebhook, DeliverWebhookBurst } from "../../src/services/webhooks/deliveryJob.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { dialects } from "../support/databases.js"
import { unique } from "../support/fixtures.js"
import { hook, removeAllHooks } from "./support/hooks.js"
import { captureLogs, deliveryOn, idleServer } from "./support/deliveryOn.js"
import { ok } from "./support/receiver.js"
import { BareSuiteLive, eventually, jobIds, Setup, SuiteLive, TheReceiver } from "./support/setup.js"

type Json = Record<string, unknown>
const webhookNamed = (id: string) =>
  Effect.map(send("GET", "/api/v1/webhooks"), (r) => (r.body as { items: Array<Json> }).items.find((w) => w.id === id))

const DISABLE_AFTER = 3

const event = (n: number) => ({
  eventId: crypto.randomUUID(),
  messageId: `msg_event${String(n).padStart(18, "0")}`,
  type: "dataset.created",
  body: JSON.stringify({ n }),
  attempt: 1
})

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(SuiteLive(dialect, {}, { disableAfter: DISABLE_AFTER }), { excludeTestServices: true, timeout: 180_000 })("a failing webhook", (it) => {
      it.effect(`is backed off as a whole, disabled after ${DISABLE_AFTER} consecutive failures (reason in the API), and re-enabled by its owner`, () =>
        Effect.gen(function*() {
          const receiver = yield* TheReceiver
          yield* removeAllHooks
          const path = unique("failing")
          const webhook = yield* hook(receiver, path, ["record.created"])
          receiver.setMode(path, { _tag: "status", status: 503 })
          const dataset = yield* publishedDataset()
          const records = (count: number) =>
            send("POST", datasetPath(dataset, "/records/bulk"), {
              items: Array.from({ length: count }, (_, i) => ({ fields: { text: `record ${i}` } }))
            })
          expect((yield* records(20)).status).toBe(201)

          const disabled = yield* eventually(webhookNamed(webhook.id), (w) => w?.enabled === false, "the webhook disabled")
          expect(disabled).toMatchObject({
            enabled: false,
            consecutive_failures: DISABLE_AFTER,
            last_error: "HTTP 503",
            disabled_reason: `Disabled by Gloss after ${DISABLE_AFTER} consecutive failed deliveries; the last: HTTP 503`
          })
          expect(typeof disabled?.last_failure_at).toBe("string")
          // The first burst tried the 20 events; after that, one request per back-off window (the probe), not one
          // per event and attempt.
          const jobs = [...yield* jobIds(DeliverWebhookBurst), ...yield* jobIds(DeliverWebhook)]
          yield* eventually(
            Effect.forEach(jobs, (id) => Effect.map(send("GET", `/api/v1/jobs/${id}`), (r) => (r.body as Json).status)),
            (statuses) => statuses.every((status) => status === "finished"),
            "the waiting deliveries dropped"
          )
          expect(receiver.at(path).length).toBeLessThanOrEqual(20 + DISABLE_AFTER - 1)

          // Its owner turns it back on: the count starts again, and new events are delivered.
          receiver.setMode(path, ok)
          const enabled = yield* send("PATCH", `/api/v1/webhooks/${webhook.id}`, { enabled: true })
          expect(enabled.status).toBe(200)
          expect(enabled.body).toMatchObject({ enabled: true, consecutive_failures: 0, disabled_reason: null, last_error: "HTTP 503" })
          const before = receiver.at(path).length
          expect((yield* records(1)).status).toBe(201)
          const [delivered] = yield* eventually(
            Effect.sync(() => receiver.at(path).slice(before)),
            (list) => list.length >= 1,
            "a delivery after re-enabling"
          )
          expect(delivered?.event?.type).toBe("record.created")
          expect(yield* webhookNamed(webhook.id)).toMatchObject({ enabled: true, consecutive_failures: 0 })
          yield* removeAllHooks
        }), 120_000)
    })

    layer(BareSuiteLive(dialect), { excludeTestServices: true, timeout: 180_000 })("failed deliveries", (it) => {
      it.scoped("are logged one line each (webhook, host, event, attempt, status or error code), without a stack trace; a backed-off webhook is not sent to", () =>
        Effect.gen(function*() {
          const setup = yield* Setup
          const receiver = yield* TheReceiver
          const inServer = yield* idleServer
          const failing = unique("503")
          const gone = unique("410")
          const hook503 = yield* inServer(hook(receiver, failing, ["dataset.created"]))
          const hook410 = yield* inServer(hook(receiver, gone, ["dataset.created"]))
          const refused = (yield* inServer(send("POST", "/api/v1/webhooks", { url: "http://127.0.0.1:1/closed", events: ["dataset.created"] })))
            .body as { id: string }
          receiver.setMode(failing, { _tag: "status", status: 503 })
          receiver.setMode(gone, { _tag: "status", status: 410 })

          const logs = captureLogs()
          // A back-off longer than the test: the webhook that failed is certainly still backed off below.
          const worker = yield* Layer.build(deliveryOn(setup, {}, { webhooks: { backoff: Duration.hours(1) } }))
          const deliver = (webhookId: string, n: number) =>
            Effect.flatMap(WebhookDelivery, (delivery) => delivery.deliver({ webhookId: WebhookId.make(webhookId), ...event(n) })).pipe(
              Effect.provide(worker),
              Effect.provide(logs.layer)
            )
          const burst = (webhookId: string, events: ReadonlyArray<ReturnType<typeof event>>) =>
            Effect.flatMap(WebhookDelivery, (delivery) => delivery.deliverBurst({ webhookId: WebhookId.make(webhookId), events })).pipe(
              Effect.provide(worker),
              Effect.provide(logs.layer)
            )
          const followUps = yield* inServer(jobIds(DeliverWebhook))

          yield* deliver(hook503.id, 1)
          yield* deliver(hook410.id, 2)
          yield* burst(refused.id, [event(3), event(4), event(5)])
          // Backed off now: the next event waits (a job enqueued for later), nothing is sent, nothing is logged.
          yield* deliver(hook503.id, 6)
          expect(receiver.at(failing)).toHaveLength(1)

          const lines = logs.lines.filter((line) => line.level !== "DEBUG")
          expect(lines.map((line) => line.level)).toEqual(["WARN", "ERROR", "WARN", "WARN", "WARN"])
          for (const line of lines) {
            expect(line.text).not.toContain("\n")
            expect(line.text).not.toMatch(/\bat .*\(.*:\d+:\d+\)/)
          }
          expect(lines[0]?.text).toMatch(
            new RegExp(`^Webhook delivery failed: webhook=${hook503.id} host=127\\.0\\.0\\.1:${receiver.port} event=dataset\\.created event_id=\\S+ attempt=1/10 error=HTTP 503; retry after 3600 s$`)
          )
          expect(lines[1]?.text).toContain(`webhook=${hook410.id}`)
          expect(lines[1]?.text).toMatch(/attempt=1\/10 error=HTTP 410; not retried$/)
          for (const line of lines.slice(2)) {
            expect(line.text).toMatch(new RegExp(`^Webhook delivery failed: webhook=${refused.id} host=127\\.0\\.0\\.1:1 .* error=ECONNREFUSED; retry after`))
          }
          // The 503's retry and the waiting event are delivery jobs for later (the three refused wait in a burst job);
          // the 410 gets none.
          const enqueued = (yield* inServer(jobIds(DeliverWebhook))).filter((id) => !followUps.includes(id))
          expect(enqueued).toHaveLength(2)
          expect(yield* inServer(webhookNamed(refused.id))).toMatchObject({ consecutive_failures: 1, last_error: "ECONNREFUSED" })
          yield* inServer(removeAllHooks)
        }), 120_000)
    })
  })
}
