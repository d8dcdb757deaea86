import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { CurrentUser } from "../../contract/Authentication.js"
import { AcceptAgreed } from "../../services/review/AcceptAgreed.js"
import { Agreement } from "../../services/review/Agreement.js"
import { FinalAnswers } from "../../services/review/FinalAnswers.js"
import { ReviewQueue } from "../../services/review/ReviewQueue.js"
import { ReviewRights } from "../../services/review/ReviewRights.js"
import { ServerApi } from "../ServerApi.js"

export const ReviewLive = HttpApiBuilder.group(ServerApi, "review", (handlers) =>
  Effect.gen(function*() {
    const agreement = yield* Agreement
    const queue = yield* ReviewQueue
    const finalAnswers = yield* FinalAnswers
    const acceptAgreed = yield* AcceptAgreed
    const rights = yield* ReviewRights
    return handlers
      .handle("agreement", ({ path, payload }) => Effect.flatMap(CurrentUser, (user) => agreement.report(user, path.id, payload)))
      .handle("queue", ({ path, payload, urlParams }) =>
        Effect.flatMap(CurrentUser, (user) => queue.page(user, path.id, payload, urlParams)))
      .handle("finalAnswers", ({ path }) => Effect.flatMap(CurrentUser, (user) => finalAnswers.get(user, path.id)))
      .handle("settle", ({ path, payload }) => Effect.flatMap(CurrentUser, (user) => finalAnswers.settle(user, path.id, payload)))
      .handle("unsettle", ({ path }) =>
        Effect.flatMap(CurrentUser, (user) => finalAnswers.unsettle(user, path.id, path.question)))
      .handle("acceptAgreed", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (user) => acceptAgreed.accept(user, path.id, payload)))
      .handle("reviewers", ({ path }) => Effect.flatMap(CurrentUser, (user) => rights.list(user, path.id)))
      .handle("addReviewer", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (user) => rights.add(user, path.id, payload.user_id)))
      .handle("removeReviewer", ({ path }) => Effect.flatMap(CurrentUser, (user) => rights.remove(user, path.id, path.user_id)))
      .handle("mine", () => Effect.flatMap(CurrentUser, rights.mine))
  })).pipe(Layer.provide([Agreement.Default, ReviewQueue.Default, FinalAnswers.Default, AcceptAgreed.Default, ReviewRights.Default]))
