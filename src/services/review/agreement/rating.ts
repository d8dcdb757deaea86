/** Rating questions: Krippendorff's α, ordinal (the pairs' figure) and interval. */
import type { Codec } from "./answers.js"
import { krippendorffAlpha } from "./krippendorff.js"
import { figure, type Measures } from "./measures.js"
import { pairUnits, unitCount } from "./units.js"

export const ratingMeasures = (codec: Codec<number>): Measures<number> => ({
  codec,
  pairFigure: { measure: "krippendorff_alpha", variant: "ordinal" },
  pair: (values, data) => krippendorffAlpha(pairUnits(values), data.distinct, { kind: "ordinal", numbers: data.items }),
  figures: (data) => {
    const records = unitCount(data.units)
    return {
      figures: [
        figure("krippendorff_alpha", "ordinal", krippendorffAlpha(data.units, data.distinct, { kind: "ordinal", numbers: data.items }), records),
        figure("krippendorff_alpha", "interval", krippendorffAlpha(data.units, data.distinct, { kind: "interval", numbers: data.items }), records)
      ],
      labels: []
    }
  }
})
