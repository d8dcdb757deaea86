import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { RecordId } from "../../../src/domain/Ids.js"
import { SearchRecordsQuery } from "../../../src/domain/Search.js"
import {
  MAX_SORT,
  parseSortKey,
  queryFromUrl,
  queueNarrowing,
  type QueueQuery,
  searchBody,
  type SortKey,
  sortKeyId,
  urlParams,
  usesQueue,
  withoutSuggestions
} from "../../src/data/search.js"
import { chipsOf } from "../../src/screens/annotation/filters/Chips.js"
import { highlightParts, searchWords } from "../../src/screens/annotation/filters/highlight.js"
import { sortOptions } from "../../src/screens/annotation/filters/options.js"
import { label, multi, rating, ranking, span, text } from "../fixtures.js"

const RECORD = "3f1e2d4c-5b6a-4789-9abc-def012345678"

/** The URL a view becomes, as the browser would keep it, read back. */
const throughUrl = (query: QueueQuery): QueueQuery => {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(urlParams(query))) if (value !== undefined) params.set(key, value)
  return queryFromUrl(new URLSearchParams(params.toString()))
}

const full: QueueQuery = {
  queue: "submitted",
  text: "acme rocket",
  metadata: { source: { kind: "terms", values: ["web", 3, true] }, length: { kind: "range", ge: 3, le: 10.5 } },
  responses: { sentiment: { kind: "terms", values: ["positive"] }, quality: { kind: "range", ge: 2 } },
  suggestions: {
    sentiment: { values: ["negative"], agents: ["model-a", "model-b"], score: { ge: 0.5, le: 1 } },
    quality: { score: { le: 0.25 } }
  },
  recordStatus: "completed",
  sort: [
    { key: { kind: "metadata", name: "length" }, order: "desc" },
    { key: { kind: "record", property: "inserted_at" }, order: "asc" },
    { key: { kind: "record", property: "updated_at" }, order: "desc" },
    { key: { kind: "record", property: "external_id" }, order: "asc" },
    { key: { kind: "suggestion", question: "sentiment", property: "score" }, order: "desc" },
    { key: { kind: "suggestion", question: "quality", property: "value" }, order: "asc" },
    { key: { kind: "response", question: "quality" }, order: "asc" }
  ],
  similar: { recordId: Schema.decodeSync(RecordId)(RECORD), vector: "embedding", order: "least_similar" }
}

describe("the view in the URL", () => {
  it("every sort key, filter kind and the find-similar query come back from the URL as they went in", () => {
    expect(throughUrl(full)).toEqual(full)
  })

  it("an empty view leaves the URL empty and reads back as the pending queue", () => {
    const empty: QueueQuery = { queue: "pending", text: "", metadata: {} }
    expect(Object.values(urlParams(empty)).filter((v) => v !== undefined)).toEqual([])
    expect(throughUrl(empty)).toEqual({
      queue: "pending", text: "", metadata: {}, responses: {}, suggestions: {}, recordStatus: undefined, sort: [], similar: undefined
    })
  })

  it("the pending queue drops a record-status filter: its body always asks for pending records", () => {
    expect(throughUrl({ ...full, queue: "pending" }).recordStatus).toBeUndefined()
  })

  it("inactive filters are left out of the URL", () => {
    const params = urlParams({
      queue: "draft",
      text: "",
      metadata: { source: { kind: "terms", values: [] } },
      responses: { quality: { kind: "range" } },
      suggestions: { sentiment: { agents: [] } }
    })
    expect([params._metadata, params._response, params._suggestion]).toEqual([undefined, undefined, undefined])
  })

  it("parts that do not parse are ignored, not fatal", () => {
    const query = queryFromUrl(new URLSearchParams(
      "_metadata=not-json&_response=%7B%22q%22%3A%7B%22kind%22%3A%22nope%22%7D%7D&_sort=metadata.x:up,bogus:asc,record.id:asc&similar=not-a-uuid&vector=v"
    ))
    expect(query.metadata).toEqual({})
    expect(query.responses).toEqual({})
    expect(query.sort).toEqual([])
    expect(query.similar).toBeUndefined()
  })

  it("sort keys keep their order, drop repeats and stop at the contract's limit", () => {
    const many = Array.from({ length: MAX_SORT + 3 }, (_, i) => `metadata.m${i}:asc`)
    expect(queryFromUrl(new URLSearchParams({ _sort: [...many, "metadata.m0:desc"].join(",") })).sort).toHaveLength(MAX_SORT)
    expect(queryFromUrl(new URLSearchParams({ _sort: "metadata.b:asc,metadata.a:desc,metadata.b:desc" })).sort).toEqual([
      { key: { kind: "metadata", name: "b" }, order: "asc" },
      { key: { kind: "metadata", name: "a" }, order: "desc" }
    ])
  })

  it("sort key ids round-trip", () => {
    const keys: ReadonlyArray<SortKey> = full.sort?.map((s) => s.key) ?? []
    for (const key of keys) expect(parseSortKey(sortKeyId(key))).toEqual(key)
    expect(parseSortKey("record.status")).toEqual({ kind: "record", property: "status" })
    expect(parseSortKey("record.id")).toBeUndefined()
    expect(parseSortKey("suggestion.q.agent")).toBeUndefined()
  })
})

