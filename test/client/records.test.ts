/**
 * Records through the client: `log` upserts in batches of at most 500 with the SDK's
 * normalisation warning and a progress callback, `stream` pages through list or search, `delete` goes by 100.
 * Batch sizes are read off the requests a recording transform sees.
 */
import { UrlParams } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import type { LogProgress, RecordUpsert } from "../../src/client/index.js"
import { publishedDataset } from "../support/datasets.js"
import { TestServerLive } from "../support/server.js"
import { bodyOf, ownerGloss, recording, valueOf, withLogs } from "./support.js"

const records = (count: number, prefix = "r"): ReadonlyArray<RecordUpsert> =>
  Array.from({ length: count }, (_, i) => ({ external_id: `${prefix}-${i}`, fields: { text: `text number ${i}` } }))

const paramsOf = (request: ReturnType<typeof recording>["sent"][number]) =>
  new URLSearchParams(UrlParams.toString(request.urlParams))

/** How many records a bulk request carried. */
const itemsSent = (request: ReturnType<typeof recording>["sent"][number]) => {
  const body = bodyOf(request)
  return typeof body === "object" && body !== null && "items" in body && Array.isArray(body.items) ? body.items.length : -1
}

const requestsTo = (sent: ReturnType<typeof recording>["sent"], method: string, suffix: string) =>
  sent.filter((request) => request.method === method && new URL(request.url).pathname.endsWith(suffix))

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 120_000 })("records", (it) => {
  it.scoped("log: batches of the asked size, progress per batch, created then updated counts", () =>
    Effect.gen(function*() {
      const { sent, transformClient } = recording()
      const client = yield* ownerGloss({ transformClient })
      const dataset = yield* publishedDataset()
      const progress: Array<LogProgress> = []
      const first = yield* client.records.log(dataset, records(7), { batchSize: 3, onProgress: (p) => progress.push(p) })
      expect(first).toMatchObject({ created: 7, updated: 0 })
      expect(first.items.map((r) => r.external_id)).toEqual(records(7).map((r) => r.external_id))
      const bulks = requestsTo(sent, "PUT", "/records/bulk").map(itemsSent)
      expect(bulks).toEqual([3, 3, 1])
      expect(progress).toEqual([
        { batch: 1, batches: 3, sent: 3, total: 7 },
        { batch: 2, batches: 3, sent: 6, total: 7 },
        { batch: 3, batches: 3, sent: 7, total: 7 }
      ])
      const again = yield* withLogs(client.records.log(dataset, records(7)))
      expect(valueOf(again.result)).toMatchObject({ created: 0, updated: 7 })
      // No batch size given: the default (256) shrinks to the 7 records without a word.
      expect(again.warnings).toEqual([])
      expect(again.lines).toContain(`INFO Updated 7 records and added 0 records to dataset ${dataset.name}`)
    }))

  it.scoped("log and delete: a batch size the caller gave is normalised with the SDK's warning; the default is not", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const dataset = yield* publishedDataset()
      // The SDK's rule: the batch is the smallest of the asked size, the records and 500, with a warning if changed.
      const asked = yield* withLogs(client.records.log(dataset, records(7, "asked"), { batchSize: 256 }))
      expect(asked.warnings).toEqual(["The provided batch size 256 was normalized. Using value 7."])
      const fits = yield* withLogs(client.records.log(dataset, records(1, "fits"), { batchSize: 1 }))
      expect(fits.warnings).toEqual([])
      const one = yield* withLogs(client.records.log(dataset, records(1, "one")))
      expect(one.warnings).toEqual([])

      const ids = valueOf(asked.result).items.map((record) => record.id)
      const deletedAsked = yield* withLogs(client.records.delete(dataset, ids.slice(0, 3), { batchSize: 50 }))
      expect(deletedAsked.warnings).toEqual(["The provided batch size 50 was normalized. Using value 3."])
      const deletedDefault = yield* withLogs(client.records.delete(dataset, ids.slice(3)))
      expect(deletedDefault.warnings).toEqual([])
    }))

  it.scoped("log: a batch size over 500 is normalised to 500", () =>
    Effect.gen(function*() {
      const { sent, transformClient } = recording()
      const client = yield* ownerGloss({ transformClient })
      const dataset = yield* publishedDataset()
      const logged = yield* withLogs(client.records.log(dataset, records(510), { batchSize: 1000 }))
      expect(valueOf(logged.result).created).toBe(510)
      expect(logged.warnings).toEqual(["The provided batch size 1000 was normalized. Using value 500."])
      const bulks = requestsTo(sent, "PUT", "/records/bulk").map(itemsSent)
      expect(bulks).toEqual([500, 10])
    }))

  it.scoped("stream: offset pages of batchSize through the list, or through search with a query or filters", () =>
    Effect.gen(function*() {
      const { sent, transformClient } = recording()
      const client = yield* ownerGloss({ transformClient })
      const dataset = yield* publishedDataset()
      yield* client.records.log(dataset, records(7))
      sent.length = 0

      const all = Chunk.toReadonlyArray(yield* Stream.runCollect(client.records.stream(dataset, { batchSize: 3 })))
      expect(all.map((r) => r.external_id).sort()).toEqual(records(7).map((r) => r.external_id).sort())
      const pages = requestsTo(sent, "GET", "/records").map(paramsOf)
      expect(pages.map((p) => [p.get("offset"), p.get("limit")])).toEqual([["0", "3"], ["3", "3"], ["6", "3"]])
      expect(pages[0]?.getAll("include")).toEqual(["responses", "suggestions"])

      sent.length = 0
      const filtered = yield* Stream.runCollect(client.records.stream(dataset, {
        batchSize: 2,
        filters: {
          and: [{ type: "terms", scope: { entity: "record", property: "external_id" }, values: ["r-1", "r-2", "r-3"] }]
        }
      }))
      expect(Chunk.toReadonlyArray(filtered).map((r) => r.external_id).sort()).toEqual(["r-1", "r-2", "r-3"])
      expect(requestsTo(sent, "POST", "/records/search").length).toBe(2)
      expect(requestsTo(sent, "GET", "/records")).toEqual([])
    }))

  it.scoped("delete: batches of at most 100 ids, by id or by record", () =>
    Effect.gen(function*() {
      const { sent, transformClient } = recording()
      const client = yield* ownerGloss({ transformClient })
      const dataset = yield* publishedDataset()
      const { items } = yield* client.records.log(dataset, records(150), { batchSize: 500 })
      sent.length = 0
      const deleted = yield* withLogs(client.records.delete(dataset, [...items.slice(0, 75), ...items.slice(75).map((r) => r.id)]))
      expect(valueOf(deleted.result)).toBe(150)
      const batches = requestsTo(sent, "DELETE", "/records").map((r) => paramsOf(r).get("ids")?.split(",").length)
      expect(batches).toEqual([100, 50])
      expect(deleted.lines).toContain(`INFO Deleted 150 records from dataset ${dataset.name}`)
      const left = yield* Stream.runCollect(client.records.stream(dataset))
      expect(Chunk.size(left)).toBe(0)
    }))
})
