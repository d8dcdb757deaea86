/**
 * The search contract, written once and run against every engine available here: the built-in
 * engine on SQLite and on PostgreSQL always, and every Elasticsearch and OpenSearch cluster of
 * test/support/searchEngines.ts (scripts/engines.sh starts them).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { dialects } from "../support/databases.js"
import { datasetPath, draftDataset, send } from "../support/datasets.js"
import { userWith, workspace } from "../support/fixtures.js"
import { DeleteDatasetsAtEnd, serverEnv, testEngines } from "../support/searchEngines.js"
import { TestServerLive } from "../support/server.js"

type Json = Record<string, unknown>
type Hit = { record: Json & { id: string; external_id: string; metadata: Json; responses?: Array<Json> }; query_score: number | null }

const setups: Array<{ name: string; dialect: (typeof dialects)[number]; env: Record<string, string> }> = dialects.map((dialect) => ({
  name: `${dialect}/database`,
  dialect,
  env: { GLOSS_SEARCH_ENGINE: "database" }
}))
for (const engine of testEngines) {
  setups.push({ name: `sqlite/${engine.name}`, dialect: "sqlite", env: serverEnv(engine) })
}

const corpus = [
  { external_id: "a", title: "Acme hires engineers in Berlin", source: "web", year: 2019, score: 0.5, emb: [1, 0, 0] },
  { external_id: "b", title: "Berlin weather turns cold", source: ["web", "radio"], year: 2020, score: 0.25, emb: [0.9, 0.1, 0] },
  { external_id: "c", title: "Acme reports record profits", source: "book", year: 2021, score: 0.75, emb: [0, 1, 0] },
  { external_id: "d", title: "A quiet day", source: "book", year: 2022, score: 1.5, emb: [0, 0, 1] },
  { external_id: "e", title: "Engineers strike at Acme", source: "forum", year: 2023, score: 2.25 }
]

const topics: ReadonlyArray<Record<string, unknown>> = [{ topic: "news" }, { topic: ["news", "sports"] }]

/** A published dataset with the corpus, suggestions on `label`, and answers by two annotators. */
const searchable = Effect.gen(function*() {
  const w = yield* workspace()
  const dataset = yield* draftDataset(w)
  const post = (kind: string, body: unknown) => send("POST", datasetPath(dataset, `/${kind}`), body)
  yield* post("fields", { name: "title", title: "Title", required: true, settings: { type: "text" } })
  yield* post("fields", { name: "body", title: "Body", settings: { type: "text" } })
  yield* post("questions", {
    name: "label",
    title: "Label",
    required: true,
    settings: { type: "label_selection", options: [{ value: "yes", text: "Yes" }, { value: "no", text: "No" }] }
  })
  yield* post("questions", { name: "stars", title: "Stars", settings: { type: "rating", options: [1, 2, 3, 4, 5].map((value) => ({ value })) } })
  yield* post("metadata-properties", { name: "source", title: "Source", settings: { type: "terms" } })
  yield* post("metadata-properties", { name: "year", title: "Year", settings: { type: "integer" }, visible_for_annotators: false })
  yield* post("metadata-properties", { name: "score", title: "Score", settings: { type: "float" } })
  // Only the first two records have a topic: the others must not count in its metrics.
  yield* post("metadata-properties", { name: "topic", title: "Topic", settings: { type: "terms" } })
  yield* post("vectors-settings", { name: "emb", title: "Embedding", dimensions: 3 })
  yield* send("PUT", datasetPath(dataset, "/publish"))
  const alice = yield* userWith("annotator", [w])
  const bob = yield* userWith("annotator", [w])
  const created = yield* send("POST", datasetPath(dataset, "/records/bulk"), {
    items: corpus.map((doc, i) => ({
      external_id: doc.external_id,
      fields: { title: doc.title, body: i === 3 ? "Nothing about Acme here" : null },
      metadata: { source: doc.source, year: doc.year, score: doc.score, secret: "hidden", ...topics[i] },
      ...(doc.emb === undefined ? {} : { vectors: { emb: doc.emb } }),
      suggestions: i < 3 ? [{ question_name: "label", value: i % 2 === 0 ? "yes" : "no", score: i / 4, agent: i === 0 ? "model-a" : "model-b" }] : [],
      responses: i === 0
        ? [{ user_id: alice.user.id, status: "submitted", values: { label: { value: "yes" }, stars: { value: 5 } } }]
        : i === 1
        ? [{ user_id: bob.user.id, status: "draft", values: { label: { value: "no" }, stars: { value: 2 } } }]
        : []
    }))
  })
  expect(created.status).toBe(201)
  return { dataset, alice, bob, w }
})

