import { Effect, Option } from "effect"
import type { Token } from "../../domain/Auth.js"
import { Unauthorized } from "../../domain/Errors.js"
import type { User } from "../../domain/User.js"
import { toUser } from "../users/Users.js"
import { type UserRow, UsersRepo } from "../users/UsersRepo.js"
import { Passwords } from "../users/Passwords.js"
import { ApiKeySeal, apiKeyDigest } from "../users/ApiKeys.js"
import { Tokens } from "./Tokens.js"
import { UserCache } from "../users/UserCache.js"
import { SignInLimits } from "./SignInLimits.js"

/**
 * Turns credentials into a user: API keys (SDK, scripts), bearer tokens (browser sessions), username + password.
 * The user found is the caller, so it carries their own `api_key` (what `GET /me` shows): the key sent, or for a
 * token the sealed copy opened.
 */
export class Auth extends Effect.Service<Auth>()("Gloss/Auth", {
  effect: Effect.gen(function*() {
    const users = yield* UsersRepo
    const tokens = yield* Tokens
    const cache = yield* UserCache
    const seal = yield* ApiKeySeal
    const limits = yield* SignInLimits
    const passwords = yield* Passwords

    const orUnauthorized = (found: Option.Option<User>, error: () => Unauthorized) =>
      Option.match(found, { onNone: () => Effect.fail(error()), onSome: Effect.succeed })

    const withOwnKey = (row: UserRow): Effect.Effect<User> =>
      Effect.map(seal.openOwn(row.api_key_sealed), (key) => Option.match(key, {
        onNone: () => toUser(row),
        onSome: (apiKey) => ({ ...toUser(row), api_key: apiKey })
      }))

    const byApiKey = (apiKey: string): Effect.Effect<User, Unauthorized> => {
      if (apiKey === "") return Effect.fail(Unauthorized.couldNotValidate())
      const digest = apiKeyDigest(apiKey)
      // Cached by digest: the cache holds no key in clear beyond the one in the user it found.
      const found = Effect.map(users.findByApiKeyDigest(digest), Option.map((row) => ({ ...toUser(row), api_key: apiKey })))
      return cache.through(`key:${digest}`, found).pipe(
        Effect.flatMap((user) => orUnauthorized(user, Unauthorized.couldNotValidate))
      )
    }

    const byBearerToken = (token: string): Effect.Effect<User, Unauthorized> =>
      token === ""
        ? Effect.fail(Unauthorized.couldNotValidate())
        : tokens.verify(token).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(Unauthorized.invalidToken()),
            onSome: (username) =>
              cache.through(
                `user:${username}`,
                Effect.flatMap(users.findByUsername(username), Option.match({
                  onNone: () => Effect.succeedNone,
                  onSome: (row) => Effect.asSome(withOwnKey(row))
                }))
              ).pipe(Effect.flatMap((user) => orUnauthorized(user, Unauthorized.couldNotValidate)))
          }))
        )

    /** `address` is the client's (see SignInLimits): with the username, what failed attempts are counted against. */
    const login = Effect.fn("Auth.login")(function*(username: string, password: string, address: Option.Option<string>) {
      return yield* limits.guard(
        username,
        address,
        Effect.gen(function*() {
          const row = yield* users.findByUsername(username)
          const valid = yield* passwords.verify(password, Option.getOrUndefined(Option.map(row, (r) => r.password_hash)))
          if (!valid || Option.isNone(row)) return yield* Unauthorized.couldNotValidate()
          const token: Token = { access_token: yield* tokens.issue(toUser(row.value)), token_type: "bearer" }
          return token
        })
      )
    })

    return { byApiKey, byBearerToken, login } as const
  }),
  dependencies: [UsersRepo.Default, Tokens.Default, UserCache.Default, ApiKeySeal.Default, SignInLimits.Default, Passwords.Default]
}) {}
