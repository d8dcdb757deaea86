/**
 * Secrets that identify users: bcrypt password hashes (bcryptjs: pure JavaScript, so nothing to compile, and the
 * same `$2b$` hashes Argilla stores) and random URL-safe API keys.
 */
import * as crypto from "node:crypto"
import bcrypt from "bcryptjs"
import { Effect } from "effect"

/** 2^10 rounds: OWASP's floor for bcrypt, and still tens of milliseconds a hash on a small machine. */
const ROUNDS = 10

/** A hash (same cost) of a password nobody has: compared against for unknown usernames so timing reveals nothing. */
const DUMMY_HASH = "$2b$10$t9yMOjs0mPXDJLKoYDcwj.8VREZr9CmzOefoF23dUUcmJ12Ez15Jm"

export const hashPassword = (password: string): Effect.Effect<string> => Effect.promise(() => bcrypt.hash(password, ROUNDS))

/** Compares in constant time; with no hash (unknown user) it still spends the time of a comparison. */
export const verifyPassword = (password: string, hash: string | undefined): Effect.Effect<boolean> =>
  Effect.promise(() => bcrypt.compare(password, hash ?? DUMMY_HASH)).pipe(
    Effect.map((matches) => matches && hash !== undefined)
  )

/** 48 random bytes, URL-safe base64 (64 characters). */
export const generateApiKey = (): string => crypto.randomBytes(48).toString("base64url")
