/**
 * The built-in search engine (`GLOSS_SEARCH_ENGINE=database`, the embedded default): full-text search in the
 * database itself (FTS5 / PostgreSQL text search), filters and sorts in SQL over the records' own tables, and
 * similarity search through the vector store (../vectors/), which it reaches through that service's interface only.
 */
import { Effect, Layer, type ParseResult, Schema } from "effect"
import type { SqlError, Statement } from "@effect/sql"
import { GlossConfig } from "../../../Config.js"
import { Database } from "../../database/Database.js"
import { DbInt } from "../../../codecs/columns.js"
import { decodeHits } from "../../../codecs/hitRows.js"
import { insertionOrder } from "../../database/ddl.js"
import type { IndexedRecord, IndexSchema, MetadataMetricsResult, SearchHits, SearchQuery, WrittenVector } from "../Query.js"
import { SearchEngine } from "../SearchEngine.js"
import type { Allowed } from "../vectors/VectorStore.js"
import { VectorStore } from "../vectors/VectorStore.js"
import { VectorStoreLive } from "../vectors/VectorStoreLive.js"
import { clauses, type OrderKey } from "./clauses.js"
import { isMalformedJson, type JsonSql, jsonSql } from "./json.js"
import { page, rankedPage } from "./pages.js"
import { postgresTextIndex } from "./postgresText.js"
import { SearchReads, SearchReadsLive } from "./SearchReads.js"
import { sqliteTextIndex } from "./sqliteFts.js"
import { RecordId } from "../../../domain/Ids.js"
import type { MetadataSettings } from "../../../domain/MetadataProperty.js"

const decodeAllowed = Schema.decodeUnknown(Schema.Array(Schema.Struct({ id: Schema.String, key: DbInt })))
const decodeKeys = Schema.decodeUnknown(Schema.Array(Schema.Struct({ key: DbInt })))
const decodeRecordIds = Schema.decodeUnknown(Schema.Array(Schema.Struct({ id: RecordId })))

/** A per-user seed for the stable shuffle of caller-scoped results (FNV-1a of the user id). */
const seedOf = (user: string) => {
  let hash = 2166136261
  for (let i = 0; i < user.length; i++) hash = Math.imul(hash ^ user.charCodeAt(i), 16777619) >>> 0
  return hash % 2147483647
}

/** The vector settings these records, and these stored vectors, have vectors for, with their dimensions. */
const vectorSettingsOf = (records: ReadonlyArray<IndexedRecord>, stored: ReadonlyArray<WrittenVector> = []) => {
  const settings = new Map<string, number>()
  for (const record of records) for (const [id, value] of Object.entries(record.vectors)) settings.set(id, value.length)
  for (const vector of stored) settings.set(vector.settingsId, vector.value.length)
  return Array.from(settings, ([id, dimensions]) => ({ id, dimensions }))
}

