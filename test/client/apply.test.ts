/**
 * `records.apply`: the caller's answer to every record a search matches, waiting for the server's job;
 * both faces of the client, against a real server.
 */
import { expect, layer } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { Client, type RecordUpsert } from "../../src/client/index.js"
import type { JobProgress } from "../../src/domain/Job.js"
import { publishedDataset } from "../support/datasets.js"
import { OWNER, TestServer, TestServerLive } from "../support/server.js"
import { ownerGloss } from "./support.js"

const records = (count: number): ReadonlyArray<RecordUpsert> =>
  Array.from({ length: count }, (_, i) => ({
    external_id: `r-${i}`,
    fields: { text: i % 3 === 0 ? `apple number ${i}` : `pear number ${i}` }
  }))

layer(TestServerLive("sqlite"), { excludeTestServices: true, timeout: 120_000 })("records.apply", (it) => {
  it.scoped("answers every record the text matches, less the excluded, and returns the job's final progress", () =>
    Effect.gen(function*() {
      const client = yield* ownerGloss()
      const dataset = yield* publishedDataset()
      const { items } = yield* client.records.log(dataset, records(30))
      const seen: Array<JobProgress> = []
      const progress = yield* client.records.apply(
        dataset,
        { status: "submitted", values: { label: { value: "yes" } } },
        { query: "apple", exclude: [items[0]!], pollInterval: "20 millis", onProgress: (p) => seen.push(p) }
      )
      expect(progress).toEqual({ done: 9, total: 9, failed: 0, errors: [] })
      expect(seen.at(-1)).toEqual(progress)
      const submitted = yield* Stream.runCollect(client.records.stream(dataset, {
        filters: { and: [{ type: "terms", scope: { entity: "response", property: "status" }, values: ["submitted"] }] }
      }))
      const expected = items.filter((record, i) => i % 3 === 0 && i !== 0).map((record) => record.id)
      expect(Chunk.toReadonlyArray(submitted).map((record) => record.id).sort()).toEqual([...expected].sort())
    }))

  it.scoped("the Promise face waits too; a bad answer is the server's 422", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const dataset = yield* publishedDataset()
      const client = new Client({ apiUrl: url, apiKey: OWNER.apiKey })
      yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
      yield* Effect.promise(() => client.records.log(dataset, records(6)))
      const progress = yield* Effect.promise(() =>
        client.records.apply(dataset, { status: "draft", values: { label: { value: "no" } } }, { pollInterval: "20 millis" }))
      expect(progress).toEqual({ done: 6, total: 6, failed: 0, errors: [] })
      const refused = yield* Effect.promise(() =>
        client.records.apply(dataset, { status: "submitted", values: {} }).then(() => undefined, (error: unknown) => error))
      expect(refused).toMatchObject({ _tag: "Unprocessable" })
    }))
})