const ids = (body: unknown) => (body as { items: Array<Hit> }).items.map((hit) => hit.record.external_id)

for (const setup of setups) {
  describe(setup.name, () => {
    const server = TestServerLive(setup.dialect, setup.env)
    // On a cluster, the indexes of the datasets go when the suite ends.
    const withCleanup = setup.env.GLOSS_SEARCH_ENGINE === "database" ? server : DeleteDatasetsAtEnd.pipe(Layer.provideMerge(server))
    layer(withCleanup, { excludeTestServices: true, timeout: 120_000 })("search contract", (it) => {
      const search = (path: string, body: unknown, key?: string) => send("POST", path, body, key)

      it.effect("a text query finds records by any field (or one field), best match first, with a score and total", () =>
        Effect.gen(function*() {
          const { dataset } = yield* searchable
          const all = yield* search(datasetPath(dataset, "/records/search"), { query: { text: { q: "acme" } } })
          expect(all.status).toBe(200)
          expect(new Set(ids(all.body))).toEqual(new Set(["a", "c", "d", "e"]))
          expect((all.body as { total: number }).total).toBe(4)
          const scores = (all.body as { items: Array<Hit> }).items.map((hit) => hit.query_score ?? 0)
          expect(scores.every((score) => score > 0)).toBe(true)
          expect([...scores].sort((x, y) => y - x)).toEqual(scores)
          const both = yield* search(datasetPath(dataset, "/records/search"), { query: { text: { q: "Acme engineers" } } })
          expect(new Set(ids(both.body))).toEqual(new Set(["a", "e"]))
          const titleOnly = yield* search(datasetPath(dataset, "/records/search"), { query: { text: { q: "acme", field: "title" } } })
          expect(new Set(ids(titleOnly.body))).toEqual(new Set(["a", "c", "e"]))
          const unknown = yield* search(datasetPath(dataset, "/records/search"), { query: { text: { q: "acme", field: "nope" } } })
          expect(unknown.status).toBe(422)
          expect(unknown.body).toEqual({ detail: `Field 'nope' not found in dataset '${dataset.name}'` })
        }))

      it.effect("filters on record, metadata (terms on scalars and lists, numeric ranges) and suggestions", () =>
        Effect.gen(function*() {
          const { dataset } = yield* searchable
          const filtered = (...and: Array<unknown>) =>
            Effect.map(search(datasetPath(dataset, "/records/search"), { filters: { and } }), (r) => new Set(ids(r.body)))
          expect(yield* filtered({ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web"] })).toEqual(new Set(["a", "b"]))
          expect(yield* filtered({ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["radio", "forum"] })).toEqual(new Set(["b", "e"]))
          expect(yield* filtered({ type: "range", scope: { entity: "metadata", metadata_property: "year" }, ge: 2020, le: 2022 })).toEqual(new Set(["b", "c", "d"]))
          expect(yield* filtered({ type: "range", scope: { entity: "metadata", metadata_property: "score" }, ge: 0.7 })).toEqual(new Set(["c", "d", "e"]))
          expect(yield* filtered({ type: "terms", scope: { entity: "record", property: "external_id" }, values: ["a", "e", "zz"] })).toEqual(new Set(["a", "e"]))
          expect(yield* filtered({ type: "terms", scope: { entity: "record", property: "status" }, values: ["completed"] })).toEqual(new Set(["a"]))
          expect(yield* filtered({ type: "terms", scope: { entity: "suggestion", question: "label" }, values: ["yes"] })).toEqual(new Set(["a", "c"]))
          expect(yield* filtered({ type: "terms", scope: { entity: "suggestion", question: "label", property: "agent" }, values: ["model-b"] })).toEqual(new Set(["b", "c"]))
          expect(yield* filtered({ type: "range", scope: { entity: "suggestion", question: "label", property: "score" }, ge: 0.2 })).toEqual(new Set(["b", "c"]))
          expect(yield* filtered(
            { type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web", "book"] },
            { type: "range", scope: { entity: "metadata", metadata_property: "year" }, le: 2020 }
          )).toEqual(new Set(["a", "b"]))
          const inserted = yield* filtered({ type: "range", scope: { entity: "record", property: "inserted_at" }, ge: "2000-01-01T00:00:00Z" })
          expect(inserted.size).toBe(5)
        }))

      it.effect("response filters: any user's on the global search, the caller's own on /me", () =>
        Effect.gen(function*() {
          const { alice, dataset } = yield* searchable
          const status = (values: Array<string>, path = datasetPath(dataset, "/records/search"), key?: string) =>
            Effect.map(
              search(path, { filters: { and: [{ type: "terms", scope: { entity: "response", property: "status" }, values }] } }, key),
              (r) => new Set(ids(r.body))
            )
          expect(yield* status(["submitted"])).toEqual(new Set(["a"]))
          expect(yield* status(["draft"])).toEqual(new Set(["b"]))
          expect(yield* status(["pending"])).toEqual(new Set(["c", "d", "e"]))
          const mine = `/api/v1/me/datasets/${dataset.id}/records/search`
          expect(yield* status(["pending"], mine, alice.user.api_key)).toEqual(new Set(["b", "c", "d", "e"]))
          expect(yield* status(["draft"], mine, alice.user.api_key)).toEqual(new Set())
          const answered = yield* search(datasetPath(dataset, "/records/search"), {
            filters: { and: [{ type: "terms", scope: { entity: "response", question: "label" }, values: ["no"] }] }
          })
          expect(ids(answered.body)).toEqual(["b"])
          const rated = yield* search(datasetPath(dataset, "/records/search"), {
            filters: { and: [{ type: "range", scope: { entity: "response", question: "stars" }, ge: 3 }] }
          })
          expect(ids(rated.body)).toEqual(["a"])
        }))

      it.effect("sorts (metadata, record, suggestion), pagination with offset and limit, and the total", () =>
        Effect.gen(function*() {
          const { dataset } = yield* searchable
          const sorted = (sort: Array<unknown>, query = "") =>
            Effect.map(search(datasetPath(dataset, `/records/search${query}`), { sort }), (r) => r)
          expect(ids((yield* sorted([{ scope: { entity: "metadata", metadata_property: "year" }, order: "desc" }])).body)).toEqual(["e", "d", "c", "b", "a"])
          expect(ids((yield* sorted([{ scope: { entity: "metadata", metadata_property: "score" }, order: "asc" }])).body)).toEqual(["b", "a", "c", "d", "e"])
          expect(ids((yield* sorted([{ scope: { entity: "record", property: "external_id" }, order: "desc" }])).body)).toEqual(["e", "d", "c", "b", "a"])
          const bySuggestion = yield* sorted([{ scope: { entity: "suggestion", question: "label", property: "score" }, order: "desc" }])
          expect(ids(bySuggestion.body).slice(0, 3)).toEqual(["c", "b", "a"])
          const page = yield* sorted([{ scope: { entity: "metadata", metadata_property: "year" }, order: "asc" }], "?offset=1&limit=2")
          expect(ids(page.body)).toEqual(["b", "c"])
          expect((page.body as { total: number }).total).toBe(5)
        }))

      it.effect("the caller-scoped search: own responses only, visible metadata only, a stable order per user", () =>
        Effect.gen(function*() {
          const { alice, bob, dataset, w } = yield* searchable
          const mine = `/api/v1/me/datasets/${dataset.id}/records/search?include=responses`
          const forAlice = yield* search(mine, {}, alice.user.api_key)
          expect(forAlice.status).toBe(200)
          const items = (forAlice.body as { items: Array<Hit> }).items
          expect(items.length).toBe(5)
          for (const hit of items) {
            expect(hit.record.responses?.every((response) => response.user_id === alice.user.id)).toBe(true)
            // Year is hidden from annotators, `secret` is no property at all; a topic shows where a record has one.
            const topic = topics[corpus.findIndex((doc) => doc.external_id === hit.record.external_id)] ?? {}
            expect(Object.keys(hit.record.metadata).sort()).toEqual(["score", "source", ...Object.keys(topic)])
          }
          expect(ids((yield* search(mine, {}, alice.user.api_key)).body)).toEqual(ids(forAlice.body))
          // Orders differ between users. Two random users can draw the same order of five records (a few per cent),
          // so six members are asked: all six alike is far below one chance in a million.
          const orders = new Set<string>()
          for (const annotator of [alice, bob, ...(yield* Effect.all(Array.from({ length: 4 }, () => userWith("annotator", [w]))))]) {
            const result = yield* search(mine, {}, annotator.user.api_key)
            expect(result.status).toBe(200)
            orders.add(ids(result.body).join(""))
          }
          expect(orders.size).toBeGreaterThan(1)
          expect((yield* search(mine, {}, (yield* userWith("annotator", [])).user.api_key)).status).toBe(403)
          const global = yield* search(datasetPath(dataset, "/records/search"), {}, alice.user.api_key)
          expect(global.status).toBe(403)
        }))

      it.effect("vector search: by value or by record (which is excluded), most and least similar, with filters", () =>
        Effect.gen(function*() {
          const { dataset } = yield* searchable
          const vector = (query: unknown, extra: Json = {}) =>
            search(datasetPath(dataset, "/records/search?limit=3"), { query: { vector: query }, ...extra })
          const near = yield* vector({ name: "emb", value: [1, 0.05, 0] })
          expect(ids(near.body)).toEqual(["a", "b", "c"])
          expect((near.body as { items: Array<Hit> }).items[0]?.query_score).toBeGreaterThan(0.99)
          const far = yield* vector({ name: "emb", value: [1, 0.05, 0], order: "least_similar" })
          expect(ids(far.body)[0]).toBe("d")
          const records = (yield* send("GET", datasetPath(dataset, "/records?limit=10"))).body as { items: Array<Json> }
          const a = records.items.find((r) => r.external_id === "a")
          const e = records.items.find((r) => r.external_id === "e")
          const byRecord = yield* vector({ name: "emb", record_id: a?.id })
          expect(ids(byRecord.body)[0]).toBe("b")
          expect(ids(byRecord.body)).not.toContain("a")
          // c leans towards the query and d is orthogonal to it, so the order is not a tie.
          const filtered = yield* vector({ name: "emb", value: [1, 0.05, 0] }, {
            filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["book"] }] }
          })
          expect(ids(filtered.body)).toEqual(["c", "d"])
          const missing = yield* vector({ name: "emb", record_id: e?.id })
          expect(missing.status).toBe(422)
          expect(missing.body).toEqual({ code: "missing_vector", message: `Record \`${e?.id}\` does not have a vector for vector settings \`emb\`` })
          expect((yield* vector({ name: "emb", record_id: a?.id, value: [1, 0, 0] })).status).toBe(422)
          expect((yield* vector({ name: "emb" })).status).toBe(422)
          const unknown = yield* vector({ name: "nope", value: [1, 0, 0] })
          expect(unknown.body).toEqual({ detail: `Vector 'nope' not found in dataset '${dataset.name}'` })
        }))

      it.effect("422 for unknown metadata properties and questions, and for more than 50 filters or 10 sorts", () =>
        Effect.gen(function*() {
          const { dataset } = yield* searchable
          const path = datasetPath(dataset, "/records/search")
          const unknownMetadata = yield* search(path, { filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "colour" }, values: ["x"] }] } })
          expect(unknownMetadata.body).toEqual({ detail: "MetadataProperty not found filtering by name=colour" })
          const unknownQuestion = yield* search(path, { sort: [{ scope: { entity: "suggestion", question: "nope" }, order: "asc" }] })
          expect(unknownQuestion.body).toEqual({ detail: "Question not found filtering by name=nope" })
          const filter = { type: "terms", scope: { entity: "record", property: "status" }, values: ["pending"] }
          expect((yield* search(path, { filters: { and: Array(50).fill(filter) } })).status).toBe(200)
          expect((yield* search(path, { filters: { and: Array(51).fill(filter) } })).status).toBe(422)
          const sort = { scope: { entity: "record", property: "inserted_at" }, order: "asc" }
          expect((yield* search(path, { sort: Array(11).fill(sort) })).status).toBe(422)
          expect((yield* search(path, { filters: { and: [{ type: "range", scope: { entity: "metadata", metadata_property: "year" } }] } })).status).toBe(422)
        }))

      it.effect("metadata metrics and suggestion agents", () =>
        Effect.gen(function*() {
          const { alice, dataset } = yield* searchable
          const properties = (yield* send("GET", datasetPath(dataset, "/metadata-properties"))).body as { items: Array<{ id: string; name: string }> }
          const metrics = (name: string, key?: string) =>
            send("GET", `/api/v1/metadata-properties/${properties.items.find((p) => p.name === name)?.id}/metrics`, undefined, key)
          const terms = (yield* metrics("source")).body as { type: string; total: number; values: Array<{ term: unknown; count: number }> }
          expect(terms.type).toBe("terms")
          expect(terms.total).toBe(5)
          expect(new Map(terms.values.map((v) => [v.term, v.count]))).toEqual(new Map([["web", 2], ["book", 2], ["radio", 1], ["forum", 1]]))
          const topic = (yield* metrics("topic")).body as typeof terms
          expect(topic.total).toBe(2)
          expect(new Map(topic.values.map((v) => [v.term, v.count]))).toEqual(new Map([["news", 2], ["sports", 1]]))
          expect((yield* metrics("year")).body).toEqual({ type: "integer", min: 2019, max: 2023 })
          expect((yield* metrics("score")).body).toEqual({ type: "float", min: 0.25, max: 2.25 })
          expect((yield* metrics("year", alice.user.api_key)).status).toBe(403)
          const options = yield* send("GET", datasetPath(dataset, "/records/search/suggestions/options"), undefined, alice.user.api_key)
          const items = (options.body as { items: Array<{ question: { name: string }; agents: Array<string> }> }).items
          expect(items.map((i) => [i.question.name, [...i.agents].sort()])).toEqual([["label", ["model-a", "model-b"]], ["stars", []]])
        }))

      it.effect("the index follows every write: new, changed, answered and deleted records", () =>
        Effect.gen(function*() {
          const { alice, dataset } = yield* searchable
          const path = datasetPath(dataset, "/records/search")
          const find = (q: string) => Effect.map(search(path, { query: { text: { q } } }), (r) => ids(r.body))
          yield* send("PUT", datasetPath(dataset, "/records/bulk"), { items: [{ external_id: "f", fields: { title: "Zebra crossing" } }] })
          expect(yield* find("zebra")).toEqual(["f"])
          const records = (yield* send("GET", datasetPath(dataset, "/records?limit=10"))).body as { items: Array<Json> }
          const c = records.items.find((r) => r.external_id === "c")
          yield* send("PATCH", `/api/v1/records/${c?.id}`, { metadata: { source: "radio", year: 2001 } })
          const radio = yield* search(path, { filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["radio"] }] } })
          expect(new Set(ids(radio.body))).toEqual(new Set(["b", "c"]))
          yield* send("POST", `/api/v1/records/${c?.id}/responses`, { status: "submitted", values: { label: { value: "no" } } }, alice.user.api_key)
          const submitted = yield* search(path, { filters: { and: [{ type: "terms", scope: { entity: "response", property: "status" }, values: ["submitted"] }] } })
          expect(new Set(ids(submitted.body))).toEqual(new Set(["a", "c"]))
          yield* send("DELETE", `/api/v1/records/${c?.id}`)
          expect(yield* find("profits")).toEqual([])
          expect((yield* send("DELETE", datasetPath(dataset))).status).toBe(200)
        }))

      it.effect("a draft dataset has nothing to find", () =>
        Effect.gen(function*() {
          const draft = yield* draftDataset()
          const result = yield* search(datasetPath(draft, "/records/search"), { query: { text: { q: "anything" } } })
          expect(result.status).toBe(200)
          expect(result.body).toEqual({ items: [], total: 0, total_relation: "eq" })
        }))

      it.effect("totals are exact up to 10 000 matches; past that the built-in engine answers a lower bound", () =>
        Effect.gen(function*() {
          const dataset = yield* draftDataset()
          yield* send("POST", datasetPath(dataset, "/fields"), { name: "text", title: "Text", required: true, settings: { type: "text" } })
          yield* send("POST", datasetPath(dataset, "/questions"), {
            name: "ok", title: "OK", required: true, settings: { type: "label_selection", options: [{ value: "y", text: "Y" }, { value: "n", text: "N" }] }
          })
          expect((yield* send("PUT", datasetPath(dataset, "/publish"))).status).toBe(200)
          // 10 002 records say "common"; one in two also says "half".
          for (let from = 0; from < 10_002; from += 500) {
            const items = Array.from({ length: Math.min(500, 10_002 - from) }, (_, k) => ({
              fields: { text: (from + k) % 2 === 0 ? "common half" : "common" }
            }))
            const sent = yield* send("POST", datasetPath(dataset, "/records/bulk"), { items })
            expect(sent.status, JSON.stringify(sent.body)).toBe(201)
          }
          const totalOf = (q: string, query = "") =>
            Effect.map(search(datasetPath(dataset, `/records/search${query}`), { query: { text: { q } } }), (r) => {
              const body = r.body as { items: Array<unknown>; total: number; total_relation: string }
              return { items: body.items.length, total: body.total, relation: body.total_relation }
            })
          expect(yield* totalOf("half")).toEqual({ items: 50, total: 5_001, relation: "eq" })
          const common = yield* totalOf("common")
          // Elasticsearch counts exactly here (track_total_hits: true); the built-in engine stops at the bound.
          expect(common.relation === "gte" ? common.total : 10_000).toBe(10_000)
          if (common.relation === "eq") expect(common.total).toBe(10_002)
          // A page at the bound still answers, with the same total (10 000 is also Elasticsearch's deepest page).
          const deep = yield* totalOf("common", "?offset=9950&limit=50")
          expect(deep).toEqual({ ...common, items: 50 })
          expect(yield* totalOf("nothing")).toEqual({ items: 0, total: 0, relation: "eq" })
        }), { timeout: 120_000 })
    })
  })
}
