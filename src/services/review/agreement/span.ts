import type { Codec, Ranks, Span } from "./answers.js"
import { undefinedBecause } from "./figures.js"
import type { Measures } from "./measures.js"

const NOT_YET = undefinedBecause("not computed yet")

export const spanMeasures = (codec: Codec<ReadonlyArray<Span>>): Measures<ReadonlyArray<Span>> => ({
  codec,
  pairFigure: { measure: "krippendorff_alpha", variant: null },
  pair: () => NOT_YET,
  figures: () => ({ figures: [], labels: [] })
})
