import { createServer } from "node:http"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { raw, TestServerLive } from "../support/server.js"

/** A stand-in for the Hub that records the telemetry requests it gets. */
const fakeHub = () =>
  new Promise<{ url: string; seen: Array<{ method: string; path: string; userAgent: string }> }>((resolve) => {
    const seen: Array<{ method: string; path: string; userAgent: string }> = []
    const server = createServer((request, response) => {
      seen.push({ method: request.method ?? "", path: request.url ?? "", userAgent: request.headers["user-agent"] ?? "" })
      response.writeHead(200).end()
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({ url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`, seen })
    })
  })

const on = await fakeHub()
const disabled = await fakeHub()
const offline = await fakeHub()

const settle = (check: () => boolean) =>
  Effect.promise(async () => {
    const until = Date.now() + 3_000
    while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 25))
  })

describe("telemetry", () => {
  layer(TestServerLive("sqlite", { HF_ENDPOINT: on.url, HF_HUB_DISABLE_TELEMETRY: "0" }), { excludeTestServices: true })("on (the default)", (it) => {
    it.effect("start-up sends one anonymous HEAD to the Hub's telemetry endpoint", () =>
      Effect.gen(function*() {
        yield* settle(() => on.seen.length > 0)
        expect(on.seen).toEqual([{ method: "HEAD", path: "/api/telemetry/gloss/server/start", userAgent: expect.stringMatching(/^gloss\/\d+\.\d+\.\d+; node\//) }])
        expect(on.seen[0]?.userAgent).not.toMatch(/owner|localhost|127\.0\.0\.1/)
      }))

    it.effect("publishing a dataset and a bulk write each send their topic, and nothing about the data", () =>
      Effect.gen(function*() {
        yield* settle(() => on.seen.length > 0)
        const dataset = yield* publishedDataset()
        const written = yield* send("POST", datasetPath(dataset, "/records/bulk"), {
          items: [{ external_id: "secret-record", fields: { text: "confidential words" } }]
        })
        expect(written.status).toBe(201)
        yield* settle(() => on.seen.length >= 3)
        expect(on.seen.map((request) => `${request.method} ${request.path}`)).toEqual([
          "HEAD /api/telemetry/gloss/server/start",
          "HEAD /api/telemetry/gloss/dataset/published",
          "HEAD /api/telemetry/gloss/records/bulk"
        ])
        expect(JSON.stringify(on.seen)).not.toMatch(/secret-record|confidential|owner|[0-9a-f]{8}-[0-9a-f]{4}-/)
      }))
  })

  for (const [name, hub, env] of [
    ["HF_HUB_DISABLE_TELEMETRY=1", disabled, { HF_HUB_DISABLE_TELEMETRY: "1" }],
    ["HF_HUB_OFFLINE=1", offline, { HF_HUB_OFFLINE: "1" }]
  ] as const) {
    layer(TestServerLive("sqlite", { HF_ENDPOINT: hub.url, ...env }), { excludeTestServices: true })(name, (it) => {
      it.effect("nothing is sent, and the server works", () =>
        Effect.gen(function*() {
          expect((yield* raw("/api/v1/version")).status).toBe(200)
          // The server was ready before this test ran; a telemetry request would have been on its way by now.
          yield* Effect.sleep("300 millis")
          expect(hub.seen).toEqual([])
        }))
    })
  }
})
