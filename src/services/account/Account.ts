/**
 * What a signed-in user changes about themselves (their password, their API key), and renaming a workspace: Gloss
 * extensions under `/api/gloss`. An owner sets someone else's password with Argilla's `PATCH /users/{id}`.
 */
import { Effect, Option } from "effect"
import type { ApiKey, PasswordChange } from "../../domain/Account.js"
import { Conflict, Forbidden, NotFound, Unprocessable } from "../../domain/Errors.js"
import type { WorkspaceId } from "../../domain/Ids.js"
import type { User } from "../../domain/User.js"
import type { Workspace } from "../../domain/Workspace.js"
import { SignInLimits } from "../auth/SignInLimits.js"
import { now } from "../clock.js"
import { Database } from "../database/Database.js"
import { Policy } from "../Policy.js"
import { ApiKeySeal, apiKeyDigest } from "../users/ApiKeys.js"
import { generateApiKey } from "../users/Credentials.js"
import { Passwords } from "../users/Passwords.js"
import { UserCache } from "../users/UserCache.js"
import { UsersRepo } from "../users/UsersRepo.js"
import { WorkspacesRepo } from "../workspaces/WorkspacesRepo.js"
import { AccountRepo } from "./AccountRepo.js"

const wrongPassword = () => new Forbidden({ detail: "The current password is wrong" })

export class Account extends Effect.Service<Account>()("Gloss/Account", {
  effect: Effect.gen(function*() {
    const repo = yield* AccountRepo
    const users = yield* UsersRepo
    const workspaces = yield* WorkspacesRepo
    const policy = yield* Policy
    const db = yield* Database
    const cache = yield* UserCache
    const seal = yield* ApiKeySeal
    const limits = yield* SignInLimits
    const passwords = yield* Passwords

    const current = (actor: User) =>
      Effect.flatMap(users.findById(actor.id), Option.match({
        // Deleted since the request was authenticated (the credential cache lives a few seconds).
        onNone: () => Effect.fail(NotFound.byId("User", actor.id)),
        onSome: Effect.succeed
      }))

    /**
     * A wrong current password counts as a failed sign-in for the username and the address (`SignInLimits`), so
     * that this endpoint is no faster way to guess a password than `POST /token`.
     */
    const changePassword = Effect.fn("Account.changePassword")(
      function*(actor: User, input: PasswordChange, address: Option.Option<string>) {
        const row = yield* current(actor).pipe(Effect.catchTag("NotFound", () => Effect.fail(wrongPassword())))
        yield* limits.guard(
          row.username,
          address,
          Effect.flatMap(passwords.verify(input.current_password, row.password_hash), (valid) =>
            valid ? Effect.void : Effect.fail(wrongPassword()))
        )
        if (input.new_password === input.current_password) {
          return yield* new Unprocessable({ detail: "The new password must differ from the current one" })
        }
        const changes = {
          first_name: row.first_name,
          last_name: row.last_name,
          username: row.username,
          role: row.role,
          password_hash: yield* passwords.hash(input.new_password),
          updated_at: yield* now
        }
        yield* db.write(users.update(row.id, changes)).pipe(Effect.ensuring(cache.invalidate))
      }
    )

    /** A new key, shown once; the old one's digest is gone with the same write, so it stops working at once. */
    const regenerateApiKey = Effect.fn("Account.regenerateApiKey")(function*(actor: User) {
      const apiKey = generateApiKey()
      const changed = yield* db.write(
        repo.setApiKey(actor.id, { api_key_digest: apiKeyDigest(apiKey), api_key_sealed: seal.seal(apiKey) }, yield* now)
      ).pipe(Effect.ensuring(cache.invalidate))
      if (!changed) return yield* Effect.dieMessage("The signed-in user no longer exists")
      const answer: ApiKey = { api_key: apiKey }
      return answer
    })

    const renameWorkspace = Effect.fn("Workspaces.rename")(function*(actor: User, id: WorkspaceId, name: string) {
      yield* policy.require(actor, "workspaces.rename")
      const taken = () => new Conflict({ detail: `Workspace name \`${name}\` is not unique` })
      const existing = yield* workspaces.findByName(name)
      if (Option.isSome(existing) && existing.value.id !== id) return yield* taken()
      const renamed = yield* db.write(repo.renameWorkspace(id, name, yield* now), { onUniqueViolation: taken })
      if (Option.isNone(renamed)) return yield* NotFound.byId("Workspace", id)
      const workspace: Workspace = renamed.value
      return workspace
    })

    return { changePassword, regenerateApiKey, renameWorkspace } as const
  }),
  dependencies: [
    AccountRepo.Default,
    UsersRepo.Default,
    WorkspacesRepo.Default,
    Policy.Default,
    Database.Default,
    UserCache.Default,
    ApiKeySeal.Default,
    SignInLimits.Default,
    Passwords.Default
  ]
}) {}
