import { Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { DatasetId } from "../domain/Ids.js"
import { Datasets } from "../services/datasets/Datasets.js"
import { SearchIndex } from "../services/records/SearchIndex.js"
import { AdminLive, SYSTEM_OWNER, UsageError } from "./admin.js"

const reindex = Command.make("reindex", {
  dataset: Options.text("dataset").pipe(
    Options.withSchema(DatasetId),
    Options.optional,
    Options.withDescription("Only this dataset (its id); default: every published dataset")
  )
}, ({ dataset }) =>
  Effect.gen(function*() {
    // A named dataset that is missing or still a draft is a mistake to report, not "nothing to index".
    if (Option.isSome(dataset)) {
      const found = yield* (yield* Datasets).get(SYSTEM_OWNER, dataset.value)
      if (found.status !== "ready") {
        return yield* new UsageError({ message: `dataset '${found.name}' is a draft: only published datasets have an index` })
      }
    }
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

