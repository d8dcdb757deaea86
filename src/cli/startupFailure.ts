import { Cause, ConfigError, Option } from "effect"
import { formatConfigError } from "../config/errors.js"

const isConfigError = (u: unknown): u is ConfigError.ConfigError => ConfigError.isConfigError(u)

const describe = (error: unknown): string => {
  if (isConfigError(error)) return formatConfigError(error)
  if (typeof error === "object" && error !== null && "_tag" in error) {
    const tagged = error as { readonly _tag: unknown; readonly message?: unknown; readonly cause?: unknown }
    if (tagged._tag === "SqlError") {
      const cause = tagged.cause instanceof Error ? `: ${tagged.cause.message}` : ""
      return `Gloss cannot start: the database is unreachable (${String(tagged.message)}${cause}). ` +
        "Check GLOSS_DATABASE_URL."
    }
    if (tagged._tag === "MigrationError") return `Gloss cannot start: a database migration failed: ${String(tagged.message)}`
  }
  return `Gloss cannot start: ${error instanceof Error ? error.message : String(error)}`
}

/**
 * What an operator reads when start-up or a command fails: one message, no stack trace. Returns `None` for an
 * interruption (Ctrl-C), which is not a failure.
 */
export const startupFailureMessage = (cause: Cause.Cause<unknown>): Option.Option<string> => {
  if (Cause.isInterruptedOnly(cause)) return Option.none()
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return Option.some(describe(failure.value))
  return Option.some(describe(Cause.squash(cause)))
}
