import { Effect } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import type { DatasetId } from "../../domain/Ids.js"
import type { AcceptAgreedRequest, AcceptAgreedResult } from "../../domain/Review.js"
import type { User } from "../../domain/User.js"
import { ReviewRights } from "./ReviewRights.js"

export class AcceptAgreed extends Effect.Service<AcceptAgreed>()("Gloss/AcceptAgreed", {
  effect: Effect.gen(function*() {
    const rights = yield* ReviewRights
    const accept = (actor: User, datasetId: DatasetId, _request: AcceptAgreedRequest) =>
      Effect.flatMap(
        rights.dataset(actor, datasetId),
        () => Effect.fail(new Unprocessable({ detail: "accepting agreed answers is not available yet" })) as Effect.Effect<AcceptAgreedResult, Unprocessable>
      )
    return { accept } as const
  }),
  dependencies: [ReviewRights.Default]
}) {}
