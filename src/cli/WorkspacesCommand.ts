import { Args, Command } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { Users } from "../services/users/Users.js"
import { Workspaces } from "../services/workspaces/Workspaces.js"
import { AdminLive, SYSTEM_OWNER, UsageError } from "./admin.js"

const name = Args.text({ name: "name" })

const create = Command.make("create", { name }, ({ name }) =>
  Effect.gen(function*() {
    const workspace = yield* (yield* Workspaces).createTrusted({ name })
    yield* Console.log(`Created workspace '${workspace.name}' (${workspace.id})`)
  }).pipe(Effect.provide(AdminLive))).pipe(Command.withDescription("Create a workspace"))

const list = Command.make("list", {}, () =>
  Effect.gen(function*() {
    for (const workspace of yield* (yield* Workspaces).workspacesOf(SYSTEM_OWNER)) {
      yield* Console.log(`${workspace.name}\t${workspace.id}`)
    }
  }).pipe(Effect.provide(AdminLive))).pipe(Command.withDescription("List workspaces: name, id"))

const addUser = Command.make("add-user", { workspace: Args.text({ name: "workspace" }), username: Args.text({ name: "username" }) }, (args) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    const workspace = yield* workspaces.findByName(args.workspace)
    const user = yield* (yield* Users).findByUsername(args.username)
    if (Option.isNone(workspace)) return yield* new UsageError({ message: `no workspace is named '${args.workspace}'` })
    if (Option.isNone(user)) return yield* new UsageError({ message: `no user is named '${args.username}'` })
    yield* workspaces.addUserTrusted(workspace.value.id, user.value.id)
    yield* Console.log(`Added '${args.username}' to '${args.workspace}'`)
  }).pipe(Effect.provide(AdminLive))).pipe(Command.withDescription("Make a user a member of a workspace"))

export const workspacesCommand = Command.make("workspaces").pipe(
  Command.withDescription("Manage workspaces"),
  Command.withSubcommands([create, list, addUser])
)
