/**
 * The review queue's stable sample: a record is in the `percent` % sample of `seed` when the 32-bit FNV-1a hash of
 * the UTF-8 text `seed + ":" + recordId`, read as a fraction of 2³², is below `percent / 100`. The same seed gives
 * the same sample on every server and every call, records added later join or stay out of it without moving the
 * others, and a different seed draws another sample. docs/reference/compatibility.md says so for clients.
 */
const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const encoder = new TextEncoder()

export const fnv1a32 = (text: string): number => {
  let hash = FNV_OFFSET
  for (const byte of encoder.encode(text)) {
    hash ^= byte
    hash = Math.imul(hash, FNV_PRIME) >>> 0
  }
  return hash >>> 0
}

export const inSample = (seed: string, recordId: string, percent: number): boolean =>
  fnv1a32(`${seed}:${recordId}`) / 2 ** 32 < percent / 100
