/**
 * Where webhooks may post: internal addresses (loopback, private, link-local, metadata…) refused at creation and
 * URL change with a 422 that says why, unless `GLOSS_WEBHOOKS_ALLOWED_HOSTS` lists them; and checked again at
 * delivery, on the address the connection is made to, so neither a changed allow-list nor a changed DNS answer
 * lets a delivery through to an internal address.
 */
import { describe, expect, layer } from "@effect/vitest"
import { type Context, Effect, Layer } from "effect"
import { WebhookId } from "../../src/domain/Ids.js"
import { WebhookDelivery } from "../../src/services/webhooks/Delivery.js"
import { WebhookResolver } from "../../src/services/webhooks/Destinations.js"
import { send } from "../support/datasets.js"
import { dialects } from "../support/databases.js"
import { unique } from "../support/fixtures.js"
import { hook, removeAllHooks } from "./support/hooks.js"
import { captureLogs, deliveryOn, fixedResolver, idleServer } from "./support/deliveryOn.js"
import { BareSuiteLive, serverProcess, Setup, TheReceiver } from "./support/setup.js"

type Json = Record<string, unknown>
const run = <R>(context: Context.Context<R>) => <A, E, R2>(effect: Effect.Effect<A, E, R2>) => Effect.provide(effect, context)

const ANSWERS = {
  "internal.test": ["10.0.0.7"],
  "mixed.test": ["93.184.216.34", "192.168.0.1"],
  "public.test": ["93.184.216.34"],
  "metadata.test": ["fd00:ec2::254"]
}

/** Each refused URL, and what the 422 must name. */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ["http://127.0.0.1:5432/", "127.0.0.1 is a loopback address"],
  ["http://[::1]/hook", "::1 is a loopback address"],
  ["http://localhost:5432/", "localhost resolves to 127.0.0.1, a loopback address"],
  ["http://LOCALHOST./x", "localhost resolves to 127.0.0.1"],
  ["http://2130706433/", "127.0.0.1 is a loopback address"],
  ["http://10.1.2.3/", "10.1.2.3 is a private address"],
  ["http://172.16.0.1/", "172.16.0.1 is a private address"],
  ["http://192.168.1.1/", "192.168.1.1 is a private address"],
  ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"],
  ["http://[fd00:ec2::254]/", "cloud metadata"],
  ["http://[::ffff:127.0.0.1]/", "is a loopback address"],
  ["http://0.0.0.0:6900/", "0.0.0.0 is a unspecified address"],
  ["http://100.64.0.1/", "shared (CGNAT)"],
  ["http://[fe80::1]/", "link-local"],
  ["http://224.0.0.1/", "multicast"],
  ["http://internal.test/hook", "internal.test resolves to 10.0.0.7, a private address"],
  ["http://mixed.test/hook", "mixed.test resolves to 192.168.0.1, a private address"],
  ["https://metadata.test/", "metadata.test resolves to fd00:ec2::254, a cloud metadata address"]
]

