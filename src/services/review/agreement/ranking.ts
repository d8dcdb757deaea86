import type { Codec, Ranks, Span } from "./answers.js"
import { undefinedBecause } from "./figures.js"
import type { Measures } from "./measures.js"

const NOT_YET = undefinedBecause("not computed yet")

export const rankingMeasures = (codec: Codec<Ranks>): Measures<Ranks> => ({
  codec,
  pairFigure: { measure: "krippendorff_alpha", variant: null },
  pair: () => NOT_YET,
  figures: () => ({ figures: [], labels: [] })
})
