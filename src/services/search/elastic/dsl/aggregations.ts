/**
 * Metadata metrics: for a terms property, how many records have a value and the count of each term (at most
 * 16 384 distinct terms); for a number property, its lowest and highest value. Floats are indexed as 32-bit
 * floats, so their bounds are rounded to 5 decimals to give back 0.1 rather than 0.10000000149011612.
 */
import type { MetadataSettings } from "../../../../domain/MetadataProperty.js"
import type { MetadataMetricsResult } from "../../Query.js"
import type { JsonObject } from "../json.js"

export const MAX_TERMS = 16_384

export interface MetadataProperty {
  readonly name: string
  readonly settings: MetadataSettings
}

export const metricsBody = ({ name, settings }: MetadataProperty): JsonObject => {
  const field = `metadata.${name}`
  if (settings.type !== "terms") return { size: 0, aggs: { stats: { stats: { field } } } }
  // Records, not values: a record whose value is a list of two terms counts once (as the database engine does).
  return {
    size: 0,
    aggs: {
      total: { filter: { exists: { field } } },
      values: { terms: { field, size: MAX_TERMS } }
    }
  }
}

interface Bucket {
  readonly key: unknown
  readonly doc_count: number
}

/** The aggregations of a metrics response, as decoded by responses.ts. */
export interface MetricsAggregations {
  readonly total?: { readonly doc_count: number } | undefined
  readonly values?: { readonly buckets: ReadonlyArray<Bucket> } | undefined
  readonly stats?: { readonly min?: number | null | undefined; readonly max?: number | null | undefined } | undefined
}

const round5 = (x: number) => Math.round(x * 100_000) / 100_000

const bound = (settings: MetadataSettings, value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : settings.type === "float" ? round5(value) : value

export const metricsResult = (
  { settings }: MetadataProperty,
  aggregations: MetricsAggregations
): MetadataMetricsResult => {
  if (settings.type === "terms") {
    return {
      type: "terms",
      total: aggregations.total?.doc_count ?? 0,
      values: (aggregations.values?.buckets ?? []).map((bucket) => ({ term: bucket.key, count: bucket.doc_count }))
    }
  }
  return {
    type: settings.type,
    min: bound(settings, aggregations.stats?.min),
    max: bound(settings, aggregations.stats?.max)
  }
}
