/** Where the agreement page sends a reviewer: review mode's Disagreements queue, of one question or of all. */
import type { DatasetId } from "../../../../src/domain/Ids.js"

/** Review mode's own query keys (`reviewViewFromUrl` in ui/src/data/reviewQuery.ts reads them). */
export const disagreementsLink = (datasetId: DatasetId, question?: string) =>
  `/dataset/${datasetId}/annotation-mode?review=1&review_queue=disagreement` +
  (question === undefined ? "" : `&review_question=${encodeURIComponent(question)}`)
