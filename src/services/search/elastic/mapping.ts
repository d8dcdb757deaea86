/**
 * Index settings and the strict mapping of a dataset's index. Answers (response values, suggestion values) are
 * indexed only where they can be filtered or sorted on: ratings as integers, labels as keywords; other answers are
 * kept in `_source` only. Response answers live under `responses.values.<question>` so that a question named
 * `status` or `id` cannot collide with the response's own properties.
 */
import type { DatasetId } from "../../../domain/Ids.js"
import type { FieldSettings } from "../../../domain/Field.js"
import type { MetadataSettings } from "../../../domain/MetadataProperty.js"
import type { QuestionType } from "../../../domain/Question.js"
import type { IndexSchema } from "../Query.js"
import type { Flavor, JsonObject } from "./json.js"

export const indexName = (datasetId: DatasetId): string => `gloss.${datasetId}`

export interface IndexSizing {
  readonly shards: number
  readonly replicas: number
}

const KEYWORD = { type: "keyword" } as const
const DATE = { type: "date" } as const
const NOT_INDEXED = { type: "object", enabled: false } as const

/**
 * `index.knn` is a static setting: it cannot be switched on once the index exists, and vector settings may be
 * added to a published dataset. So every OpenSearch index is a k-NN index, whether it has vectors yet or not.
 */
export const indexSettings = (flavor: Flavor, sizing: IndexSizing): JsonObject => ({
  index: {
    number_of_shards: sizing.shards,
    number_of_replicas: sizing.replicas,
    max_result_window: 500_000,
    mapping: { total_fields: { limit: 2_000 } },
    ...(flavor === "opensearch" ? { knn: true } : {})
  }
})

/** Ratings, labels and multi-labels: the answers a filter or a sort can use. */
export const isIndexedAnswer = (type: QuestionType): boolean =>
  type === "rating" || type === "label_selection" || type === "multi_label_selection"

export const answerMapping = (type: QuestionType): JsonObject =>
  type === "rating" ? { type: "integer" } : isIndexedAnswer(type) ? KEYWORD : NOT_INDEXED

const fieldMapping = (settings: FieldSettings): JsonObject => {
  switch (settings.type) {
    case "text":
    case "custom":
      return { type: "text" }
    case "chat":
      return { type: "object", properties: { role: KEYWORD, content: { type: "text" } } }
    case "image":
      return NOT_INDEXED
  }
}

export const metadataMapping = (settings: MetadataSettings): JsonObject => {
  switch (settings.type) {
    case "terms":
      return KEYWORD
    case "integer":
      return { type: "long" }
    case "float":
      return { type: "float" }
  }
}

/** Lucene's HNSW graph with its default parameters, on both engines (not Argilla's OpenSearch m=2, ef_construction=4: a
 * graph that sparse misses many true neighbours). */
const HNSW = { m: 16, ef_construction: 100 } as const

/**
 * Elasticsearch: the graph type is pinned. From 8.14 a `dense_vector` defaults to `int8_hnsw`, whose quantized
 * scores put most- and least-similar in the wrong order on small vectors; every supported version (index_options
 * exists since 8.0) accepts a plain `hnsw`.
 */
export const vectorMapping = (flavor: Flavor, dimensions: number): JsonObject =>
  flavor === "elasticsearch"
    ? { type: "dense_vector", dims: dimensions, index: true, similarity: "cosine", index_options: { type: "hnsw", ...HNSW } }
    : {
      type: "knn_vector",
      dimension: dimensions,
      method: {
        name: "hnsw",
        engine: "lucene",
        space_type: "cosinesimil",
        parameters: HNSW
      }
    }

const byName = <A>(items: ReadonlyArray<A>, key: (a: A) => string, value: (a: A) => JsonObject): JsonObject =>
  Object.fromEntries(items.map((item) => [key(item), value(item)]))

const metadataProperties = (schema: IndexSchema) =>
  byName(schema.metadataProperties, (p) => p.name, (p) => metadataMapping(p.settings))

const vectorProperties = (schema: IndexSchema, flavor: Flavor) =>
  byName(schema.vectorSettings, (v) => v.id, (v) => vectorMapping(flavor, v.dimensions))

export const indexMapping = (schema: IndexSchema, flavor: Flavor): JsonObject => {
  const answers = byName(schema.questions, (q) => q.name, (q) => answerMapping(q.settings.type))
  return {
    dynamic: "strict",
    properties: {
      id: KEYWORD,
      external_id: KEYWORD,
      status: KEYWORD,
      inserted_at: DATE,
      updated_at: DATE,
      fields: { properties: byName(schema.fields, (f) => f.name, (f) => fieldMapping(f.settings)) },
      // Not strict: a document written while a new property's mapping is being added is kept, not refused.
      metadata: { dynamic: false, properties: metadataProperties(schema) },
      responses: {
        type: "nested",
        properties: { id: KEYWORD, status: KEYWORD, user_id: KEYWORD, values: { properties: answers } }
      },
      suggestions: {
        properties: byName(schema.questions, (q) => q.name, (q) => ({
          properties: { value: answerMapping(q.settings.type), score: { type: "float" }, agent: KEYWORD, type: KEYWORD }
        }))
      },
      vectors: { properties: vectorProperties(schema, flavor) }
    }
  }
}

export const createIndexBody = (schema: IndexSchema, flavor: Flavor, sizing: IndexSizing): JsonObject => ({
  settings: indexSettings(flavor, sizing),
  mappings: indexMapping(schema, flavor)
})

/** What the index already maps, read back from the engine. */
export interface MappedNames {
  readonly metadata: ReadonlySet<string>
  readonly vectors: ReadonlySet<string>
}

/**
 * The put-mapping body for metadata properties and vector settings the index does not map yet, or null when there
 * are none. Only new properties are sent: an existing knn_vector cannot be restated on every OpenSearch version.
 */
export const mappingAdditions = (schema: IndexSchema, flavor: Flavor, mapped: MappedNames): JsonObject | null => {
  const metadata = schema.metadataProperties.filter((p) => !mapped.metadata.has(p.name))
  const vectors = schema.vectorSettings.filter((v) => !mapped.vectors.has(v.id))
  if (metadata.length === 0 && vectors.length === 0) return null
  const additions = { ...schema, metadataProperties: metadata, vectorSettings: vectors }
  return {
    properties: {
      ...(metadata.length > 0 ? { metadata: { properties: metadataProperties(additions) } } : {}),
      ...(vectors.length > 0 ? { vectors: { properties: vectorProperties(additions, flavor) } } : {})
    }
  }
}
