/**
 * The owner bootstrap, as Argilla's container does it: with `USERNAME` and `PASSWORD` set, the owner exists after
 * start-up, with `API_KEY` as its key when given, and member of `WORKSPACE` (when it is created without one, of a
 * workspace named "default"). Running it again changes nothing. Without them, and with no owner yet, the log shows
 * the link to the set-up page, where a browser creates the first owner (services/setup/).
 */
import { Effect, Option, Redacted } from "effect"
import { GlossConfig, type GlossConfigShape } from "./Config.js"
import { Conflict } from "./domain/Errors.js"
import { setupToken } from "./services/setup/setupToken.js"
import { Users } from "./services/users/Users.js"
import { Workspaces } from "./services/workspaces/Workspaces.js"

/** How the log line begins when nobody can sign in yet (the rest is the set-up link: `firstOwnerHint`). */
export const FIRST_OWNER_HINT = "No owner exists yet."

/** The workspace an owner made from USERNAME and PASSWORD is given when WORKSPACE is unset. */
export const DEFAULT_OWNER_WORKSPACE = "default"

/**
 * Where a browser finds the set-up page: the Space's public address on a Hugging Face Space, else the configured
 * host and port (`localhost` for a server listening on every interface), under GLOSS_BASE_URL.
 */
export const setupUrl = (config: Pick<GlossConfigShape, "server" | "space">, token: string): string => {
  const origin = Option.match(Option.flatMap(config.space, (space) => space.host), {
    onSome: (host) => `https://${host}`,
    onNone: () => {
      const host = config.server.host
      const name = host === "" || host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host
      return `http://${name}:${config.server.port}`
    }
  })
  return `${origin}${config.server.baseUrl}/setup?token=${token}`
}

/** The one line a first start logs: the set-up link, or the variables that create the owner instead. */
export const firstOwnerHint = (url: string) =>
  `${FIRST_OWNER_HINT} Open ${url} to create one (or start with USERNAME and PASSWORD set).`

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
      const config = yield* GlossConfig
      yield* Effect.logWarning(firstOwnerHint(setupUrl(config, yield* setupToken(config))))
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

  // WORKSPACE is made sure of on every start. Without it, an owner that did not exist when this start began gets
  // "default", so that the first sign-in finds somewhere to put a dataset; an owner who deleted it later is not
  // given it again. (Replicas starting together may both do this: each step tolerates the other's.)
  const workspaceName = Option.isSome(owner.workspace)
    ? owner.workspace.value
    : Option.isNone(found)
    ? DEFAULT_OWNER_WORKSPACE
    : undefined
  if (workspaceName !== undefined) {
    const findWorkspace = workspaces.findByName(workspaceName)
    const existing = yield* findWorkspace
    const workspace = Option.isSome(existing)
      ? existing.value
      : yield* workspaces.createTrusted({ name: workspaceName }).pipe(orCreatedMeanwhile(findWorkspace))
    yield* workspaces.addUserTrusted(workspace.id, user.id).pipe(Effect.catchTag("Conflict", () => Effect.void))
  }
}).pipe(Effect.withSpan("Bootstrap.ensureOwner"))
