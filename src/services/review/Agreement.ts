import { Effect } from "effect"
import { Unprocessable } from "../../domain/Errors.js"
import type { DatasetId } from "../../domain/Ids.js"
import type { AgreementReport, AgreementRequest } from "../../domain/Review.js"
import type { User } from "../../domain/User.js"
import { ReviewRights } from "./ReviewRights.js"

export class Agreement extends Effect.Service<Agreement>()("Gloss/Agreement", {
  effect: Effect.gen(function*() {
    const rights = yield* ReviewRights
    const report = (actor: User, datasetId: DatasetId, _request: AgreementRequest) =>
      Effect.flatMap(
        rights.dataset(actor, datasetId),
        () => Effect.fail(new Unprocessable({ detail: "agreement is not available yet" })) as Effect.Effect<AgreementReport, Unprocessable>
      )
    return { report } as const
  }),
  dependencies: [ReviewRights.Default]
}) {}