describe("the search body", () => {
  it("maps every filter and sort kind to the contract's scopes, and the body decodes as the contract's", () => {
    const body = searchBody(full)
    expect(body).toEqual({
      query: {
        text: { q: "acme rocket" },
        vector: { name: "embedding", record_id: RECORD, order: "least_similar" }
      },
      filters: {
        and: [
          { type: "terms", scope: { entity: "response", property: "status" }, values: ["submitted"] },
          { type: "terms", scope: { entity: "record", property: "status" }, values: ["completed"] },
          { type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web", 3, true] },
          { type: "range", scope: { entity: "metadata", metadata_property: "length" }, ge: 3, le: 10.5 },
          { type: "terms", scope: { entity: "response", question: "sentiment" }, values: ["positive"] },
          { type: "range", scope: { entity: "response", question: "quality" }, ge: 2 },
          { type: "terms", scope: { entity: "suggestion", question: "sentiment", property: "value" }, values: ["negative"] },
          { type: "terms", scope: { entity: "suggestion", question: "sentiment", property: "agent" }, values: ["model-a", "model-b"] },
          { type: "range", scope: { entity: "suggestion", question: "sentiment", property: "score" }, ge: 0.5, le: 1 },
          { type: "range", scope: { entity: "suggestion", question: "quality", property: "score" }, le: 0.25 }
        ]
      },
      sort: [
        { scope: { entity: "metadata", metadata_property: "length" }, order: "desc" },
        { scope: { entity: "record", property: "inserted_at" }, order: "asc" },
        { scope: { entity: "record", property: "updated_at" }, order: "desc" },
        { scope: { entity: "record", property: "external_id" }, order: "asc" },
        { scope: { entity: "suggestion", question: "sentiment", property: "score" }, order: "desc" },
        { scope: { entity: "suggestion", question: "quality", property: "value" }, order: "asc" },
        { scope: { entity: "response", question: "quality" }, order: "asc" }
      ]
    })
    expect(Schema.decodeUnknownSync(SearchRecordsQuery)(Schema.encodeSync(SearchRecordsQuery)(body))).toEqual(body)
  })

  it("pending keeps its rules: record.status pending whatever else is asked, and no sort or query without one", () => {
    expect(searchBody({ queue: "pending", text: "", metadata: {}, recordStatus: "completed", sort: [] })).toEqual({
      filters: {
        and: [
          { type: "terms", scope: { entity: "response", property: "status" }, values: ["pending"] },
          { type: "terms", scope: { entity: "record", property: "status" }, values: ["pending"] }
        ]
      }
    })
  })
})

describe("the caller's own queue", () => {
  const pending: QueueQuery = { queue: "pending", text: "", metadata: {} }

  it("reads the Pending queue without a sort or find-similar; any other view is a search", () => {
    expect(usesQueue(pending)).toBe(true)
    expect(usesQueue({ ...full, queue: "pending", sort: [], similar: undefined })).toBe(true)
    expect(usesQueue({ ...pending, sort: full.sort })).toBe(false)
    expect(usesQueue({ ...pending, similar: full.similar })).toBe(false)
    for (const queue of ["draft", "submitted", "discarded"] as const) expect(usesQueue({ ...pending, queue })).toBe(false)
  })

  it("narrows by nothing when the view asks for nothing but the queue", () => {
    expect(queueNarrowing(pending)).toBeUndefined()
    expect(queueNarrowing({ ...pending, recordStatus: "completed", text: "  " })).toBeUndefined()
  })

  it("narrows by text and filters, without the status filters the queue applies itself, nor sort or vector", () => {
    const narrowing = queueNarrowing({ ...full, queue: "pending" })
    const body = searchBody({ ...full, queue: "pending" })
    expect(narrowing).toEqual({
      query: { text: { q: "acme rocket" } },
      filters: { and: (body.filters?.and ?? []).slice(2) }
    })
    expect(narrowing?.filters?.and).toHaveLength(8)
    expect(JSON.stringify(narrowing)).not.toContain("\"status\"")
    expect(Schema.decodeUnknownSync(SearchRecordsQuery)(Schema.encodeSync(SearchRecordsQuery)(narrowing!))).toEqual(narrowing)
    expect(queueNarrowing({ ...pending, metadata: { source: { kind: "terms", values: ["web"] } } })).toEqual({
      filters: { and: [{ type: "terms", scope: { entity: "metadata", metadata_property: "source" }, values: ["web"] }] }
    })
  })

  it("a blind view keeps everything but its suggestion filters and suggestion sorts", () => {
    const blind = withoutSuggestions(full)
    expect(blind.suggestions).toEqual({})
    expect(blind.sort?.map((s) => s.key.kind)).toEqual(["metadata", "record", "record", "record", "response"])
    expect({ ...blind, suggestions: full.suggestions, sort: full.sort }).toEqual(full)
    expect(withoutSuggestions(pending)).toBe(pending)
  })
})

describe("what the panel offers", () => {
  it("sorts by times, metadata, suggestion scores, and values/answers only where one value per record is indexed", () => {
    const ids = sortOptions([], [label(), multi(), rating(), ranking(), span(), text()]).map((o) => sortKeyId(o.key))
    expect(ids).toContain("record.inserted_at")
    expect(ids).toContain("record.external_id")
    expect(ids).toContain("record.status")
    expect(ids).toContain("suggestion.sentiment.value")
    expect(ids).toContain("suggestion.topics.score")
    expect(ids).not.toContain("suggestion.topics.value")
    expect(ids.filter((id) => id.startsWith("response."))).toEqual(["response.sentiment", "response.quality"])
  })

  it("a removed chip takes exactly its own part of the view away", () => {
    const chips = chipsOf(full, { metadata: { length: "Length" }, questions: { sentiment: "Sentiment" } }, [])
    const agent = chips.find((c) => c.id === "suggestion:sentiment:agent")
    expect(agent?.text).toBe("Suggestion agent, Sentiment: model-a, model-b")
    expect(agent?.remove().suggestions).toEqual({
      sentiment: { values: ["negative"], score: { ge: 0.5, le: 1 } },
      quality: { score: { le: 0.25 } }
    })
    const quality = chips.find((c) => c.id === "suggestion:quality:score")
    expect(quality?.remove().suggestions).toEqual({ sentiment: full.suggestions?.sentiment })
    expect(chips.find((c) => c.id === "metadata:length")?.text).toBe("Length: 3–10.5")
    expect(chips.find((c) => c.id === "sort:metadata.length")?.remove().sort).toHaveLength((full.sort?.length ?? 0) - 1)
  })
})

describe("search highlighting", () => {
  const marked = (text: string, q: string) =>
    highlightParts(text, searchWords(q)).filter((p) => p.hit).map((p) => p.text)

  it("marks whole words, case- and accent-insensitively, as the engine matches them", () => {
    expect(marked("The Café serves cafe au lait; CAFÉS close.", "cafe")).toEqual(["Café", "cafe"])
    expect(marked("rocket rockets Rocket_ship", "ROCKET")).toEqual(["rocket"])
    expect(marked("Acme and the rocket", "acme, rocket!")).toEqual(["Acme", "rocket"])
  })

  it("cuts the text without losing or adding a character", () => {
    const text = "Émoji 🚀 rocket, then rocket again.\nrocket"
    expect(highlightParts(text, searchWords("rocket")).map((p) => p.text).join("")).toBe(text)
    expect(highlightParts(text, searchWords(""))).toEqual([{ text, hit: false }])
  })
})
