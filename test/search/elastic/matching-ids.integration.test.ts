/**
 * `matchingIds` on the real clusters (what applying answers to every record a search matches relies on): it reads every
 * match in pages of ids (`search_after`), so it is bounded neither by the index's result window nor by the page
 * size. Here the window is shrunk to 10 and the pages are 4 ids, so both are passed many times over.
 */
import * as crypto from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { GlossConfig } from "../../../src/Config.js"
import { DatasetId, ResponseId } from "../../../src/domain/Ids.js"
import { ElasticsearchEngineLive, OpenSearchEngineLive } from "../../../src/services/search/elastic/engine.js"
import { indexName } from "../../../src/services/search/elastic/mapping.js"
import type { IndexedRecord } from "../../../src/services/search/Query.js"
import { SearchEngine } from "../../../src/services/search/SearchEngine.js"
import { sslVerify, testEngines } from "../../support/searchEngines.js"
import { query, record, records, schema, scopes, USER } from "./fixtures.js"

const LAYERS = { elasticsearch: ElasticsearchEngineLive, opensearch: OpenSearchEngineLive } as const
const COUNT = 45

/** Record i: metadata source "web" for 3 in 5; USER has answered every fourth. */
const corpus: ReadonlyArray<IndexedRecord> = records(COUNT).map((base, i) =>
  record(base.id, {
    metadata: { source: i % 5 < 3 ? "web" : "book" },
    responses: i % 4 === 0
      ? [{ id: ResponseId.make(crypto.randomUUID()), user_id: USER, status: "submitted", values: null }]
      : []
  })
)
const idsWhere = (keep: (i: number) => boolean) => corpus.filter((_, i) => keep(i)).map((r) => r.id).sort()

/** Sets the index's `max_result_window` (past Gloss, straight to the cluster). */
const shrinkWindow = (url: string, index: string, window: number) =>
  Effect.promise(async () => {
    const base = new URL(url)
    const auth = base.username === ""
      ? {}
      : { authorization: `Basic ${btoa(`${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`)}` }
    base.username = ""
    base.password = ""
    const response = await fetch(new URL(`/${index}/_settings`, base), {
      method: "PUT",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ index: { max_result_window: window } })
    })
    if (!response.ok) throw new Error(`setting max_result_window answered ${response.status}: ${await response.text()}`)
  })

for (const { flavor, name, url } of testEngines) {
  const live = LAYERS[flavor].pipe(
    Layer.provide(GlossConfig.fromRecord({ GLOSS_ELASTICSEARCH: url, GLOSS_ELASTICSEARCH_SSL_VERIFY: sslVerify }))
  )

  describe(`${name} integration`, () => {
    it.live("matchingIds returns every match past the result window, in pages of ids; filters and the caller apply", () =>
      Effect.gen(function*() {
        const engine = yield* SearchEngine
        const own = { ...schema, datasetId: DatasetId.make(crypto.randomUUID()) }
        yield* Effect.acquireRelease(engine.createIndex(own), () => engine.deleteIndex(own.datasetId))
        yield* engine.indexRecords(own, corpus)
        yield* shrinkWindow(url, indexName(own.datasetId), 10)
        // The window now refuses a deep page, which is what a search by offset would need.
        const deep = yield* Effect.exit(engine.search(own, query({ offset: 20, limit: 10 })))
        expect(deep._tag).toBe("Failure")

        const all = yield* engine.matchingIds(own, query(), { pageSize: 4 })
        expect([...all].sort()).toEqual(idsWhere(() => true))
        expect(new Set(all).size).toBe(COUNT)
        const web = { kind: "terms", scope: scopes.source, values: ["web"] } as const
        expect([...(yield* engine.matchingIds(own, query({ filters: [web] }), { pageSize: 4 }))].sort())
          .toEqual(idsWhere((i) => i % 5 < 3))
        // The caller's pending queue: records USER has not answered (response filters look at USER's responses).
        const pending = { kind: "terms", scope: scopes.responseStatus, values: ["pending"] } as const
        expect([...(yield* engine.matchingIds(own, query({ filters: [web, pending], user: USER }), { pageSize: 7 }))].sort())
          .toEqual(idsWhere((i) => i % 5 < 3 && i % 4 !== 0))
        // A page size that divides the 27 matches exactly: the last page read is empty.
        expect(yield* engine.matchingIds(own, query({ filters: [web] }), { pageSize: 9 })).toHaveLength(27)
      }).pipe(Effect.scoped, Effect.provide(live), Effect.orDie, Logger.withMinimumLogLevel(LogLevel.Warning)))
  })
}
