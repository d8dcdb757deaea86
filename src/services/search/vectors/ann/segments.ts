/**
 * An ANN index set is a list of segments (usearch indexes: HNSW, cosine, vectors quantised to int8, ~530 bytes a
 * 384-dimensional vector instead of 1 536 as float32): sealed ones, saved and memory-mapped read-only (their pages are
 * the OS's file cache, which the kernel can drop, not the process's anonymous memory), and one writable in-memory
 * delta that new vectors go to. When the delta is full it is sealed. A search asks every segment and merges: a
 * sealed segment cannot forget a key, so a key re-added later (its vector changed) or deleted can still come back
 * from one; the caller rescores candidates from the database, which drops both.
 *
 * This module is what the worker (annIndex.worker.ts) and `npm run bench -- quantisation` share, so that the
 * benchmark measures the search the server runs.
 */

/** A usearch index as searchSegments uses it. */
export interface SegmentIndex {
  readonly search: (vector: Float32Array, k: number, threads: number) => { readonly keys: BigUint64Array; readonly distances: Float32Array }
  readonly size: () => number | bigint
}

/**
 * The keys of the `k` nearest vectors over a set's segments, nearest first: `k` of them whenever the segments hold
 * `k`. A key in two segments (re-added after its segment was sealed) keeps its nearer distance.
 *
 * Every segment is asked for all `k` (or all it holds), so the nearest still come out when they all sit in one
 * segment (a dataset imported in topic order), and a filtered search, which reads deep into the order, finds its
 * records wherever they are. (Half of `k` from each segment loses recall on filtered searches once segments are
 * few and large: `npm run bench -- scale` measures the filtered search's recall.)
 */
export const searchSegments = (
  segments: ReadonlyArray<SegmentIndex>,
  vector: Float32Array,
  k: number,
  /** Keys found outside the segments, with their cosine distance: a first build's staged vectors. */
  found: Iterable<readonly [number, number]> = []
): Array<number> => {
  const best = new Map<number, number>(found)
  for (const index of segments) {
    const size = Number(index.size())
    if (size === 0) continue
    const nearest = index.search(vector, Math.min(k, size), 1)
    for (let i = 0; i < nearest.keys.length; i++) {
      const key = Number(nearest.keys[i])
      const distance = nearest.distances[i]!
      if (!((best.get(key) ?? Infinity) <= distance)) best.set(key, distance)
    }
  }
  return [...best].sort((a, b) => a[1] - b[1]).slice(0, k).map(([key]) => key)
}

/** HNSW parameters: 16 links a node, 128 candidates kept while adding; searches keep `EXPANSION_SEARCH`. */
export const CONNECTIVITY = 16
export const EXPANSION_ADD = 128
/**
 * The delta's beam. Small, spread-out sets are the hard case: with 3 000 vectors in 1 000 clusters a query's 50
 * nearest come from many clusters at nearly equal distances, and a beam of 160 misses the scale benchmark's
 * recall@50 ≥ 0.95 target on them. A beam of 320 meets it; on large sets it costs a little time and no recall
 * (`npm run bench -- scale --records 3000` is the small run).
 */
export const EXPANSION_SEARCH = 320
/**
 * The beam a sealed segment is opened with. usearch searches with the larger of its beam and the count asked for,
 * and every segment is asked for the whole count (searchSegments), at least 100 (rank.ts): so a sealed segment
 * searches with that count as its beam, narrower than the delta's EXPANSION_SEARCH, which is the whole index below a
 * segment's size and must find the nearest in small, spread-out sets. This floor matters for smaller counts only:
 * a narrow beam on each sealed segment is what keeps a search over many segments cheap (see SEGMENT_VECTORS).
 */
export const SEALED_EXPANSION = 64
