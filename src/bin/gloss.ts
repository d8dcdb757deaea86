#!/usr/bin/env node
/** The `gloss` command line: `gloss server` (what `npm start` runs) and the admin commands. */
import { Command } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer, Option } from "effect"
import { bootstrapCommand } from "../cli/BootstrapCommand.js"
import { dbCommand } from "../cli/DbCommand.js"
import { deployCommand } from "../cli/DeployCommand.js"
import { loginCommand, logoutCommand } from "../cli/LoginCommand.js"
import { recordsCommand } from "../cli/RecordsCommand.js"
import { searchCommand } from "../cli/SearchCommand.js"
import { usersCommand } from "../cli/UsersCommand.js"
import { workspacesCommand } from "../cli/WorkspacesCommand.js"
import { failureMessage } from "../cli/failureMessage.js"
import { serverCommand } from "../cli/ServerCommand.js"
import { workerCommand } from "../cli/WorkerCommand.js"
import { GlossConfig } from "../Config.js"
import { LoggingLive } from "../Logging.js"
import { VERSION } from "../version.js"

const gloss = Command.make("gloss").pipe(
  Command.withDescription("Gloss: an annotation server with a REST API and a typed TypeScript client"),
  Command.withSubcommands([
    serverCommand,
    workerCommand,
    dbCommand,
    bootstrapCommand,
    usersCommand,
    workspacesCommand,
    searchCommand,
    recordsCommand,
    deployCommand,
    loginCommand,
    logoutCommand
  ])
)

const run = Command.run(gloss, { name: "gloss", version: VERSION })

// "gloss records import failed: …": a group's subcommand is part of the command's name.
const GROUPS = new Set(["db", "users", "workspaces", "search", "records"])
const [first, second] = process.argv.slice(2)
const command = first !== undefined && GROUPS.has(first) && second !== undefined && /^[a-z][a-z-]*$/.test(second)
  ? `${first} ${second}`
  : first
const heading = command === undefined || command === "server" ? "Gloss cannot start" : `gloss ${command} failed`

// The logger is configured from the same environment as everything else; a bad GLOSS_LOG_* value is reported with
// the rest of the configuration errors, so fall back to defaults for reading it here.
const logging = Layer.unwrapEffect(
  GlossConfig.load.pipe(
    Effect.map(({ server }) => LoggingLive(server.logLevel, server.logFormat)),
    Effect.orElseSucceed(() => LoggingLive("info", "text"))
  )
)

run(process.argv).pipe(
  Effect.provide(logging),
  Effect.provide(NodeContext.layer),
  Effect.tapErrorCause((cause) =>
    Option.match(failureMessage(cause, heading), {
      onNone: () => Effect.void,
      onSome: (message) => Console.error(message)
    })
  ),
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
