/**
 * `SearchEngineShape` over an `EngineTransport`, for either engine. Writes wait until they are visible to search
 * (`refresh=wait_for` on Elasticsearch, `refresh=true` on OpenSearch). Every failure of the engine is a defect.
 */
import { Array as Arr, Effect } from "effect"
import type { DatasetId, RecordId } from "../../../domain/Ids.js"
import type { IndexedRecord, IndexSchema } from "../Query.js"
import type { SearchEngineShape } from "../SearchEngine.js"
import { type Document, toDocument } from "./documents.js"
import { metricsBody, metricsResult } from "./dsl/aggregations.js"
import { idsPageBody, searchBody } from "./dsl.js"
import type { Flavor } from "./json.js"
import { createIndexBody, indexName, type IndexSizing, type MappedNames, mappingAdditions } from "./mapping.js"
import {
  BulkResponse,
  decode,
  ErrorBody,
  MappingResponse,
  MetricsResponse,
  RootDocument,
  toIds,
  toSearchHits
} from "./responses.js"
import type { EngineRequest, EngineTransport } from "./transport.js"

type Records = ReadonlyArray<IndexedRecord>

/** Documents per `_bulk` request. */
export const BULK_CHUNK = 500

/** Ids per page of `matchingIds`: within the 10 000-hit window, and a few pages for tens of thousands of matches. */
export const ID_PAGE = 5000

const mappedNames = (response: typeof MappingResponse.Type): MappedNames => {
  const properties = Object.values(response).map((index) => index.mappings.properties)
  return {
    metadata: new Set(properties.flatMap((p) => Object.keys(p?.metadata?.properties ?? {}))),
    vectors: new Set(properties.flatMap((p) => Object.keys(p?.vectors?.properties ?? {})))
  }
}

/** A `_bulk` answers 200 even when items fail; a delete of a missing document is not a failure. */
const bulkFailures = (response: typeof BulkResponse.Type) =>
  response.items.flatMap((item) =>
    Object.entries(item).filter(([action, result]) =>
      result.status >= 300 && !(action === "delete" && result.status === 404)
    ).map(([action, result]) => ({ action, ...result }))
  )

export const makeEngine = (flavor: Flavor, transport: EngineTransport, sizing: IndexSizing): SearchEngineShape => {
  const span = (name: string) => `${flavor === "elasticsearch" ? "ElasticEngine" : "OpenSearchEngine"}.${name}`
  const send = (request: EngineRequest) => transport.send(request).pipe(Effect.orDie)
  const refresh = { refresh: flavor === "elasticsearch" ? "wait_for" : "true" }

  const bulk = (datasetId: DatasetId, lines: ReadonlyArray<Document>) =>
    send({ method: "POST", path: `/${indexName(datasetId)}/_bulk`, querystring: refresh, bulkBody: lines }).pipe(
      Effect.flatMap(({ body }) => decode(BulkResponse, "bulk response")(body)),
      Effect.flatMap((response) => {
        const failures = bulkFailures(response)
        return failures.length === 0 ? Effect.void : Effect.dieMessage(
          `The search engine refused ${failures.length} of ${response.items.length} bulk operations; first: ` +
            JSON.stringify(failures[0])
        )
      })
    )

  const updateMapping = Effect.fn(span("updateMapping"))(function*(schema: IndexSchema) {
    const path = `/${indexName(schema.datasetId)}/_mapping`
    const current = yield* send({ method: "GET", path }).pipe(
      Effect.flatMap(({ body }) => decode(MappingResponse, "mapping")(body))
    )
    const additions = mappingAdditions(schema, flavor, mappedNames(current))
    if (additions !== null) yield* send({ method: "PUT", path, body: additions })
  })

  const indexRecords = Effect.fn(span("indexRecords"))(function*(schema: IndexSchema, records: Records) {
    const lines = (chunk: Records) => chunk.flatMap((record) => [{ index: { _id: record.id } }, toDocument(schema, record)])
    yield* Effect.forEach(Arr.chunksOf(records, BULK_CHUNK), (chunk) => bulk(schema.datasetId, lines(chunk)), {
      discard: true
    })
  })

  return {
    kind: flavor,
    info: send({ method: "GET", path: "/" }).pipe(
      Effect.flatMap(({ body }) => decode(RootDocument, "root document")(body)),
      Effect.withSpan(span("info"))
    ),
    /** Creating an index that exists (a publish retried after a crash) brings its mapping up to date instead. */
    createIndex: Effect.fn(span("createIndex"))(function*(schema: IndexSchema) {
      const path = `/${indexName(schema.datasetId)}`
      const { statusCode, body } = yield* send({
        method: "PUT",
        path,
        body: createIndexBody(schema, flavor, sizing),
        ignore: [400]
      })
      if (statusCode < 300) return
      const error = yield* decode(ErrorBody, "error")(body)
      if (error.error.type !== "resource_already_exists_exception") {
        return yield* Effect.dieMessage(`Creating ${path} failed: ${JSON.stringify(body)}`)
      }
      yield* updateMapping(schema)
    }),
    updateMapping,
    deleteIndex: Effect.fn(span("deleteIndex"))(function*(datasetId: DatasetId) {
      yield* send({ method: "DELETE", path: `/${indexName(datasetId)}`, ignore: [404] })
    }),
    indexRecords,
    // The cluster cannot see an uncommitted transaction: documents are sent once the records exist.
    indexCreated: (schema, records) => ({ inTransaction: Effect.void, afterCommit: indexRecords(schema, records) }),
    deleteRecords: Effect.fn(span("deleteRecords"))(function*(datasetId: DatasetId, ids: ReadonlyArray<RecordId>) {
      yield* Effect.forEach(Arr.chunksOf(ids, BULK_CHUNK), (chunk) =>
        bulk(datasetId, chunk.map((id) => ({ delete: { _id: id } }))), { discard: true })
    }),
    search: Effect.fn(span("search"))(function*(schema, query) {
      const { body } = yield* send({
        method: "POST",
        path: `/${indexName(schema.datasetId)}/_search`,
        body: searchBody(schema, query, flavor)
      })
      return yield* toSearchHits(body)
    }),
    matchingIds: Effect.fn(span("matchingIds"))(function*(schema, query, options) {
      const size = Math.max(1, Math.min(ID_PAGE, options?.pageSize ?? ID_PAGE))
      const ids: Array<RecordId> = []
      for (;;) {
        const { body } = yield* send({
          method: "POST",
          path: `/${indexName(schema.datasetId)}/_search`,
          body: idsPageBody(schema, query, ids.at(-1), size)
        })
        const page = yield* toIds(body)
        ids.push(...page)
        if (page.length < size) return ids
      }
    }),
    metadataMetrics: Effect.fn(span("metadataMetrics"))(function*(schema, property) {
      const { body } = yield* send({
        method: "POST",
        path: `/${indexName(schema.datasetId)}/_search`,
        body: metricsBody(property)
      })
      const { aggregations } = yield* decode(MetricsResponse, "metrics response")(body)
      return metricsResult(property, aggregations)
    })
  }
}
