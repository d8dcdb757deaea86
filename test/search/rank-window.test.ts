/**
 * GLOSS_SEARCH_RANK_WINDOW on the built-in engine: a text search ranks only the first N matches that pass its
 * filters, so a common word does not score every record. Pages stay complete (past the window they are ranked from
 * every match), totals count every match up to the bound, and the window's pages agree with each other. And
 * GLOSS_SEARCH_TRACK_TOTAL_HITS: totals exact up to the bound, a lower bound (`gte`) past it, never below what the
 * pages have shown.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { TestServerLive } from "../support/server.js"

type Page = { items: Array<{ record: { external_id: string }; query_score: number | null }>; total: number; total_relation: string }

/**
 * 40 records that all say "word"; record i says it i % 4 + 1 times; `kind` is "rare" for 3 of them, the last ones;
 * `half` is "odd" for the odd ones.
 */
const corpus = Effect.gen(function*() {
  const dataset = yield* draftDataset()
  const post = (kind: string, body: unknown) => send("POST", datasetPath(dataset, `/${kind}`), body)
  yield* post("fields", { name: "text", title: "Text", required: true, settings: { type: "text" } })
  yield* post("questions", {
    name: "ok", title: "OK", required: true, settings: { type: "label_selection", options: [{ value: "y", text: "Y" }, { value: "n", text: "N" }] }
  })
  yield* post("metadata-properties", { name: "kind", title: "Kind", settings: { type: "terms" } })
  yield* post("metadata-properties", { name: "half", title: "Half", settings: { type: "terms" } })
  expect((yield* send("PUT", datasetPath(dataset, "/publish"))).status).toBe(200)
  const items = Array.from({ length: 40 }, (_, i) => ({
    external_id: `r${i}`,
    fields: { text: `${"word ".repeat((i % 4) + 1)}filler text ${i}` },
    metadata: { kind: i >= 37 ? "rare" : "common", half: i % 2 === 1 ? "odd" : "even" }
  }))
  expect((yield* post("records/bulk", { items })).status).toBe(201)
  return dataset
})

const search = (dataset: Parameters<typeof datasetPath>[0], body: unknown, query = "") =>
  Effect.map(send("POST", datasetPath(dataset, `/records/search${query}`), body), (r) => r.body as Page)

