import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Schema } from "effect"
import { Suggestion } from "../../domain/Suggestion.js"
import { Suggestions } from "../../services/records/Suggestions.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

const encode = Schema.encode(Suggestion)

export const SuggestionsLive = HttpApiBuilder.group(ServerApi, "suggestions", (handlers) =>
  Effect.gen(function*() {
    const suggestions = yield* Suggestions
    return handlers
      .handle("list", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => suggestions.list(actor, path.id)).pipe(Effect.map((items) => ({ items }))))
      // 201 when the question had no suggestion on this record yet, 200 when one was replaced (as the contract says).
      .handle("upsert", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (actor) => suggestions.upsert(actor, path.id, payload)).pipe(
          Effect.flatMap(({ created, suggestion }) =>
            Effect.map(encode(suggestion).pipe(Effect.orDie), (body) =>
              HttpServerResponse.unsafeJson(body, { status: created ? 201 : 200 }))
          )
        ))
      .handle("deleteMany", ({ path, urlParams }) =>
        Effect.flatMap(CurrentUser, (actor) => suggestions.deleteMany(actor, path.id, urlParams.ids)))
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (actor) => suggestions.delete(actor, path.id)))
  })).pipe(Layer.provide(Suggestions.Default))
