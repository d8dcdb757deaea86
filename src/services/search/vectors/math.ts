/**
 * Exact cosine similarity: over vectors kept in memory (normalised once, then a dot product per candidate), and of a
 * stored vector with a query. The SQLite search worker imports this module too, for its SQL function `gloss_cosine`
 * (database/sqliteReader.worker.ts): every path scores alike, to the bit.
 */

export interface VectorMatrix {
  readonly ids: ReadonlyArray<string>
  readonly dimensions: number
  /** Row i is the unit vector of ids[i] (zero vectors stay zero). */
  readonly data: Float32Array
}

/** Writes the unit vector of `vector` at `offset` of `into` (a zero vector stays zero). */
export const normalise = (vector: ReadonlyArray<number> | Float64Array, into: Float32Array, offset: number) => {
  let sum = 0
  for (let i = 0; i < vector.length; i++) sum += (vector[i] ?? 0) * (vector[i] ?? 0)
  const scale = sum === 0 ? 0 : 1 / Math.sqrt(sum)
  for (let i = 0; i < vector.length; i++) into[offset + i] = (vector[i] ?? 0) * scale
}

const dot = (data: Float32Array, offset: number, query: Float32Array, dimensions: number) => {
  // Four accumulators let the CPU overlap the multiply-adds.
  let a = 0, b = 0, c = 0, d = 0
  let i = 0
  for (; i + 3 < dimensions; i += 4) {
    a += data[offset + i]! * query[i]!
    b += data[offset + i + 1]! * query[i + 1]!
    c += data[offset + i + 2]! * query[i + 2]!
    d += data[offset + i + 3]! * query[i + 3]!
  }
  for (; i < dimensions; i++) a += data[offset + i]! * query[i]!
  return a + b + c + d
}

/**
 * Where `storedCosine` copies its operands (a view may start at an unaligned offset), made again only when the
 * dimensions change. A search scores a hundred stored vectors: three new buffers for each were hundreds of
 * kilobytes of external memory a search, and V8 runs a full collection each time external memory has grown enough.
 */
let scratch: {
  readonly dimensions: number
  readonly stored: Uint8Array
  readonly values: Float64Array
  readonly unit: Uint8Array
  readonly query: Float32Array
  readonly row: Float32Array
} | undefined
const scratchOf = (dimensions: number) => {
  if (scratch?.dimensions !== dimensions) {
    const values = new Float64Array(dimensions)
    const query = new Float32Array(dimensions)
    scratch = {
      dimensions,
      stored: new Uint8Array(values.buffer),
      values,
      unit: new Uint8Array(query.buffer),
      query,
      row: new Float32Array(dimensions)
    }
  }
  return scratch
}

/**
 * The cosine of a stored vector (little-endian float64 bytes, see DbVector) with a unit query (float32 bytes):
 * null when their dimensions differ.
 */
export const storedCosine = (stored: Uint8Array, unit: Uint8Array): number | null => {
  const dimensions = unit.byteLength / 4
  if (stored.byteLength !== dimensions * 8) return null
  const at = scratchOf(dimensions)
  at.stored.set(stored)
  at.unit.set(unit)
  // `normalise`'s arithmetic, in the same order (so the same bits), written out for float64s only: `normalise`
  // also takes arrays, and the optimised code of a read that may come from either boxed every double it read: a
  // large share of all a vector search allocated on PostgreSQL.
  const { row, values } = at
  let sum = 0
  for (let i = 0; i < dimensions; i++) sum += values[i]! * values[i]!
  const scale = sum === 0 ? 0 : 1 / Math.sqrt(sum)
  for (let i = 0; i < dimensions; i++) row[i] = values[i]! * scale
  return dot(row, 0, at.query, dimensions)
}

/** The unit vector of `query`, as the bytes `storedCosine` (and SQL's `gloss_cosine`) take. */
export const unitBytes = (query: ReadonlyArray<number>): Uint8Array => {
  const unit = new Float32Array(query.length)
  normalise(query, unit, 0)
  return new Uint8Array(unit.buffer)
}

/**
 * The `k` rows most (or least) similar to `query`, best first, among those `allowed` (all when undefined), without
 * `exclude`. Scores are cosine similarities; for `least_similar` the order is reversed, not the scores.
 */
export const topK = (
  matrix: VectorMatrix,
  query: ReadonlyArray<number>,
  k: number,
  options: { readonly least: boolean; readonly allowed?: ReadonlySet<string> | undefined; readonly exclude?: string | undefined }
): Array<{ readonly id: string; readonly score: number }> => {
  const unit = new Float32Array(matrix.dimensions)
  normalise(query, unit, 0)
  const sign = options.least ? -1 : 1
  // A small min-heap of the best k (by signed score) seen so far.
  const heapScores: Array<number> = []
  const heapRows: Array<number> = []
  const swap = (i: number, j: number) => {
    ;[heapScores[i], heapScores[j]] = [heapScores[j]!, heapScores[i]!]
    ;[heapRows[i], heapRows[j]] = [heapRows[j]!, heapRows[i]!]
  }
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (heapScores[parent]! <= heapScores[i]!) return
      swap(i, parent)
      i = parent
    }
  }
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1, r = l + 1
      let m = i
      if (l < heapScores.length && heapScores[l]! < heapScores[m]!) m = l
      if (r < heapScores.length && heapScores[r]! < heapScores[m]!) m = r
      if (m === i) return
      swap(i, m)
      i = m
    }
  }
  for (let row = 0; row < matrix.ids.length; row++) {
    const id = matrix.ids[row]!
    if (id === options.exclude || (options.allowed !== undefined && !options.allowed.has(id))) continue
    const score = sign * dot(matrix.data, row * matrix.dimensions, unit, matrix.dimensions)
    if (heapScores.length < k) {
      heapScores.push(score)
      heapRows.push(row)
      up(heapScores.length - 1)
    } else if (k > 0 && score > heapScores[0]!) {
      heapScores[0] = score
      heapRows[0] = row
      down(0)
    }
  }
  return heapRows
    .map((row, i) => ({ id: matrix.ids[row]!, score: sign * heapScores[i]! }))
    .sort((x, y) => sign * (y.score - x.score))
}
