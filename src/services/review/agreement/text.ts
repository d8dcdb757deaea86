/** Text questions: exact match only (added for every type by question.ts), after trimming and case folding. */
import type { Codec } from "./answers.js"
import { pairExactMatch } from "./exactMatch.js"
import type { Measures } from "./measures.js"

export const textMeasures = (codec: Codec<string>): Measures<string> => ({
  codec,
  pairFigure: { measure: "exact_match", variant: null },
  pair: (values) => pairExactMatch(values),
  figures: () => ({ figures: [], labels: [] })
})
