import type { Statement } from "@effect/sql"
import type { Effect } from "effect"
import type { DatasetId, RecordId } from "../../../domain/Ids.js"
import type { IndexedRecord, IndexSchema } from "../Query.js"

/**
 * Full-text search inside the database: SQLite's FTS5 or PostgreSQL's text search. Everything else the built-in
 * engine does (filters, sorts, vectors) is the same on both dialects; this is where they differ.
 */
export interface TextIndex {
  readonly create: (schema: IndexSchema) => Effect.Effect<void>
  readonly drop: (datasetId: DatasetId) => Effect.Effect<void>
  /**
   * Indexes these records, replacing what was indexed for them before. `created`: the records were created in the
   * current transaction, so there is nothing to replace.
   */
  readonly upsert: (
    schema: IndexSchema,
    records: ReadonlyArray<IndexedRecord>,
    options?: { readonly created?: boolean }
  ) => Effect.Effect<void>
  readonly remove: (datasetId: DatasetId, ids: ReadonlyArray<RecordId>) => Effect.Effect<void>
  /**
   * The `from` clause of a search over the records matching every term of `q` (in `field` only when given): the
   * matches as `m`, with `m.score` (higher is better), joined to their records as `r`. The text index comes first
   * so that it drives the join: the database reads the matching records only, not the whole dataset. `undefined`
   * when `q` has no searchable term (nothing matches).
   *
   * `scored: false`: no score is computed (`m.score` is null), for counting.
   */
  readonly matches: (
    schema: IndexSchema,
    q: string,
    field: string | undefined,
    options?: { readonly scored?: boolean }
  ) => Statement.Fragment | undefined
}
