/**
 * Bearer tokens for browser sessions: HS256 JWTs with Argilla's claims. Only `username` is used to
 * find the user again; the role is re-read from the database on every request.
 */
import * as crypto from "node:crypto"
import { Effect, Option, Redacted } from "effect"
import { jwtVerify, SignJWT } from "jose"
import { GlossConfig } from "../../Config.js"
import type { User } from "../../domain/User.js"

export class Tokens extends Effect.Service<Tokens>()("Gloss/Tokens", {
  effect: Effect.gen(function*() {
    const { auth } = yield* GlossConfig
    if (Option.isNone(auth.secretKey)) {
      yield* Effect.logWarning(
        "GLOSS_AUTH_SECRET_KEY is not set: using a random key for this process. Sign-in tokens stop working when " +
          "it restarts, and several instances or workers must all be given the same GLOSS_AUTH_SECRET_KEY."
      )
    }
    const secret = new TextEncoder().encode(
      Option.match(auth.secretKey, { onNone: () => crypto.randomBytes(32).toString("hex"), onSome: Redacted.value })
    )

    const issue = (user: User) =>
      Effect.promise(() =>
        new SignJWT({ identity: user.id, name: user.first_name, username: user.username, role: user.role })
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .setExpirationTime(Math.floor(Date.now() / 1000) + auth.tokenExpirationSeconds)
          .sign(secret)
      )

    /** The `username` claim of a valid, unexpired token; `None` for anything else. */
    const verify = (token: string): Effect.Effect<Option.Option<string>> =>
      Effect.promise(() =>
        jwtVerify(token, secret, { algorithms: ["HS256"] }).then(
          ({ payload }) => typeof payload.username === "string" ? Option.some(payload.username) : Option.none(),
          () => Option.none<string>()
        )
      )

    return { issue, verify } as const
  })
}) {}
