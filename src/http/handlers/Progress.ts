import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Progress } from "../../services/records/Progress.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const ProgressLive = HttpApiBuilder.group(ServerApi, "progress", (handlers) =>
  Effect.gen(function*() {
    const progress = yield* Progress
    return handlers
      .handle("dataset", ({ path }) => Effect.flatMap(CurrentUser, (actor) => progress.dataset(actor, path.id)))
      .handle("users", ({ path }) => Effect.flatMap(CurrentUser, (actor) => progress.users(actor, path.id)))
      .handle("mine", ({ path }) => Effect.flatMap(CurrentUser, (actor) => progress.metrics(actor, path.id)))
  })).pipe(Layer.provide(Progress.Default))
