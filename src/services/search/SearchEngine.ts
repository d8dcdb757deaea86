import { Context, type Effect } from "effect"
import type { DatasetId, RecordId } from "../../domain/Ids.js"
import type { MetadataSettings } from "../../domain/MetadataProperty.js"
import type { IndexedRecord, IndexSchema, MetadataMetricsResult, SearchHits, SearchQuery } from "./Query.js"

/**
 * One interface, three engines (DESIGN.md): `database` (built in), `elasticsearch`, `opensearch`. The database is
 * the source of truth; an engine holds what makes searching fast and can always be rebuilt from it (`reindex`).
 * Failures of the engine are defects: an unreachable cluster is a 503, not an API error.
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
  readonly deleteRecords: (datasetId: DatasetId, ids: ReadonlyArray<RecordId>) => Effect.Effect<void>
  readonly search: (schema: IndexSchema, query: SearchQuery) => Effect.Effect<SearchHits>
  readonly metadataMetrics: (
    schema: IndexSchema,
    property: { readonly name: string; readonly settings: MetadataSettings }
  ) => Effect.Effect<MetadataMetricsResult>
}

export class SearchEngine extends Context.Tag("Gloss/SearchEngine")<SearchEngine, SearchEngineShape>() {}
