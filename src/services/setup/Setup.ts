/**
 * First start in the browser: while no owner exists, `POST /api/gloss/setup` creates the first owner and a first
 * workspace and signs them in. From anywhere but the server's own machine it needs the set-up token the server
 * logs at start (setupToken.ts). Once an owner exists it is refused for good (409).
 */
import { Effect, Option } from "effect"
import { GlossConfig } from "../../Config.js"
import type { Token } from "../../domain/Auth.js"
import { Conflict, Forbidden } from "../../domain/Errors.js"
import type { SetupRequest, SetupStatus } from "../../domain/Setup.js"
import { Tokens } from "../auth/Tokens.js"
import { Database } from "../database/Database.js"
import { Users } from "../users/Users.js"
import { Workspaces } from "../workspaces/Workspaces.js"
import { isLoopback } from "./loopback.js"
import { sameToken, setupToken } from "./setupToken.js"

export const alreadySetUp = () => new Conflict({ detail: "Gloss is already set up: an owner exists. Sign in instead." })

const tokenRefused = (sent: string | undefined) =>
  new Forbidden({
    detail: sent === undefined || sent === ""
      ? "A set-up token is required from this address: open the set-up link the server wrote to its log at start"
      : "The set-up token is wrong: open the set-up link the server wrote to its log at start"
  })

/** A key of PostgreSQL's advisory locks that only the set-up takes ("glos"). */
const SETUP_LOCK = 0x676c6f73

export class Setup extends Effect.Service<Setup>()("Gloss/Setup", {
  effect: Effect.gen(function*() {
    const config = yield* GlossConfig
    const db = yield* Database
    const users = yield* Users
    const workspaces = yield* Workspaces
    const tokens = yield* Tokens
    const token = yield* setupToken(config)

    /**
     * Taken first in the set-up's transaction, so that of several set-ups at once (several servers on one database
     * included) one checks and creates while the others wait, then find the owner it made. PostgreSQL: a
     * transaction-scoped advisory lock. SQLite: a write statement, which takes the database's one writer lock
     * before the check reads anything (a transaction otherwise starts as a reader).
     */
    const lockSetup = Effect.orDie(
      db.dialect === "Postgres"
        ? db.sql`select pg_advisory_xact_lock(${SETUP_LOCK})`
        : db.sql`update users set role = role where 1 = 0`
    )

    const status = Effect.fn("Setup.status")(function*(address: Option.Option<string>) {
      const result: SetupStatus = { needed: !(yield* users.hasOwner), token_required: !isLoopback(address) }
      return result
    })

    const create = Effect.fn("Setup.create")(function*(input: SetupRequest, address: Option.Option<string>) {
      if (yield* users.hasOwner) return yield* alreadySetUp()
      if (!isLoopback(address) && (input.token === undefined || !sameToken(input.token, token))) {
        return yield* tokenRefused(input.token)
      }
      const owner = yield* db.write(Effect.gen(function*() {
        yield* lockSetup
        if (yield* users.hasOwner) return yield* alreadySetUp()
        const user = yield* users.createTrusted({
          first_name: input.first_name ?? input.username,
          username: input.username,
          role: "owner",
          password: input.password
        })
        const existing = yield* workspaces.findByName(input.workspace)
        const workspace = Option.isSome(existing) ? existing.value : yield* workspaces.createTrusted({ name: input.workspace })
        yield* workspaces.addUserTrusted(workspace.id, user.id)
        return user
      })).pipe(
        // The user and the workspace were found or made in this transaction: neither can be missing.
        Effect.catchTags({ NotFound: (error) => Effect.die(error), Unprocessable: (error) => Effect.die(error) })
      )
      yield* Effect.logInfo(`Set-up: created the first owner '${owner.username}' and the workspace '${input.workspace}'`)
      const answer: Token = { access_token: yield* tokens.issue(owner), token_type: "bearer" }
      return answer
    })

    return { status, create, token } as const
  }),
  dependencies: [Database.Default, Users.Default, Workspaces.Default, Tokens.Default]
}) {}
