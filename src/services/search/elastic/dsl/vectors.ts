/**
 * Similarity search. Both engines score by cosine similarity; `least_similar` asks for the vectors most similar to
 * the negated query vector. Results are the `limit` nearest, in similarity order (no offset, no sort).
 * Elasticsearch applies the other clauses as a pre-filter of the k-NN search; OpenSearch applies them afterwards
 * (`post_filter`) to as many nearest neighbours as Elasticsearch would consider (`num_candidates`), so fewer than
 * `limit` hits come back only when the filters reject nearly all of those
 * (docs/explanation/search-at-scale.md#filtered-similarity-search).
 */
import type { SearchQuery } from "../../Query.js"
import type { Flavor, JsonObject } from "../json.js"

type VectorQuery = NonNullable<SearchQuery["vector"]>

/** The reference's table, raised to k where it is below it (Elasticsearch refuses num_candidates < k). */
export const numCandidates = (k: number): number => Math.max(k, k < 50 ? 500 : k < 200 ? 100 : 2_000)

const queryVector = (vector: VectorQuery): ReadonlyArray<number> =>
  vector.order === "least_similar" ? vector.value.map((x) => (x === 0 ? 0 : -x)) : vector.value

/** `clauses` must all match; the reference record, if any, is excluded. Null when there is nothing to filter. */
const restriction = (vector: VectorQuery, clauses: ReadonlyArray<JsonObject>): JsonObject | null => {
  if (clauses.length === 0 && vector.excludeRecordId === undefined) return null
  return {
    bool: {
      ...(clauses.length > 0 ? { filter: clauses } : {}),
      ...(vector.excludeRecordId === undefined ? {} : { must_not: [{ ids: { values: [vector.excludeRecordId] } }] })
    }
  }
}

export const vectorSearchBody = (
  flavor: Flavor,
  vector: VectorQuery,
  clauses: ReadonlyArray<JsonObject>,
  limit: number
): JsonObject => {
  const field = `vectors.${vector.vectorSettingsId}`
  const filter = restriction(vector, clauses)
  if (flavor === "elasticsearch") {
    return {
      knn: {
        field,
        query_vector: queryVector(vector),
        k: limit,
        num_candidates: numCandidates(limit),
        ...(filter === null ? {} : { filter })
      },
      size: limit
    }
  }
  // Filtered: the same pool of candidates as Elasticsearch. The reference record is usually its own nearest
  // neighbour: one more, so that excluding it still leaves `limit`.
  const wanted = vector.excludeRecordId === undefined ? limit : limit + 1
  const k = clauses.length > 0 ? Math.max(numCandidates(limit), wanted) : wanted
  return {
    query: { knn: { [field]: { vector: queryVector(vector), k } } },
    ...(filter === null ? {} : { post_filter: filter }),
    size: limit
  }
}
