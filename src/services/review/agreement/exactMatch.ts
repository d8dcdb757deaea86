/** The share of answer pairs that are equal, within each compared record, over every compared record. */
import { defined, type Estimate, NO_COMPARED, undefinedBecause } from "./figures.js"
import { unitCount, type Units } from "./units.js"

export const exactMatch = (units: Units): Estimate => {
  const { offsets, values } = units
  let equal = 0
  let pairs = 0
  for (let u = 0; u < unitCount(units); u++) {
    const from = offsets[u] ?? 0
    const to = offsets[u + 1] ?? 0
    for (let i = from; i < to; i++) for (let j = i + 1; j < to; j++) if (values[i] === values[j]) equal++
    pairs += ((to - from) * (to - from - 1)) / 2
  }
  return pairs === 0 ? undefinedBecause(NO_COMPARED) : defined(equal / pairs)
}

/** The same over two coders' `[a0, b0, a1, b1, …]`. */
export const pairExactMatch = (values: Int32Array): Estimate => {
  if (values.length === 0) return undefinedBecause(NO_COMPARED)
  let equal = 0
  for (let i = 0; i < values.length; i += 2) if (values[i] === values[i + 1]) equal++
  return defined(equal / (values.length / 2))
}
