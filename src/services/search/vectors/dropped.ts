import { Cause, Effect } from "effect"

/**
 * Carries on past a failure that must not fail the caller (closing an index set nobody uses any more, saving an index
 * that stays in memory anyway, a file that could not be removed), but says so in the log with its cause: a failure
 * dropped without a word is how a full disk or a broken worker goes unseen. Defects and interruptions pass through.
 */
export const logDropped = (what: string) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<void, never, R> =>
  Effect.catchAll(Effect.asVoid(self), (error) => Effect.logWarning(`${what} failed; carrying on`, Cause.fail(error)))