const DatabaseEngine = Layer.scoped(
  SearchEngine,
  Effect.gen(function*() {
    const { sql } = yield* Database
    const { search: searchConfig } = yield* GlossConfig
    const reads = yield* SearchReads
    const { read } = reads
    const vectors = yield* VectorStore
    const text = sql.onDialectOrElse({ pg: () => postgresTextIndex(sql), orElse: () => sqliteTextIndex(sql) })
    const json = jsonSql(sql)
    const tolerantJson = jsonSql(sql, true)
    /**
     * Runs a statement over JSON columns as it is; on SQLite a record stored before values were bounded in depth can
     * make it fail ("malformed JSON"), and then it runs again, skipping the documents that do not parse.
     */
    const overJson = <A, E>(run: (json: JsonSql) => Effect.Effect<A, E>) =>
      Effect.catchIf(run(json), isMalformedJson, () => run(tolerantJson))
    /** After vectors were written (committed): the next search must see them. */
    const vectorsWritten = (records: ReadonlyArray<IndexedRecord>, stored?: ReadonlyArray<WrittenVector>) =>
      vectors.written(vectorSettingsOf(records, stored), stored)
    const sequence = sql.unsafe(`r.${insertionOrder(sql)}`)
    // A per-user permutation of the insertion order: an affine step, then a square (so different seeds give
    // different orders, not the same order rotated), all modulo 2^31 - 1 so no product overflows 64 bits.
    const shuffled = (seed: number) => {
      const x = sql`((${sequence} * 48271 + ${seed}) % 2147483647)`
      return sql`((${x} * ${x} + ${seed}) % 2147483647)`
    }

    /** The records a search's filters and text allow, read as the vector store asks (at most a few thousand, or by key). */
    const allowedBy = (from: Statement.Fragment, where: Statement.Fragment): Allowed<SqlError.SqlError | ParseResult.ParseError> => ({
      read: (limit) =>
        Effect.flatMap(
          read(sql`select r.id, ${sequence} as key from ${from} where ${where}${limit === undefined ? sql`` : sql` limit ${limit}`}`),
          decodeAllowed
        ),
      // One statement for all the keys (the vector store asks about 10 000 at most, well under SQLite's 32 766
      // parameters): with a text query SQLite reads the word's matches first, once a statement.
      among: (keys) =>
        Effect.map(
          Effect.flatMap(read(sql`select ${sequence} as key from ${from} where ${where} and ${sequence} in ${sql.in(keys)}`), decodeKeys),
          (rows) => rows.map((row) => row.key)
        )
    })

    const searchWith = (json: JsonSql, schema: IndexSchema, query: SearchQuery) => Effect.gen(function*() {
      const c = clauses(sql, json, query.user)
      const match = query.text === undefined ? undefined : text.matches(schema, query.text.q, query.text.field)
      if (query.text !== undefined && match === undefined) return { hits: [], total: 0, totalRelation: "eq" } satisfies SearchHits
      const from = match ?? sql`records r`
      // The text matches without their relevance scores: what counting and pre-filtering need.
      const unscored = query.text === undefined ? undefined : text.matches(schema, query.text.q, query.text.field, { scored: false })
      const where = sql.and([sql`r.dataset_id = ${schema.datasetId}`, ...query.filters.map(c.filter)])

      if (query.vector !== undefined) {
        // Filters and the text query select the candidates; similarity ranks them (a pre-filter, as on Elasticsearch).
        const allowed = match === undefined && query.filters.length === 0 ? undefined : allowedBy(unscored ?? from, where)
        const settings = schema.vectorSettings.find((v) => v.id === query.vector?.vectorSettingsId)
        const dimensions = settings?.dimensions ?? query.vector.value.length
        const hits = yield* vectors.rank({ id: query.vector.vectorSettingsId, dimensions }, query.vector.value, query.limit, {
          least: query.vector.order === "least_similar",
          allowed,
          exclude: query.vector.excludeRecordId
        })
        return { hits: yield* decodeHits(hits), total: hits.length, totalRelation: "eq" } satisfies SearchHits
      }

      const shuffle = query.sort.length === 0 && query.user !== undefined
      const order: ReadonlyArray<OrderKey> = [
        ...c.sorts(query.sort),
        ...(shuffle ? [{ key: shuffled(seedOf(query.user ?? "")), desc: false }] : []),
        ...(!shuffle && query.sort.length === 0 && match !== undefined ? [{ key: sql`m.score`, desc: true }] : []),
        { key: sequence, desc: false }
      ]
      const score = match === undefined ? sql`null` : sql`m.score`
      const paged = { from, where, order, score, limit: query.limit, offset: query.offset, countUpTo: searchConfig.trackTotalHits, count: unscored }
      // Ranked by relevance: only a window of the matches that pass the filters is scored and counted (a common word
      // matches a fifth of a million records, and scoring each costs ~1 µs plus its record's read).
      const ranked = match !== undefined && !shuffle && query.sort.length === 0
      if (ranked && searchConfig.rankWindow > 0) {
        return yield* rankedPage(sql, reads, { ...paged, sequence, window: searchConfig.rankWindow })
      }
      return yield* page(sql, reads, paged)
    })
    const search = Effect.fn("DatabaseEngine.search")(
      (schema: IndexSchema, query: SearchQuery) => overJson((json) => searchWith(json, schema, query)),
      Effect.orDie
    )

    // One statement: the database has no result window to page around, and ids are small.
    const idsWith = (json: JsonSql, schema: IndexSchema, query: SearchQuery) => Effect.gen(function*() {
      const c = clauses(sql, json, query.user)
      const from = query.text === undefined
        ? sql`records r`
        : text.matches(schema, query.text.q, query.text.field, { scored: false })
      if (from === undefined) return []
      const where = sql.and([sql`r.dataset_id = ${schema.datasetId}`, ...query.filters.map(c.filter)])
      const rows = yield* decodeRecordIds(yield* read(sql`select r.id from ${from} where ${where} order by ${sequence}`))
      return rows.map((row) => row.id)
    })
    const matchingIds = Effect.fn("DatabaseEngine.matchingIds")(
      (schema: IndexSchema, query: SearchQuery) => overJson((json) => idsWith(json, schema, query)),
      Effect.orDie
    )

    type Property = { readonly name: string; readonly settings: MetadataSettings }
    const metricsWith = (json: JsonSql, schema: IndexSchema, property: Property) =>
      Effect.gen(function*() {
        const inDataset = sql`r.dataset_id = ${schema.datasetId}`
        if (property.settings.type === "terms") {
          const each = json.elements("r.metadata", [property.name])
          const [values, total] = yield* Effect.all([
            sql<{ term: string; n: number | string }>`select ${each.term} as term, count(*) as n
                from records r, ${each.from} where ${inDataset}
                group by 1 order by count(*) desc, 1 limit 16384`,
            sql<{ n: number | string }>`select count(*) as n from records r where ${inDataset}
                and ${json.text("r.metadata", [property.name])} is not null`
          ])
          return {
            type: "terms",
            total: Number(total[0]?.n ?? 0),
            values: values.map((row) => ({ term: JSON.parse(row.term), count: Number(row.n) }))
          } satisfies MetadataMetricsResult
        }
        const number = json.number("r.metadata", [property.name])
        const [row] = yield* sql<{ min: number | string | null; max: number | string | null }>`select min(${number}) as min,
            max(${number}) as max from records r where ${inDataset}`
        const round = (value: number | string | null | undefined) =>
          value === null || value === undefined
            ? null
            : property.settings.type === "float"
            ? Math.round(Number(value) * 1e5) / 1e5
            : Number(value)
        return { type: property.settings.type, min: round(row?.min), max: round(row?.max) } satisfies MetadataMetricsResult
      })
    const metadataMetrics = Effect.fn("DatabaseEngine.metadataMetrics")(
      (schema: IndexSchema, property: Property) => overJson((json) => metricsWith(json, schema, property)),
      Effect.orDie
    )

    return SearchEngine.of({
      kind: "database",
      info: Effect.succeed({ engine: "database", dialect: sql.onDialectOrElse({ pg: () => "postgresql", orElse: () => "sqlite" }) }),
      // At publish (and after a reindex dropped them), settings past the threshold get their ANN index built now.
      createIndex: (schema) => Effect.zipRight(text.create(schema), vectors.written(schema.vectorSettings)),
      updateMapping: (schema) => Effect.zipRight(text.create(schema), vectors.written(schema.vectorSettings)),
      // A reindex starts from here: the dataset's vector indexes are dropped (files too) and built again from the
      // database; a deleted dataset's go for good.
      deleteIndex: (datasetId) => Effect.zipRight(text.drop(datasetId), vectors.forgetDataset(datasetId)),
      indexRecords: (schema, records) => Effect.zipRight(text.upsert(schema, records), vectorsWritten(records)),
      indexCreated: (schema, records, stored) => ({
        inTransaction: text.upsert(schema, records, { created: true }),
        afterCommit: vectorsWritten(records, stored)
      }),
      deleteRecords: (datasetId, ids) => Effect.zipRight(text.remove(datasetId, ids), vectors.deleted),
      search,
      matchingIds,
      metadataMetrics
    })
  })
)

/** The engine with what it is built on: the reads (SQLite's worker threads) shared with the vector store. */
export const DatabaseEngineLive = DatabaseEngine.pipe(
  Layer.provide(VectorStoreLive),
  Layer.provideMerge(SearchReadsLive)
)
