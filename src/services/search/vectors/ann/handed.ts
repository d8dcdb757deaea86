/**
 * The vectors this process wrote, handed to the index as the write committed, so that its catch-up adds them
 * without reading them back. A catch-up still learns what to add from the database (the keys and times written since
 * its watermark, which other processes' writes are among); only the values it would have read are taken from here,
 * and only where the record and the time match. Reading them back was most of a catch-up behind a bulk import on
 * SQLite: the values crossed from the search worker to the main thread, and on to the index's worker.
 *
 * Bounded: past MAX_NUMBERS a write's vectors are not kept, and the catch-up reads those as before.
 */
import { normalise } from "../math.js"
import type { WrittenVector } from "../../Query.js"

/** At most this many numbers held (32 MB of float32: 20 833 vectors of 384 dimensions). */
const MAX_NUMBERS = 8_000_000

export interface HandedVectors {
  /** Keeps the unit vectors of these (those of these dimensions), within the bound. */
  readonly keep: (vectors: ReadonlyArray<WrittenVector>) => void
  /** The unit vector handed for this record with this very time (epoch milliseconds), forgotten once taken. */
  readonly take: (recordId: string, at: number) => Float32Array | undefined
  /** Forgets those written before `floor`: no catch-up reads stamps that old any more. */
  readonly prune: (floor: number) => void
  readonly size: () => number
}

export const makeHandedVectors = (dimensions: number): HandedVectors => {
  const held = new Map<string, { readonly at: number; readonly unit: Float32Array }>()
  const room = Math.floor(MAX_NUMBERS / Math.max(1, dimensions))
  return {
    keep: (vectors) => {
      for (const vector of vectors) {
        if (vector.value.length !== dimensions) continue
        // A record written again replaces its entry: the later write committed later.
        if (held.size >= room && !held.has(vector.recordId)) return
        const unit = new Float32Array(dimensions)
        normalise(vector.value, unit, 0)
        held.set(vector.recordId, { at: vector.at.getTime(), unit })
      }
    },
    take: (recordId, at) => {
      const found = held.get(recordId)
      if (found === undefined || found.at !== at) return undefined
      held.delete(recordId)
      return found.unit
    },
    prune: (floor) => {
      if (held.size === 0) return
      for (const [recordId, { at }] of held) if (at < floor) held.delete(recordId)
    },
    size: () => held.size
  }
}
