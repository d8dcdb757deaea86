import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Search } from "../../services/records/Search.js"
import { searchAnswer } from "../RecordsWire.js"
import { ServerApi } from "../ServerApi.js"
import { CurrentUser } from "../../contract/Authentication.js"

export const SearchLive = HttpApiBuilder.group(ServerApi, "search", (handlers) =>
  Effect.gen(function*() {
    const search = yield* Search
    // A page of records is written out directly, as the schema would encode it (see RecordsWire).
    return handlers
      .handle("mine", ({ path, payload, urlParams }) =>
        Effect.flatMap(CurrentUser, (actor) => Effect.map(search.searchRecords(actor, path.id, payload, urlParams, true), searchAnswer)))
      .handle("all", ({ path, payload, urlParams }) =>
        Effect.flatMap(CurrentUser, (actor) => Effect.map(search.searchRecords(actor, path.id, payload, urlParams, false), searchAnswer)))
      .handle("metadataMetrics", ({ path }) => Effect.flatMap(CurrentUser, (actor) => search.metadataMetrics(actor, path.id)))
      .handle("suggestionsOptions", ({ path }) =>
        Effect.flatMap(CurrentUser, (actor) => search.suggestionsOptions(actor, path.id)))
  })).pipe(Layer.provide(Search.Default))
