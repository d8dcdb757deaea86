/** Single-label questions: Krippendorff's α (nominal), Cohen's κ per annotator pair and their mean, Fleiss' κ. */
import type { Codec } from "./answers.js"
import { fleissKappa, cohenKappa } from "./kappa.js"
import { krippendorffAlpha } from "./krippendorff.js"
import { meanOverPairs } from "./pairMeans.js"
import { figure, type Measures } from "./measures.js"
import { unitCount } from "./units.js"

export const labelSelectionMeasures = (codec: Codec<string>): Measures<string> => ({
  codec,
  pairFigure: { measure: "cohen_kappa", variant: null },
  pair: (values, data) => cohenKappa(values, data.distinct),
  figures: (data, pairs) => {
    const records = unitCount(data.units)
    return {
      figures: [
        figure("krippendorff_alpha", "nominal", krippendorffAlpha(data.units, data.distinct, { kind: "nominal" }), records),
        figure("cohen_kappa", null, meanOverPairs(pairs, (pair) => pair.estimate), records),
        figure("fleiss_kappa", null, fleissKappa(data.units, data.distinct), records)
      ],
      labels: []
    }
  }
})
