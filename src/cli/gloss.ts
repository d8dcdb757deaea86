/** The root `gloss` command and its subcommands: imported by `src/bin/gloss.ts`, which runs it, and by the script that
 * writes the command-line reference (`scripts/docs/reference.ts`), which renders its help. */
import { Command } from "@effect/cli"
import { bootstrapCommand } from "./BootstrapCommand.js"
import { datasetsCommand } from "./DatasetsCommand.js"
import { dbCommand } from "./DbCommand.js"
import { migrateCommand } from "./MigrateCommand.js"
import { deployCommand } from "./DeployCommand.js"
import { loginCommand, logoutCommand } from "./LoginCommand.js"
import { recordsCommand } from "./RecordsCommand.js"
import { searchCommand } from "./SearchCommand.js"
import { usersCommand } from "./UsersCommand.js"
import { workspacesCommand } from "./WorkspacesCommand.js"
import { serverCommand } from "./ServerCommand.js"
import { workerCommand } from "./WorkerCommand.js"

export const gloss = Command.make("gloss").pipe(
  Command.withDescription("Gloss: an annotation server with a REST API and a typed TypeScript client"),
  Command.withSubcommands([
    serverCommand,
    workerCommand,
    dbCommand,
    bootstrapCommand,
    usersCommand,
    workspacesCommand,
    datasetsCommand,
    searchCommand,
    recordsCommand,
    migrateCommand,
    deployCommand,
    loginCommand,
    logoutCommand
  ])
)
