import { Effect, Option } from "effect"
import { Conflict, Unprocessable } from "../../domain/Errors.js"
import { UserId } from "../../domain/Ids.js"
import type { User, UserCreate, UserUpdate } from "../../domain/User.js"
import { now } from "../clock.js"
import { generateApiKey } from "./Credentials.js"
import { Passwords } from "./Passwords.js"
import { ApiKeySeal, apiKeyDigest } from "./ApiKeys.js"
import { UserCache } from "./UserCache.js"
import { Database } from "../database/Database.js"
import { orNotFound } from "../found.js"
import { Policy } from "../Policy.js"
import { type UserRow, UsersRepo } from "./UsersRepo.js"
import { newId } from "../ids.js"

/**
 * A stored user without its secrets: what the server works with (the current user, the CLI, the bootstrap), and how
 * users are shown over the API to anyone. The API key is not among them: only its digest and a sealed copy are
 * stored (see ApiKeys.ts). A key is shown once, to whoever creates the user, and afterwards to its own user only
 * (`GET /me`, which opens the sealed copy). Owners do not see every key: that would mean opening every seal for a
 * list, and a leaked owner session would give away all.
 */
export const toUser = ({ password_hash: _, api_key_digest: _digest, api_key_sealed: _sealed, ...user }: UserRow): User =>
  user

const usernameTaken = (username: string) => new Conflict({ detail: `User username \`${username}\` is not unique` })

const lastOwner = (change: "deleted" | "demoted") =>
  new Unprocessable({
    detail: change === "deleted"
      ? "The last owner cannot be deleted: make another user an owner first"
      : "The last owner cannot stop being an owner: make another user an owner first"
  })

/** What a new user is made of; `api_key` is only settable by the operator (CLI, owner bootstrap), never over HTTP. */
export interface NewUser extends UserCreate {
  readonly api_key?: string | undefined
}

export class Users extends Effect.Service<Users>()("Gloss/Users", {
  effect: Effect.gen(function*() {
    const repo = yield* UsersRepo
    const policy = yield* Policy
    const db = yield* Database
    const cache = yield* UserCache
    const seal = yield* ApiKeySeal
    const passwords = yield* Passwords

    const find = (id: UserId) => repo.findById(id).pipe(orNotFound("User", id))

    /** Inside the transaction that deletes or demotes `user`: fails when that would leave no owner at all. */
    const keepAnOwner = (user: UserRow, change: "deleted" | "demoted") =>
      user.role !== "owner"
        ? Effect.void
        : Effect.flatMap(repo.lockOwners, (owners) =>
          owners.some((id) => id !== user.id) ? Effect.void : Effect.fail(lastOwner(change)))

    /**
     * Creates a user without a policy check: for the CLI and the owner bootstrap, and after `create`'s check. An id
     * in the body is ignored, as Argilla's create schema has none: the server always issues a new one.
     */
    const createTrusted = Effect.fn("Users.createTrusted")(function*(input: NewUser) {
      const at = yield* now
      const apiKey = input.api_key ?? generateApiKey()
      const row: UserRow = {
        id: UserId.make(newId()),
        first_name: input.first_name,
        last_name: input.last_name ?? null,
        username: input.username,
        role: input.role ?? "annotator",
        api_key_digest: apiKeyDigest(apiKey),
        api_key_sealed: seal.seal(apiKey),
        password_hash: yield* passwords.hash(input.password),
        inserted_at: at,
        updated_at: at
      }
      const inserted = yield* db.write(repo.insert(row))
      // The one time anyone but its user is shown the key: the CLI prints it, `POST /users` answers with it.
      if (Option.isSome(inserted)) return { ...toUser(inserted.value), api_key: apiKey }
      // Something unique was taken: say which.
      if (yield* repo.usernameTaken(row.username)) return yield* usernameTaken(row.username)
      return yield* new Conflict({ detail: "User API key is not unique" })
    })

    const list = Effect.fn("Users.list")(function*(actor: User) {
      yield* policy.require(actor, "users.manage")
      return (yield* repo.list).map(toUser)
    })

    const get = Effect.fn("Users.get")(function*(actor: User, id: UserId) {
      yield* policy.require(actor, "users.manage")
      return toUser(yield* find(id))
    })

    const create = Effect.fn("Users.create")(function*(actor: User, input: UserCreate) {
      yield* policy.require(actor, "users.manage")
      return yield* createTrusted(input)
    })

    const update = Effect.fn("Users.update")(function*(actor: User, id: UserId, patch: UserUpdate) {
      const current = yield* find(id)
      yield* policy.require(actor, "users.manage")
      return yield* updateTrusted(current, patch)
    })

    const updateTrusted = Effect.fn("Users.updateTrusted")(function*(current: UserRow, patch: UserUpdate) {
      const { password, ...fields } = patch
      const changes = {
        first_name: fields.first_name ?? current.first_name,
        last_name: fields.last_name === undefined ? current.last_name : fields.last_name,
        username: fields.username ?? current.username,
        role: fields.role ?? current.role,
        password_hash: password === undefined ? current.password_hash : yield* passwords.hash(password),
        updated_at: yield* now
      }
      if (changes.username !== current.username && (yield* repo.usernameTaken(changes.username))) {
        return yield* usernameTaken(changes.username)
      }
      const demoted = current.role === "owner" && changes.role !== "owner"
      const write = repo.update(current.id, changes)
      const updated = yield* db.write(demoted ? Effect.zipRight(keepAnOwner(current, "demoted"), write) : write, {
        // Two renames to the same username at once: the loser is told, not given a 500.
        onUniqueViolation: () => usernameTaken(changes.username)
      }).pipe(Effect.ensuring(cache.invalidate))
      return toUser(yield* Effect.succeed(updated).pipe(orNotFound("User", current.id)))
    })

    const remove = Effect.fn("Users.delete")(function*(actor: User, id: UserId) {
      const current = yield* find(id)
      yield* policy.require(actor, "users.manage")
      yield* db.write(Effect.zipRight(keepAnOwner(current, "deleted"), repo.delete(id))).pipe(
        Effect.ensuring(cache.invalidate)
      )
      return toUser(current)
    })

    return {
      list,
      get,
      create,
      createTrusted,
      update,
      updateTrusted,
      delete: remove,
      hasOwner: repo.hasOwner,
      findByUsername: repo.findByUsername,
      /** The user whose key this is (compared by digest). */
      findByApiKey: (apiKey: string) => repo.findByApiKeyDigest(apiKeyDigest(apiKey))
    } as const
  }),
  dependencies: [UsersRepo.Default, Policy.Default, Database.Default, UserCache.Default, ApiKeySeal.Default, Passwords.Default]
}) {}
