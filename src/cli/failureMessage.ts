import { ValidationError } from "@effect/cli"
import { Cause, ConfigError, Option } from "effect"
import { formatConfigError } from "../config/errors.js"

const isConfigError = (u: unknown): u is ConfigError.ConfigError => ConfigError.isConfigError(u)

const describe = (error: unknown, heading: string): string => {
  if (isConfigError(error)) return formatConfigError(error)
  // @effect/cli has already printed what is wrong with the arguments; its error object has nothing more to say.
  if (ValidationError.isValidationError(error)) return `${heading}: invalid command line (see above; --help shows the usage)`
  if (typeof error === "object" && error !== null && "_tag" in error) {
    const tagged = error as { readonly _tag: unknown; readonly message?: unknown; readonly cause?: unknown }
    if (tagged._tag === "SqlError") {
      const cause = tagged.cause instanceof Error ? `: ${tagged.cause.message}` : ""
      return `${heading}: the database is unreachable (${String(tagged.message)}${cause}). Check GLOSS_DATABASE_URL.`
    }
    if (tagged._tag === "EngineUnavailable") return `${heading}: ${String(tagged.message)}`
    if (tagged._tag === "MigrationError") return `${heading}: a database migration failed: ${String(tagged.message)}`
    // The API's errors (NotFound, Conflict, …) carry their explanation in `detail`.
    if ("detail" in error && typeof error.detail === "string") return `${heading}: ${error.detail}`
  }
  return `${heading}: ${error instanceof Error ? error.message : String(error)}`
}

/**
 * What an operator reads when start-up or a command fails: one message under `heading` ("Gloss cannot start",
 * "gloss deploy failed"), no stack trace. Returns `None` for an interruption (Ctrl-C), which is not a failure.
 */
export const failureMessage = (cause: Cause.Cause<unknown>, heading: string): Option.Option<string> => {
  if (Cause.isInterruptedOnly(cause)) return Option.none()
  const failure = Cause.failureOption(cause)
  return Option.some(describe(Option.isSome(failure) ? failure.value : Cause.squash(cause), heading))
}
