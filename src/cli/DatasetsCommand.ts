/**
 * `gloss datasets list`: the ids that `records import` and `search reindex` take, with what names them; `export` and
 * `import` (DatasetsTransferCommand.ts) move a dataset to and from a folder.
 */
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { Datasets } from "../services/datasets/Datasets.js"
import { Workspaces } from "../services/workspaces/Workspaces.js"
import { AdminLive, SYSTEM_OWNER, UsageError } from "./admin.js"
import { datasetsTransferCommands } from "./DatasetsTransferCommand.js"

const list = Command.make("list", {
  workspace: Options.text("workspace").pipe(
    Options.optional,
    Options.withDescription("Only the datasets of this workspace (its name); default: every workspace")
  )
}, ({ workspace }) =>
  Effect.gen(function*() {
    const workspaces = yield* (yield* Workspaces).workspacesOf(SYSTEM_OWNER)
    const workspaceId = yield* Option.match(workspace, {
      onNone: () => Effect.succeed(undefined),
      onSome: (name) => {
        const found = workspaces.find((w) => w.name === name)
        return found === undefined
          ? Effect.fail(new UsageError({ message: `no workspace is named '${name}'` }))
          : Effect.succeed(found.id)
      }
    })
    const datasets = yield* (yield* Datasets).listFor(SYSTEM_OWNER, { workspace_id: workspaceId })
    const nameOf = new Map(workspaces.map((w) => [w.id, w.name]))
    for (const dataset of datasets) {
      yield* Console.log([dataset.id, dataset.name, nameOf.get(dataset.workspace_id) ?? dataset.workspace_id, dataset.status].join("\t"))
    }
    // On stderr: a script reading stdout sees no rows, a person sees why.
    if (datasets.length === 0) {
      yield* Console.error(Option.match(workspace, {
        onNone: () => "No datasets yet",
        onSome: (name) => `No datasets in workspace '${name}'`
      }))
    }
  }).pipe(Effect.provide(AdminLive))).pipe(
  Command.withDescription("List datasets: id, name, workspace, status (draft or ready), tab-separated")
)

export const datasetsCommand = Command.make("datasets").pipe(
  Command.withDescription("Datasets"),
  Command.withSubcommands([list, ...datasetsTransferCommands])
)
