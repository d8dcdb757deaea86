/**
 * The owner bootstrap, as Argilla's container does it: with `USERNAME` and `PASSWORD` set, the owner exists after
 * start-up, with `API_KEY` as its key when given, and member of `WORKSPACE` when given. Running it again changes
 * nothing.
 */
import { Effect, Option, Redacted } from "effect"
import { GlossConfig } from "./Config.js"
import { Conflict } from "./domain/Errors.js"
import { Users } from "./services/users/Users.js"
import { Workspaces } from "./services/workspaces/Workspaces.js"

/** What the log says when nobody can sign in yet. */
export const FIRST_OWNER_HINT = "No owner exists yet, so nobody can sign in. Create the first one by starting the server " +
  "with USERNAME and PASSWORD set (USERNAME=admin PASSWORD=<8+ characters> npm start; API_KEY and WORKSPACE are " +
  "optional), or with `npm run gloss -- users create --username admin --password <8+ characters> --role owner` on the " +
  "same database."

/**
 * A create that met a unique violation (a `Conflict`) because another process created the same thing meanwhile:
 * what it created, read back. Several servers may start at once on one database with the same variables (replicas).
 */
const orCreatedMeanwhile = <A, R>(find: Effect.Effect<Option.Option<A>, never, R>) =>
<B, E, R2>(create: Effect.Effect<B, E, R2>): Effect.Effect<A | B, E, R | R2> =>
  Effect.catchIf(create, (error) => error instanceof Conflict, (conflict) =>
    Effect.flatMap(find, Option.match({ onNone: () => Effect.fail(conflict), onSome: (found) => Effect.succeed(found) })))

export const ensureOwner = Effect.gen(function*() {
  const { owner } = yield* GlossConfig
  if (Option.isNone(owner.username) || Option.isNone(owner.password)) {
    if (Option.isSome(owner.username) && Option.isNone(owner.password)) {
      // On a Space with OAuth this is how the owner is named: they sign in with Hugging Face (see oauth/providers.ts).
      yield* Effect.logWarning(
        `USERNAME is set without PASSWORD: no owner with a password is created. With OAuth sign-in configured, ` +
          `the Hugging Face user '${owner.username.value}' becomes the owner when they first sign in.`
      )
    } else if (Option.isSome(owner.password)) {
      yield* Effect.logWarning("PASSWORD is set without USERNAME: set both to create the owner; nothing was created")
    } else if (!(yield* (yield* Users).hasOwner)) {
      // A first start with nobody to sign in as: say how to get the first account rather than leave a silent server.
      yield* Effect.logWarning(FIRST_OWNER_HINT)
    }
    return
  }
  const users = yield* Users
  const workspaces = yield* Workspaces
  const username = owner.username.value
  const apiKey = Option.map(owner.apiKey, Redacted.value)

  const find = Effect.gen(function*() {
    const existing = yield* users.findByUsername(username)
    if (Option.isSome(existing) || Option.isNone(apiKey)) return existing
    return yield* users.findByApiKey(apiKey.value)
  })
  const found = yield* find
  const user = Option.isSome(found) ? found.value : yield* users.createTrusted({
    first_name: username,
    username,
    role: "owner",
    password: Redacted.value(owner.password.value),
    api_key: Option.getOrUndefined(apiKey)
  }).pipe(
    Effect.tap((created) =>
      // A generated key exists nowhere else: this line is the operator's only chance to read it.
      Option.isSome(apiKey)
        ? Effect.logInfo(`Created the owner user '${username}'`)
        // A warning, so that GLOSS_LOG_LEVEL=warning still shows it.
        : Effect.logWarning(
          `Created the owner user '${username}'. Its API key (shown once, generated because API_KEY is unset): ${created.api_key}`
        )
    ),
    orCreatedMeanwhile(find)
  )

  if (Option.isSome(owner.workspace)) {
    const name = owner.workspace.value
    const findWorkspace = workspaces.findByName(name)
    const existing = yield* findWorkspace
    const workspace = Option.isSome(existing) ? existing.value : yield* workspaces.createTrusted({ name }).pipe(orCreatedMeanwhile(findWorkspace))
    yield* workspaces.addUserTrusted(workspace.id, user.id).pipe(Effect.catchTag("Conflict", () => Effect.void))
  }
}).pipe(Effect.withSpan("Bootstrap.ensureOwner"))
