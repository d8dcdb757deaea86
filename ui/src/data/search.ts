/** The search body of a queue (reference §1.12), kept free of I/O so it can be tested on its own. */
import type { Filter, SearchRecordsQuery } from "../../../src/domain/Search.js"

export const QUEUES = ["pending", "draft", "submitted", "discarded"] as const
export type Queue = (typeof QUEUES)[number]

export const isQueue = (value: string | null): value is Queue => QUEUES.some((q) => q === value)

export type TermValue = string | number | boolean
export type MetadataFilter =
  | { readonly kind: "terms"; readonly values: ReadonlyArray<TermValue> }
  | { readonly kind: "range"; readonly ge?: number; readonly le?: number }

export interface QueueQuery {
  readonly queue: Queue
  readonly text: string
  readonly metadata: Readonly<Record<string, MetadataFilter>>
}

export const PAGE_SIZE = 20

/** The search body for a queue: the response-status filter, `record.status = pending` for Pending, then the rest. */
export const searchBody = ({ metadata, queue, text }: QueueQuery): SearchRecordsQuery => {
  const and: Array<Filter> = [{ type: "terms", scope: { entity: "response", property: "status" }, values: [queue] }]
  if (queue === "pending") and.push({ type: "terms", scope: { entity: "record", property: "status" }, values: ["pending"] })
  for (const [name, filter] of Object.entries(metadata)) {
    const scope = { entity: "metadata" as const, metadata_property: name }
    if (filter.kind === "terms" && filter.values.length > 0) and.push({ type: "terms", scope, values: filter.values })
    if (filter.kind === "range" && (filter.ge !== undefined || filter.le !== undefined)) {
      and.push({
        type: "range",
        scope,
        ...(filter.ge === undefined ? {} : { ge: filter.ge }),
        ...(filter.le === undefined ? {} : { le: filter.le })
      })
    }
  }
  const q = text.trim()
  return { filters: { and }, ...(q === "" ? {} : { query: { text: { q } } }) }
}

