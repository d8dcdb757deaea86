import { Effect, Option } from "effect"
import type { Token } from "../../domain/Auth.js"
import { Unauthorized } from "../../domain/Errors.js"
import type { User } from "../../domain/User.js"
import { toUser } from "../users/Users.js"
import { UsersRepo } from "../users/UsersRepo.js"
import { verifyPassword } from "../users/Credentials.js"
import { Tokens } from "./Tokens.js"
import { UserCache } from "../users/UserCache.js"

/** Turns credentials into a user: API keys (SDK, scripts), bearer tokens (browser sessions), username + password. */
export class Auth extends Effect.Service<Auth>()("Gloss/Auth", {
  effect: Effect.gen(function*() {
    const users = yield* UsersRepo
    const tokens = yield* Tokens
    const cache = yield* UserCache

    const orUnauthorized = (found: Option.Option<User>, error: () => Unauthorized) =>
      Option.match(found, { onNone: () => Effect.fail(error()), onSome: Effect.succeed })

    const byApiKey = (apiKey: string): Effect.Effect<User, Unauthorized> =>
      apiKey === ""
        ? Effect.fail(Unauthorized.couldNotValidate())
        : cache.through(`key:${apiKey}`, Effect.map(users.findByApiKey(apiKey), Option.map(toUser))).pipe(
          Effect.flatMap((user) => orUnauthorized(user, Unauthorized.couldNotValidate))
        )

    const byBearerToken = (token: string): Effect.Effect<User, Unauthorized> =>
      token === ""
        ? Effect.fail(Unauthorized.couldNotValidate())
        : tokens.verify(token).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(Unauthorized.invalidToken()),
            onSome: (username) =>
              cache.through(`user:${username}`, Effect.map(users.findByUsername(username), Option.map(toUser))).pipe(
                Effect.flatMap((user) => orUnauthorized(user, Unauthorized.couldNotValidate))
              )
          }))
        )

    const login = Effect.fn("Auth.login")(function*(username: string, password: string) {
      const row = yield* users.findByUsername(username)
      const valid = yield* verifyPassword(password, Option.getOrUndefined(Option.map(row, (r) => r.password_hash)))
      if (!valid || Option.isNone(row)) return yield* Unauthorized.couldNotValidate()
      const token: Token = { access_token: yield* tokens.issue(toUser(row.value)), token_type: "bearer" }
      return token
    })

    return { byApiKey, byBearerToken, login } as const
  }),
  dependencies: [UsersRepo.Default, Tokens.Default, UserCache.Default]
}) {}
