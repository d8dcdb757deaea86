import { Context, type Effect } from "effect"
import type { DatasetId, RecordId } from "../../domain/Ids.js"
import type { MetadataSettings } from "../../domain/MetadataProperty.js"
import type { IndexedRecord, IndexSchema, MetadataMetricsResult, SearchHits, SearchQuery, WrittenVector } from "./Query.js"

/**
 * One interface, three engines (docs/explanation/architecture.md#the-search-port-and-its-engines): `database` (built
 * in), `elasticsearch`, `opensearch`. The database is the source of truth; an engine holds what makes searching fast
 * and can always be rebuilt from it (`reindex`). Failures of the engine are defects: an unreachable cluster is a 503,
 * not an API error.
 */
export interface SearchEngineShape {
  readonly kind: "database" | "elasticsearch" | "opensearch"
  /** What `GET /api/v1/status` shows as `search_engine`. */
  readonly info: Effect.Effect<Record<string, unknown>>
  /** At publish: one index per dataset. */
  readonly createIndex: (schema: IndexSchema) => Effect.Effect<void>
  /** Metadata properties or vector settings added to a published dataset. */
  readonly updateMapping: (schema: IndexSchema) => Effect.Effect<void>
  readonly deleteIndex: (datasetId: DatasetId) => Effect.Effect<void>
  /** Adds or replaces these records' documents; visible to the next search once this returns. */
  readonly indexRecords: (schema: IndexSchema, records: ReadonlyArray<IndexedRecord>) => Effect.Effect<void>
  /**
   * Indexes records a write is creating, in two steps: what may run inside the write's own transaction (the
   * built-in engine's tables: the records and their index then commit together, with one commit instead of three
   * on PostgreSQL), and what must wait until it has committed (a remote engine, which cannot see the transaction;
   * the built-in engine's vector cache, which another connection could otherwise refill without the new vectors).
   */
  readonly indexCreated: (
    schema: IndexSchema,
    records: ReadonlyArray<IndexedRecord>,
    /** Every vector the write stored (those of records it updated too), for an engine that can take them as they are. */
    vectors?: ReadonlyArray<WrittenVector>
  ) => StagedIndexing
  readonly deleteRecords: (datasetId: DatasetId, ids: ReadonlyArray<RecordId>) => Effect.Effect<void>
  readonly search: (schema: IndexSchema, query: SearchQuery) => Effect.Effect<SearchHits>
  /**
   * The ids of every record that `query`'s text and filters match (its sort, paging and vector are ignored), in no
   * particular order, however many there are: past the total-tracking bound and the engines' 10 000-hit window.
   * Remote engines read them `pageSize` at a time.
   */
  readonly matchingIds: (
    schema: IndexSchema,
    query: SearchQuery,
    options?: { readonly pageSize?: number | undefined }
  ) => Effect.Effect<ReadonlyArray<RecordId>>
  readonly metadataMetrics: (
    schema: IndexSchema,
    property: { readonly name: string; readonly settings: MetadataSettings }
  ) => Effect.Effect<MetadataMetricsResult>
}

/** See `indexCreated`. */
export interface StagedIndexing {
  readonly inTransaction: Effect.Effect<void>
  readonly afterCommit: Effect.Effect<void>
}

export class SearchEngine extends Context.Tag("Gloss/SearchEngine")<SearchEngine, SearchEngineShape>() {}
