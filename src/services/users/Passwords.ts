/**
 * Password hashes: bcrypt (bcryptjs: pure JavaScript, so nothing to compile, and the same `$2b$` hashes Argilla
 * stores). The cost is `GLOSS_AUTH_PASSWORD_HASH_ROUNDS` (2^10 rounds unless set: OWASP's floor for bcrypt, and still
 * tens of milliseconds a hash on a small machine). A hash carries its own cost, so changing the setting affects only
 * hashes made afterwards: every stored one, Argilla's cost-12 hashes included, still verifies.
 */
import bcrypt from "bcryptjs"
import { Effect } from "effect"
import { GlossConfig } from "../../Config.js"

/** A cost-10 hash of a password nobody has, so the default needs no hashing when the server starts. */
const DUMMY_HASH_10 = "$2b$10$t9yMOjs0mPXDJLKoYDcwj.8VREZr9CmzOefoF23dUUcmJ12Ez15Jm"

export class Passwords extends Effect.Service<Passwords>()("Gloss/Passwords", {
  effect: Effect.gen(function*() {
    const rounds = (yield* GlossConfig).auth.passwordHashRounds
    // Compared against for unknown usernames, at the configured cost, so that timing does not tell whether a user
    // exists.
    const dummy = rounds === 10 ? DUMMY_HASH_10 : yield* Effect.promise(() => bcrypt.hash("no such user", rounds))

    const hash = (password: string): Effect.Effect<string> =>
      Effect.promise(() => bcrypt.hash(password, rounds)).pipe(Effect.withSpan("Passwords.hash"))

    /** Compares in constant time; with no hash (unknown user) it still spends the time of a comparison. */
    const verify = (password: string, stored: string | undefined): Effect.Effect<boolean> =>
      Effect.promise(() => bcrypt.compare(password, stored ?? dummy)).pipe(
        Effect.map((matches) => matches && stored !== undefined),
        Effect.withSpan("Passwords.verify")
      )

    return { hash, verify } as const
  })
}) {}
