/** The parts of the engines' responses that Gloss reads, decoded (a malformed answer is a defect, not a guess). */
import { Effect, Schema } from "effect"
import { RecordId } from "../../../domain/Ids.js"
import type { SearchHits } from "../Query.js"

const Num = Schema.Number
const OptionalNumber = Schema.optional(Schema.NullOr(Num))

export const RootDocument = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const RootVersion = Schema.Struct({
  version: Schema.Struct({ number: Schema.String, distribution: Schema.optional(Schema.String) })
})

const SearchResponse = Schema.Struct({
  hits: Schema.Struct({
    // An object with track_total_hits; a bare number if a proxy sets rest_total_hits_as_int.
    total: Schema.Union(Schema.Struct({ value: Num, relation: Schema.optional(Schema.String) }), Num),
    hits: Schema.Array(Schema.Struct({ _id: RecordId, _score: OptionalNumber }))
  })
})

export const MetricsResponse = Schema.Struct({
  aggregations: Schema.Struct({
    total: Schema.optional(Schema.Struct({ doc_count: Num })),
    values: Schema.optional(Schema.Struct({
      buckets: Schema.Array(Schema.Struct({ key: Schema.Unknown, doc_count: Num }))
    })),
    stats: Schema.optional(Schema.Struct({ min: OptionalNumber, max: OptionalNumber }))
  })
})

const Properties = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const ObjectMapping = Schema.Struct({ properties: Schema.optional(Properties) })

/** `GET <index>/_mapping`: `{ "<index>": { "mappings": { "properties": … } } }`. */
export const MappingResponse = Schema.Record({
  key: Schema.String,
  value: Schema.Struct({
    mappings: Schema.Struct({
      properties: Schema.optional(Schema.Struct({
        metadata: Schema.optional(ObjectMapping),
        vectors: Schema.optional(ObjectMapping)
      }))
    })
  })
})

const ItemResult = Schema.Struct({
  _id: Schema.optional(Schema.String),
  status: Num,
  error: Schema.optional(Schema.Unknown)
})

export const BulkResponse = Schema.Struct({
  errors: Schema.Boolean,
  items: Schema.Array(Schema.Record({ key: Schema.String, value: ItemResult }))
})

/** `{ error: { type } }`, as in a 400 answer to creating an index that exists. */
export const ErrorBody = Schema.Struct({ error: Schema.Struct({ type: Schema.String }) })

export const decode = <A, I>(schema: Schema.Schema<A, I>, what: string) => (body: unknown): Effect.Effect<A> =>
  Schema.decodeUnknown(schema)(body).pipe(
    Effect.mapError((error) => new Error(`Unexpected ${what} from the search engine: ${error.message}`)),
    Effect.orDie
  )

export const toSearchHits = (body: unknown): Effect.Effect<SearchHits> =>
  decode(SearchResponse, "search response")(body).pipe(
    Effect.map(({ hits }) => ({
      hits: hits.hits.map((hit) => ({ id: hit._id, score: hit._score ?? null })),
      total: typeof hits.total === "number" ? hits.total : hits.total.value,
      totalRelation: typeof hits.total === "number" || hits.total.relation !== "gte" ? "eq" as const : "gte" as const
    }))
  )

/** A page of `idsPageBody`: ids only (it tracks no total). */
export const toIds = (body: unknown): Effect.Effect<ReadonlyArray<RecordId>> =>
  decode(
    Schema.Struct({ hits: Schema.Struct({ hits: Schema.Array(Schema.Struct({ _id: RecordId })) }) }),
    "search response"
  )(body).pipe(Effect.map(({ hits }) => hits.hits.map((hit) => hit._id)))
