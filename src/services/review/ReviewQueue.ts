import { Effect } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import type { DatasetId } from "../../domain/Ids.js"
import type { ReviewQueuePage, ReviewQueueRequest } from "../../domain/Review.js"
import type { User } from "../../domain/User.js"
import { ReviewRights } from "./ReviewRights.js"

export class ReviewQueue extends Effect.Service<ReviewQueue>()("Gloss/ReviewQueue", {
  effect: Effect.gen(function*() {
    const rights = yield* ReviewRights
    const page = (actor: User, datasetId: DatasetId, _request: ReviewQueueRequest, _paging: { offset: number; limit: number }) =>
      Effect.flatMap(
        rights.dataset(actor, datasetId),
        () => Effect.fail(new Unprocessable({ detail: "the review queue is not available yet" })) as Effect.Effect<ReviewQueuePage, Unprocessable>
      )
    return { page } as const
  }),
  dependencies: [ReviewRights.Default]
}) {}
