import { Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { DatasetId } from "../domain/Ids.js"
import { SearchIndex } from "../services/search/SearchIndex.js"
import { AdminLive } from "./admin.js"

const reindex = Command.make("reindex", {
  dataset: Options.text("dataset").pipe(
    Options.withSchema(DatasetId),
    Options.optional,
    Options.withDescription("Only this dataset (its id); default: every published dataset")
  )
}, ({ dataset }) =>
  Effect.gen(function*() {
    const counts = yield* (yield* SearchIndex).reindex(Option.getOrUndefined(dataset))
    for (const { dataset: name, records } of counts) yield* Console.log(`${name}: ${records} records indexed`)
    if (counts.length === 0) yield* Console.log("No published dataset to index")
  }).pipe(Effect.provide(AdminLive))).pipe(
  Command.withDescription(
    "Rebuild search indexes from the database (the source of truth): after changing the search engine's " +
      "configuration, or to repair an index"
  )
)

export const searchCommand = Command.make("search").pipe(
  Command.withDescription("Search engine maintenance"),
  Command.withSubcommands([reindex])
)

