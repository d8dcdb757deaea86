import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { ApplyResponses } from "../../services/records/ApplyResponses.js"
import { Responses } from "../../services/records/Responses.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const ResponsesLive = HttpApiBuilder.group(ServerApi, "responses", (handlers) =>
  Effect.gen(function*() {
    const responses = yield* Responses
    const apply = yield* ApplyResponses
    return handlers
      .handle("create", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => responses.create(actor, path.id, payload)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => responses.update(actor, path.id, payload)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => responses.delete(actor, path.id)))
      .handle("bulk", ({ payload }) => Effect.flatMap(CurrentUser, (actor) => responses.bulk(actor, payload.items)))
      .handle("apply", ({ path, payload }) => Effect.flatMap(CurrentUser, (actor) => apply.start(actor, path.id, payload)))
  })).pipe(Layer.provide([Responses.Default, ApplyResponses.Default]))
