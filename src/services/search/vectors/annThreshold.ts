/**
 * From how many vectors a vector settings is searched through the ANN index instead of exactly. An exact search
 * scans a matrix of every vector, and both its time and its memory grow with vectors × dimensions: 20 000 vectors of
 * 384 dimensions (7.68 million numbers, 31 MB as float32) scan in a few milliseconds, and so do 5 000 of 1 536. Past
 * that the index answers sooner. Below it, the index only costs: a build in the background while records are
 * imported, a call to its worker and a rescoring read for every search. At 4 dimensions the index made the
 * `small` benchmark's vector search and ingest slower than the exact scan it replaced.
 *
 * However small the vectors, the matrix is made again from every row of the settings after another process writes,
 * and holds every record's id: MAX_EXACT bounds both (a bound chosen, not an optimum measured).
 *
 * `GLOSS_VECTOR_ANN_FROM`, when set, is the number of vectors whatever the dimensions.
 */
import { Option } from "effect"

/** The numbers (vectors × dimensions) an exact search scans at most: 20 000 vectors of 384 dimensions. */
export const EXACT_NUMBERS = 20_000 * 384
export const MAX_EXACT = 200_000

/** The threshold for vectors of `dimensions`: the configured one, or the one their size gives. */
export const annThreshold = (configured: Option.Option<number>) => (dimensions: number): number =>
  Option.getOrElse(configured, () => Math.min(MAX_EXACT, Math.ceil(EXACT_NUMBERS / Math.max(1, dimensions))))
