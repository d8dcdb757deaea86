/**
 * The owner bootstrap (seed §5, reference §2.3): with `USERNAME` and `PASSWORD` set, the owner exists after start-up,
 * with `API_KEY` as its key when given, and member of `WORKSPACE` when given. Running it again changes nothing.
 */
import { Effect, Option, Redacted } from "effect"
import { GlossConfig } from "./Config.js"
import { Users } from "./services/users/Users.js"
import { Workspaces } from "./services/workspaces/Workspaces.js"

/** What the log says when nobody can sign in yet. */
export const FIRST_OWNER_HINT = "No owner exists yet, so nobody can sign in. Create the first one by starting the server " +
  "with USERNAME and PASSWORD set (USERNAME=admin PASSWORD=<8+ characters> npm start; API_KEY and WORKSPACE are " +
  "optional), or with `npm run gloss -- users create --username admin --password <8+ characters> --role owner` on the " +
  "same database."

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

  const existing = yield* users.findByUsername(username)
  const byKey = Option.isSome(apiKey) ? yield* users.findByApiKey(apiKey.value) : Option.none()
  const user = Option.isSome(existing)
    ? existing.value
    : Option.isSome(byKey)
    ? byKey.value
    : yield* users.createTrusted({
      first_name: username,
      username,
      role: "owner",
      password: Redacted.value(owner.password.value),
      api_key: Option.getOrUndefined(apiKey)
    }).pipe(Effect.tap((created) =>
      // A generated key exists nowhere else: this line is the operator's only chance to read it.
      Option.isSome(apiKey)
        ? Effect.logInfo(`Created the owner user '${username}'`)
        // A warning, so that GLOSS_LOG_LEVEL=warning still shows it.
        : Effect.logWarning(
          `Created the owner user '${username}'. Its API key (shown once, generated because API_KEY is unset): ${created.api_key}`
        )
    ))

  if (Option.isSome(owner.workspace)) {
    const name = owner.workspace.value
    const found = yield* workspaces.findByName(name)
    const workspace = Option.isSome(found) ? found.value : yield* workspaces.createTrusted({ name })
    yield* workspaces.addUserTrusted(workspace.id, user.id).pipe(Effect.catchTag("Conflict", () => Effect.void))
  }
}).pipe(Effect.withSpan("Bootstrap.ensureOwner"))
