/** Closed-loop load: `clients` loops each sending one request after another for `seconds`; exact percentiles. */
export interface LatencyResult {
  readonly requests: number
  readonly requestsPerSecond: number
  readonly latencyMs: { readonly p50: number; readonly p95: number; readonly p99: number }
}

/** The p-th percentile of ascending `sorted` (nearest rank below). */
export const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

export const measureLatency = async (
  clients: number,
  seconds: number,
  send: (i: number) => Promise<void>
): Promise<LatencyResult> => {
  const latencies: Array<number> = []
  const until = performance.now() + seconds * 1000
  const started = performance.now()
  let sent = 0
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < until) {
      const t = performance.now()
      await send(sent++)
      latencies.push(performance.now() - t)
    }
  }))
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const round = (ms: number) => Math.round(ms * 10) / 10
  return {
    requests: latencies.length,
    requestsPerSecond: Math.round(latencies.length / elapsed),
    latencyMs: { p50: round(percentile(latencies, 50)), p95: round(percentile(latencies, 95)), p99: round(percentile(latencies, 99)) }
  }
}

/** Deterministic unit-ish vectors: the benchmark must not depend on Math.random. */
export const vector = (seed: number, dimensions: number) => {
  let state = (seed + 1) * 2654435761 % 4294967296
  return Array.from({ length: dimensions }, () => {
    state = (state * 1664525 + 1013904223) % 4294967296
    return Math.round(((state / 4294967296) * 2 - 1) * 1e4) / 1e4
  })
}

const CLUSTERS = 1_000
const clusterCentres = new Map<number, Float32Array>()

/**
 * Deterministic vectors shaped like embeddings: each lies near one of 1 000 centres (a centre plus noise of about
 * its own size). Uniform random vectors in 384 dimensions are all nearly equidistant, so "nearest" means little and
 * no approximate index is built for them; real embeddings of text cluster by topic, as these do.
 */
export const clusteredVector = (seed: number, dimensions: number): Array<number> => {
  let centre = clusterCentres.get(dimensions)
  if (centre === undefined) {
    centre = Float32Array.from(vector(-1 + 7_919 * dimensions, CLUSTERS * dimensions))
    clusterCentres.set(dimensions, centre)
  }
  const offset = ((seed * 7_919) % CLUSTERS) * dimensions
  const noise = vector(seed + 1_000_003, dimensions * 2)
  return Array.from({ length: dimensions }, (_, d) =>
    Math.round((centre[offset + d]! + 0.6 * (noise[d]! + noise[dimensions + d]!)) * 1e4) / 1e4)
}