for (const dialect of dialects) {
  describe(dialect, () => {
    layer(TestServerLive(dialect, { GLOSS_SEARCH_ENGINE: "database", GLOSS_SEARCH_RANK_WINDOW: "8" }), {
      excludeTestServices: true,
      timeout: 60_000
    })("rank window", (it) => {

      it.effect("ranks the window best first, counts every match, and ranks every match past the window", () =>
        Effect.gen(function*() {
          const dataset = yield* corpus
          const first = yield* search(dataset, { query: { text: { q: "word" } } }, "?limit=4")
          // The total counts all 40 matches, not the 8 ranked.
          expect(first.total).toBe(40)
          expect(first.total_relation).toBe("eq")
          const scores = first.items.map((hit) => hit.query_score ?? 0)
          expect([...scores].sort((a, b) => b - a)).toEqual(scores)
          // The window's next page continues it: no record twice.
          const second = yield* search(dataset, { query: { text: { q: "word" } } }, "?limit=4&offset=4")
          const seen = [...first.items, ...second.items].map((hit) => hit.record.external_id)
          expect(new Set(seen).size).toBe(8)
          // Only the last 3 records pass this filter, and none of them is in the first 8 matches: the window holds
          // the first that pass.
          const rare = yield* search(dataset, {
            query: { text: { q: "word" } },
            filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "kind" }, values: ["rare"] }] }
          })
          expect(rare.items.map((hit) => hit.record.external_id).sort()).toEqual(["r37", "r38", "r39"])
          expect(rare.total).toBe(3)
          // Past the window, pages still come (from every match ranked).
          const deep = yield* search(dataset, { query: { text: { q: "word" } } }, "?limit=10&offset=35")
          expect(deep.items).toHaveLength(5)
          expect(deep.total).toBe(40)
        }))

      it.effect("the window holds the first matches that pass the filters, not the first matches", () =>
        Effect.gen(function*() {
          const dataset = yield* corpus
          const odd = yield* search(dataset, {
            query: { text: { q: "word" } },
            filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "half" }, values: ["odd"] }] }
          }, "?limit=8")
          // The window is r1, r3, … r15 (the first 8 odd records): those saying "word" 4 times first (i % 4 = 3), then
          // those saying it twice, each in insertion order. A window of the first 8 matches would have held only
          // r1, r3, r5, r7, and widened to every match: r3, r7, … r31.
          expect(odd.items.map((hit) => hit.record.external_id)).toEqual(["r3", "r7", "r11", "r15", "r1", "r5", "r9", "r13"])
          expect([odd.total, odd.total_relation]).toEqual([20, "eq"])
        }))
    })

    layer(TestServerLive(dialect, { GLOSS_SEARCH_ENGINE: "database", GLOSS_SEARCH_RANK_WINDOW: "8", GLOSS_SEARCH_TRACK_TOTAL_HITS: "5" }), {
      excludeTestServices: true,
      timeout: 60_000
    })("rank window and a smaller bound", (it) => {
      it.effect("the window's count is the total: nothing is counted twice", () =>
        Effect.gen(function*() {
          const dataset = yield* corpus
          const first = yield* search(dataset, { query: { text: { q: "word" } } }, "?limit=4")
          expect(first.items).toHaveLength(4)
          expect([first.total, first.total_relation]).toEqual([5, "gte"])
          // A page that reaches past the window: ranked from every match, the total as the pages show it.
          const deep = yield* search(dataset, { query: { text: { q: "word" } } }, "?limit=4&offset=6")
          expect(deep.items).toHaveLength(4)
          expect([deep.total, deep.total_relation]).toEqual([10, "gte"])
          // Fewer pass than the window holds: exact, under the bound too.
          const rare = yield* search(dataset, {
            query: { text: { q: "word" } },
            filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "kind" }, values: ["rare"] }] }
          })
          expect([rare.total, rare.total_relation]).toEqual([3, "eq"])
        }))
    })

    layer(TestServerLive(dialect, { GLOSS_SEARCH_ENGINE: "database", GLOSS_SEARCH_TRACK_TOTAL_HITS: "10" }), {
      excludeTestServices: true,
      timeout: 60_000
    })("track total hits", (it) => {

      it.effect("counts exactly up to the bound, answers a lower bound past it", () =>
        Effect.gen(function*() {
          const dataset = yield* corpus
          const word = { query: { text: { q: "word" } } }
          const first = yield* search(dataset, word, "?limit=4")
          expect([first.total, first.total_relation]).toEqual([10, "gte"])
          // Under the bound: exact.
          const rare = yield* search(dataset, {
            ...word,
            filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "kind" }, values: ["rare"] }] }
          })
          expect([rare.total, rare.total_relation]).toEqual([3, "eq"])
          // Paged past the bound: at least as many as the pages have shown.
          const deep = yield* search(dataset, word, "?limit=10&offset=20")
          expect(deep.items).toHaveLength(10)
          expect([deep.total, deep.total_relation]).toEqual([30, "gte"])
          // Without a text query too (every record of the dataset).
          const all = yield* search(dataset, {}, "?limit=4")
          expect([all.total, all.total_relation]).toEqual([10, "gte"])
        }))

      it.effect("a sorted page is the same whether its matches fit under the bound (one read) or not (read again)", () =>
        Effect.gen(function*() {
          const dataset = yield* corpus
          const half = (order: "asc" | "desc") => [{ scope: { entity: "metadata", metadata_property: "half" }, order }]
          const ids = (page: Page) => page.items.map((item) => item.record.external_id)
          // Three matches, under the bound of 10: the page and its total come from one read of them.
          const rare = yield* search(dataset, {
            filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "kind" }, values: ["rare"] }] },
            sort: half("asc")
          })
          expect(ids(rare)).toEqual(["r38", "r37", "r39"])
          expect([rare.total, rare.total_relation]).toEqual([3, "eq"])
          // Forty, past it: the page is ordered from every match, odd ones first, then in the order they were added.
          const every = yield* search(dataset, { sort: half("desc") }, "?limit=4&offset=2")
          expect(ids(every)).toEqual(["r5", "r7", "r9", "r11"])
          expect([every.total, every.total_relation]).toEqual([10, "gte"])
          const deep = yield* search(dataset, { sort: half("desc") }, "?limit=4&offset=20")
          expect(ids(deep)).toEqual(["r0", "r2", "r4", "r6"])
        }))
    })

    layer(TestServerLive(dialect, { GLOSS_SEARCH_ENGINE: "database", GLOSS_SEARCH_TRACK_TOTAL_HITS: "0" }), {
      excludeTestServices: true,
      timeout: 60_000
    })("track total hits 0", (it) => {
      it.effect("counts every match exactly", () =>
        Effect.gen(function*() {
          const dataset = yield* corpus
          const page = yield* search(dataset, { query: { text: { q: "word" } } }, "?limit=4")
          expect([page.total, page.total_relation]).toEqual([40, "eq"])
        }))
    })
  })
}
