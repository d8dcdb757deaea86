/**
 * The search text limit holds on Elasticsearch and OpenSearch as on the built-in engine: it is checked when the
 * body is decoded, before any engine is asked (test/http/search-limits.test.ts covers the built-in engine).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SEARCH_TEXT_MAX_CHARACTERS, SEARCH_TEXT_MAX_TERMS } from "../../src/domain/Search.js"
import { datasetPath, publishedDataset, send } from "../support/datasets.js"
import { DeleteDatasetsAtEnd, serverEnv, testEngines } from "../support/searchEngines.js"
import { TestServerLive } from "../support/server.js"

for (const engine of testEngines) {
  describe(`sqlite server on ${engine.name}`, () => {
    layer(DeleteDatasetsAtEnd.pipe(Layer.provideMerge(TestServerLive("sqlite", serverEnv(engine)))), {
      excludeTestServices: true,
      timeout: 120_000
    })("search text limits", (it) => {
      it.effect("a text over the limits is a 422; one at the limits is searched", () =>
        Effect.gen(function*() {
          const dataset = yield* publishedDataset()
          const items = [0, 1, 2].map((i) => ({ external_id: `r${i}`, fields: { text: `alpha beta ${i}` } }))
          expect((yield* send("POST", datasetPath(dataset, "/records/bulk"), { items })).status).toBe(201)
          const search = (q: string) => send("POST", datasetPath(dataset, "/records/search"), { query: { text: { q } } })
          for (const q of ["a".repeat(SEARCH_TEXT_MAX_CHARACTERS + 1), "alpha ".repeat(SEARCH_TEXT_MAX_TERMS + 1)]) {
            const refused = yield* search(q)
            expect(refused.status).toBe(422)
            expect(JSON.stringify(refused.body)).toContain("a search text has at most")
          }
          const found = yield* search("alpha ".repeat(SEARCH_TEXT_MAX_TERMS))
          expect(found.status).toBe(200)
          expect((found.body as { total: number }).total).toBe(3)
        }))
    })
  })
}
