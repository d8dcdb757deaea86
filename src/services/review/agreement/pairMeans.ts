/** A question's figure as the mean of its annotator pairs' figures. */
import { defined, type Estimate, NO_COMPARED, undefinedBecause } from "./figures.js"
import type { PairResult } from "./measures.js"

/** The mean of the pairs' defined figures; null, with the first pair's reason, when none is defined. */
export const meanOverPairs = (
  pairs: ReadonlyArray<PairResult>,
  estimateOf: (pair: PairResult) => Estimate
): Estimate => {
  let sum = 0
  let count = 0
  let reason: string | null = null
  for (const pair of pairs) {
    const estimate = estimateOf(pair)
    if (estimate.value === null) reason ??= estimate.note
    else {
      sum += estimate.value
      count++
    }
  }
  if (count === 0) return undefinedBecause(pairs.length === 0 ? NO_COMPARED : reason ?? NO_COMPARED)
  return defined(sum / count, count < pairs.length ? `mean over the ${count} of ${pairs.length} annotator pairs where it is defined` : null)
}
