import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Option, Redacted } from "effect"
import type { Role } from "../domain/User.js"
import { Users } from "../services/users/Users.js"
import { Workspaces } from "../services/workspaces/Workspaces.js"
import { AdminLive, SYSTEM_OWNER, UsageError } from "./admin.js"

const roles: ReadonlyArray<[string, Role]> = [["owner", "owner"], ["admin", "admin"], ["annotator", "annotator"]]
const role = Options.choiceWithValue("role", roles).pipe(Options.withDescription("owner, admin or annotator"))
const username = Args.text({ name: "username" })

const findUser = (name: string) =>
  Effect.flatMap(Users, (users) => users.findByUsername(name)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.fail(new UsageError({ message: `no user is named '${name}'` })),
      onSome: Effect.succeed
    }))
  )

const create = Command.make("create", {
  username: Options.text("username").pipe(Options.withDescription("Unique login name")),
  password: Options.redacted("password").pipe(Options.withDescription("8 to 100 characters")),
  firstName: Options.text("first-name").pipe(Options.optional),
  lastName: Options.text("last-name").pipe(Options.optional),
  role: role.pipe(Options.withDefault<Role>("annotator")),
  apiKey: Options.redacted("api-key").pipe(Options.optional, Options.withDescription("Default: a random key")),
  // A default makes the usage line show it as optional: `[--workspace text...]`, not `--workspace text...`.
  workspace: Options.text("workspace").pipe(
    Options.repeated,
    Options.withDefault<ReadonlyArray<string>>([]),
    Options.withDescription("Member of (created if missing); repeat it for several workspaces")
  )
}, (options) =>
  Effect.gen(function*() {
    const users = yield* Users
    const workspaces = yield* Workspaces
    const password = Redacted.value(options.password)
    if (password.length < 8 || password.length > 100) {
      return yield* new UsageError({ message: "the password needs 8 to 100 characters" })
    }
    const user = yield* users.createTrusted({
      username: options.username,
      password,
      first_name: Option.getOrElse(options.firstName, () => options.username),
      last_name: Option.getOrNull(options.lastName),
      role: options.role,
      api_key: Option.getOrUndefined(Option.map(options.apiKey, Redacted.value))
    })
    for (const name of options.workspace) {
      const existing = yield* workspaces.findByName(name)
      const workspace = Option.isSome(existing) ? existing.value : yield* workspaces.createTrusted({ name })
      yield* workspaces.addUserTrusted(workspace.id, user.id)
    }
    yield* Console.log(`Created ${user.role} '${user.username}' (${user.id}); API key: ${user.api_key}`)
  }).pipe(Effect.provide(AdminLive))).pipe(Command.withDescription("Create a user (prints its API key once)"))

const list = Command.make("list", {}, () =>
  Effect.gen(function*() {
    const users = yield* Users
    for (const user of yield* users.list(SYSTEM_OWNER)) {
      yield* Console.log(`${user.username}\t${user.role}\t${user.id}`)
    }
  }).pipe(Effect.provide(AdminLive))).pipe(Command.withDescription("List users: username, role, id"))

const update = Command.make("update", {
  username,
  role: role.pipe(Options.optional),
  password: Options.redacted("password").pipe(Options.optional),
  firstName: Options.text("first-name").pipe(Options.optional),
  lastName: Options.text("last-name").pipe(Options.optional)
}, (options) =>
  Effect.gen(function*() {
    const users = yield* Users
    const current = yield* findUser(options.username)
    const updated = yield* users.updateTrusted(current, {
      ...Option.match(options.role, { onNone: () => ({}), onSome: (value) => ({ role: value }) }),
      ...Option.match(options.password, { onNone: () => ({}), onSome: (value) => ({ password: Redacted.value(value) }) }),
      ...Option.match(options.firstName, { onNone: () => ({}), onSome: (value) => ({ first_name: value }) }),
      ...Option.match(options.lastName, { onNone: () => ({}), onSome: (value) => ({ last_name: value }) })
    })
    yield* Console.log(`Updated '${updated.username}' (${updated.role})`)
  }).pipe(Effect.provide(AdminLive))).pipe(Command.withDescription("Change a user's role, password or names"))

const remove = Command.make("delete", { username }, ({ username }) =>
  Effect.gen(function*() {
    const users = yield* Users
    const user = yield* findUser(username)
    yield* users.delete(SYSTEM_OWNER, user.id)
    yield* Console.log(`Deleted '${user.username}'`)
  }).pipe(Effect.provide(AdminLive))).pipe(Command.withDescription("Delete a user and their responses"))

export const usersCommand = Command.make("users").pipe(
  Command.withDescription("Manage users"),
  Command.withSubcommands([create, list, update, remove])
)
