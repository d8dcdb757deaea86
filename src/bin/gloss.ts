#!/usr/bin/env node
/** The `gloss` command line: `gloss server` (what `npm start` runs) and the admin commands. */
import { Command } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer, Option } from "effect"
import { failureMessage } from "../cli/failureMessage.js"
import { terminalOutput } from "../cli/terminalOutput.js"
import { GlossConfig } from "../Config.js"
import { LoggingLive } from "../Logging.js"
import { VERSION } from "../version.js"
import { gloss } from "../cli/gloss.js"

const run = Command.run(gloss, { name: "gloss", version: VERSION })

// "gloss records import failed: …", "$ gloss records import …": a group's subcommand is part of the command's name.
const GROUPS = new Set(["db", "users", "workspaces", "datasets", "search", "records", "migrate"])
const COMMAND_WORD = /^[a-z][a-z-]*$/
const [first, second] = process.argv.slice(2)
const path = first === undefined || !COMMAND_WORD.test(first)
  ? []
  : GROUPS.has(first) && second !== undefined && COMMAND_WORD.test(second)
  ? [first, second]
  : [first]
const command = path.length === 0 ? first : path.join(" ")
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
  terminalOutput(path, process),
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
