/**
 * The engine-independent search model. `Search` (the service) turns an API request into a `SearchQuery` with every
 * name resolved against the dataset (unknown names are 422s before an engine is asked), and each engine turns it
 * into its own query: SQL for the built-in engine, the query DSL for Elasticsearch and OpenSearch.
 */
import type { DatasetId, QuestionId, RecordId, UserId, VectorSettingsId } from "../../domain/Ids.js"
import type { FieldSettings } from "../../domain/Field.js"
import type { MetadataSettings } from "../../domain/MetadataProperty.js"
import type { QuestionSettings } from "../../domain/Question.js"
import type { RecordStatus } from "../../domain/Record.js"
import type { ResponseStatus, ResponseValues } from "../../domain/Response.js"

/** What an engine needs to know about a dataset to index and search it. */
export interface IndexSchema {
  readonly datasetId: DatasetId
  readonly fields: ReadonlyArray<{ readonly name: string; readonly settings: FieldSettings }>
  readonly questions: ReadonlyArray<{ readonly id: QuestionId; readonly name: string; readonly settings: QuestionSettings }>
  readonly metadataProperties: ReadonlyArray<{ readonly name: string; readonly settings: MetadataSettings }>
  readonly vectorSettings: ReadonlyArray<{ readonly id: VectorSettingsId; readonly name: string; readonly dimensions: number }>
}

/** A record as engines index it: everything searchable about it, read from the database. */
/**
 * A vector as a write stored it (its record, settings, `updated_at` and value): the built-in engine's index adds it
 * from here instead of reading it back (see vectors/ann/handed.ts).
 */
export interface WrittenVector {
  readonly recordId: string
  readonly settingsId: string
  readonly at: Date
  readonly value: ReadonlyArray<number>
}

export interface IndexedRecord {
  readonly id: RecordId
  readonly external_id: string | null
  readonly status: RecordStatus
  readonly inserted_at: Date
  readonly updated_at: Date
  readonly fields: Readonly<Record<string, unknown>>
  readonly metadata: Readonly<Record<string, unknown>> | null
  readonly responses: ReadonlyArray<{
    readonly id: string
    readonly user_id: UserId
    readonly status: ResponseStatus
    readonly values: ResponseValues | null
  }>
  readonly suggestions: ReadonlyArray<{
    readonly question_id: QuestionId
    readonly value: unknown
    readonly score: number | ReadonlyArray<number> | null
    readonly agent: string | null
    readonly type: "model" | "human" | null
  }>
  /** By vector settings id. */
  readonly vectors: Readonly<Record<string, ReadonlyArray<number>>>
}

export type RecordProperty = "id" | "external_id" | "inserted_at" | "updated_at" | "status"

/** A scope with its names resolved. */
export type ResolvedScope =
  | { readonly kind: "record"; readonly property: RecordProperty }
  | { readonly kind: "metadata"; readonly name: string; readonly type: MetadataSettings["type"] }
  | {
    readonly kind: "suggestion"
    readonly questionId: QuestionId
    readonly question: string
    readonly questionType: QuestionSettings["type"]
    readonly property: "value" | "agent" | "score" | "type"
  }
  /** A response's status (`pending` meaning "no response"), or its answer to one question. */
  | { readonly kind: "responseStatus" }
  | { readonly kind: "responseValue"; readonly question: string; readonly questionType: QuestionSettings["type"] }

export type TermValue = string | number | boolean

export type SearchFilter =
  | { readonly kind: "terms"; readonly scope: ResolvedScope; readonly values: ReadonlyArray<TermValue> }
  | {
    readonly kind: "range"
    readonly scope: ResolvedScope
    readonly ge?: number | string | undefined
    readonly le?: number | string | undefined
  }

export interface SearchSort {
  readonly scope: ResolvedScope
  readonly order: "asc" | "desc"
}

export interface SearchQuery {
  readonly text?: { readonly q: string; readonly field?: string | undefined } | undefined
  readonly vector?: {
    readonly vectorSettingsId: VectorSettingsId
    readonly name: string
    readonly value: ReadonlyArray<number>
    readonly order: "most_similar" | "least_similar"
    /** With a search by record, that record itself is not a result. */
    readonly excludeRecordId?: RecordId | undefined
  } | undefined
  readonly filters: ReadonlyArray<SearchFilter>
  readonly sort: ReadonlyArray<SearchSort>
  readonly offset: number
  readonly limit: number
  /**
   * The caller of a caller-scoped search (`/me/…`): response filters and sorts look at their responses only, and
   * without a sort the results come in a stable pseudo-random order of their own.
   */
  readonly user?: UserId | undefined
}

export interface SearchHit {
  readonly id: RecordId
  readonly score: number | null
}

/**
 * Whether a search's `total` is the exact count (`eq`) or a lower bound (`gte`): the built-in engine stops counting
 * past `GLOSS_SEARCH_TRACK_TOTAL_HITS` matches (10 000), as Elasticsearch does with `track_total_hits`, since
 * counting a million matches exactly costs more than finding the page.
 */
export type TotalRelation = "eq" | "gte"

export interface SearchHits {
  readonly hits: ReadonlyArray<SearchHit>
  readonly total: number
  readonly totalRelation: TotalRelation
}

export type MetadataMetricsResult =
  | { readonly type: "terms"; readonly total: number; readonly values: ReadonlyArray<{ readonly term: unknown; readonly count: number }> }
  | { readonly type: "integer" | "float"; readonly min: number | null; readonly max: number | null }