const refused = (response: { readonly status: number; readonly body: unknown }, why: string) => {
  expect(response.status).toBe(422)
  const detail = String((response.body as Json).detail)
  expect(detail).toContain("The webhook URL is not allowed")
  expect(detail).toContain(why)
  expect(detail).toContain("GLOSS_WEBHOOKS_ALLOWED_HOSTS")
}

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(BareSuiteLive(dialect), { excludeTestServices: true, timeout: 180_000 })("webhook destinations", (it) => {
      it.scoped("internal URLs are refused at creation and URL change (422 naming why); names that do not resolve are accepted", () =>
        Effect.gen(function*() {
          const setup = yield* Setup
          const inStrict = run(yield* Layer.build(
            serverProcess(setup, { GLOSS_WEBHOOKS_ALLOWED_HOSTS: "", GLOSS_JOB_WORKERS: "0" }).pipe(
              Layer.provide(Layer.succeed(WebhookResolver, fixedResolver(ANSWERS)))
            )
          ))
          yield* inStrict(removeAllHooks)
          for (const [url, why] of REFUSED) {
            refused(yield* inStrict(send("POST", "/api/v1/webhooks", { url, events: ["dataset.created"] })), why)
          }
          expect((yield* inStrict(send("GET", "/api/v1/webhooks"))).body).toEqual({ items: [] })

          // A public address, and a name nobody can resolve yet (checked again at every delivery).
          const publicHook = yield* inStrict(send("POST", "/api/v1/webhooks", { url: "http://public.test/hook", events: ["dataset.created"] }))
          expect(publicHook.status).toBe(201)
          const later = yield* inStrict(send("POST", "/api/v1/webhooks", { url: "https://receiver.example.com/hook", events: ["dataset.created"] }))
          expect(later.status).toBe(201)

          const id = String((publicHook.body as Json).id)
          refused(yield* inStrict(send("PATCH", `/api/v1/webhooks/${id}`, { url: "http://169.254.169.254/" })), "cloud metadata")
          refused(yield* inStrict(send("PATCH", `/api/v1/webhooks/${id}`, { url: "http://localhost/" })), "loopback")
          const listed = (yield* inStrict(send("GET", "/api/v1/webhooks"))).body as { items: Array<Json> }
          expect(listed.items.map((w) => w.url)).toEqual(["http://public.test/hook", "https://receiver.example.com/hook"])
          // Edits that leave the URL alone are not checked again.
          expect((yield* inStrict(send("PATCH", `/api/v1/webhooks/${id}`, { description: "ok" }))).status).toBe(200)
          yield* inStrict(removeAllHooks)
        }), 120_000)

      it.scoped("hosts and ranges listed in GLOSS_WEBHOOKS_ALLOWED_HOSTS are accepted; others still refused", () =>
        Effect.gen(function*() {
          const setup = yield* Setup
          const inListed = run(yield* Layer.build(
            serverProcess(setup, {
              GLOSS_WEBHOOKS_ALLOWED_HOSTS: "127.0.0.1, 10.0.0.0/8, localhost, ::1",
              GLOSS_JOB_WORKERS: "0"
            }).pipe(Layer.provide(Layer.succeed(WebhookResolver, fixedResolver(ANSWERS))))
          ))
          yield* inListed(removeAllHooks)
          for (const url of ["http://127.0.0.1:9/a", "http://10.200.0.1/b", "http://localhost:9/c", "http://[::1]/d", "http://internal.test/e", "http://[::ffff:127.0.0.1]/f"]) {
            expect((yield* inListed(send("POST", "/api/v1/webhooks", { url, events: ["dataset.created"] }))).status).toBe(201)
          }
          refused(yield* inListed(send("POST", "/api/v1/webhooks", { url: "http://192.168.1.1/", events: ["dataset.created"] })), "private")
          refused(yield* inListed(send("POST", "/api/v1/webhooks", { url: "http://127.0.0.2/", events: ["dataset.created"] })), "loopback")
          yield* inListed(removeAllHooks)
        }), 120_000)

      it.scoped("delivery checks the address it connects to: an allow-list changed since creation, or a name now resolving inside, is refused", () =>
        Effect.gen(function*() {
          const setup = yield* Setup
          const receiver = yield* TheReceiver
          // The API server lists the receiver's loopback address, as the suite does.
          const inServer = yield* idleServer
          const path = unique("moved")
          const webhook = yield* inServer(hook(receiver, path, ["dataset.created"]))
          const renamed = unique("renamed")
          const byName = yield* inServer(hook(receiver, renamed, ["dataset.created"], {}))
          // A name that does not resolve at creation (accepted), pointing at the receiver's port.
          const rebound = `http://rebind.test:${receiver.port}/${renamed}`
          expect((yield* inServer(send("PATCH", `/api/v1/webhooks/${byName.id}`, { url: rebound }))).status).toBe(200)

          const job = (webhookId: string) => ({
            webhookId: WebhookId.make(webhookId),
            eventId: crypto.randomUUID(),
            messageId: `msg_${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`,
            type: "dataset.created",
            body: "{}",
            attempt: 1
          })

          // A worker whose allow-list no longer lists loopback, and whose DNS now says rebind.test is loopback.
          const logs = captureLogs()
          const strict = yield* Layer.build(deliveryOn(setup, { GLOSS_WEBHOOKS_ALLOWED_HOSTS: "" }, { resolve: fixedResolver({ "rebind.test": ["127.0.0.1"] }) }))
          yield* Effect.flatMap(WebhookDelivery, (delivery) => delivery.deliver(job(webhook.id))).pipe(Effect.provide(strict), Effect.provide(logs.layer))
          yield* Effect.flatMap(WebhookDelivery, (delivery) => delivery.deliver(job(byName.id))).pipe(Effect.provide(strict), Effect.provide(logs.layer))
          expect(receiver.at(path)).toEqual([])
          expect(receiver.at(renamed)).toEqual([])
          const failures = logs.lines.filter((line) => line.text.startsWith("Webhook delivery failed"))
          expect(failures.map((line) => line.text)).toEqual([
            expect.stringContaining(`webhook=${webhook.id} host=127.0.0.1:${receiver.port} event=dataset.created`),
            expect.stringContaining(`webhook=${byName.id} host=rebind.test:${receiver.port} event=dataset.created`)
          ])
          expect(failures[0]?.text).toContain("refused destination (127.0.0.1 is a loopback address); not retried")
          expect(failures[1]?.text).toContain("refused destination (rebind.test resolves to 127.0.0.1, a loopback address)")
          // The refusal is recorded on the webhook, where its owner sees it.
          const listed = (yield* inServer(send("GET", "/api/v1/webhooks"))).body as { items: Array<Json> }
          expect(listed.items.find((w) => w.id === webhook.id)).toMatchObject({
            consecutive_failures: 1,
            last_error: "refused destination (127.0.0.1 is a loopback address)"
          })
          // Sent elsewhere by its owner, it starts again from no failures (the latest one stays on record).
          const moved = yield* inServer(send("PATCH", `/api/v1/webhooks/${webhook.id}`, { url: receiver.url(unique("elsewhere")) }))
          expect(moved.body).toMatchObject({ consecutive_failures: 0, last_error: "refused destination (127.0.0.1 is a loopback address)" })

          // Listed, the same name is delivered to: the connection goes to the address the check saw. (Its owner's
          // PATCH ends the back-off the refusal started.)
          expect((yield* inServer(send("PATCH", `/api/v1/webhooks/${byName.id}`, { enabled: true }))).status).toBe(200)
          const listedWorker = yield* Layer.build(deliveryOn(setup, {}, { resolve: fixedResolver({ "rebind.test": ["127.0.0.1"] }) }))
          yield* Effect.flatMap(WebhookDelivery, (delivery) => delivery.deliver(job(byName.id))).pipe(Effect.provide(listedWorker))
          expect(receiver.at(renamed)).toHaveLength(1)
          expect(receiver.at(renamed)[0]?.verifyError).toBeUndefined()
          yield* inServer(removeAllHooks)
        }), 120_000)
    })
  })
}
