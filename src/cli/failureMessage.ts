import { ValidationError } from "@effect/cli"
import { Cause, ConfigError, Option, ParseResult } from "effect"
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
    if (tagged._tag === "ServeError") return `${heading}: ${cannotListen(tagged.cause)}`
    if (ParseResult.isParseError(error)) return `${heading}: ${undecodable(error)}`
    // The API's errors (NotFound, Conflict, …) carry their explanation in `detail`.
    if ("detail" in error && typeof error.detail === "string") return `${heading}: ${error.detail}`
  }
  const file = fileProblem(error)
  if (file !== undefined) return `${heading}: ${file}`
  return `${heading}: ${explain(error)}`
}

/**
 * A file or directory Gloss could not read, create or write (`node:fs` errors carry `code` and `path`). Most live
 * under GLOSS_HOME_PATH (the SQLite database, index files, keys), so that is the setting named.
 */
const fileProblem = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined
  const { code, path } = error as { code?: unknown; path?: unknown }
  if (typeof code !== "string" || typeof path !== "string") return undefined
  return `cannot use ${path} (${code}: ${error.message.replace(/^[A-Z]+: /, "").replace(/, .*$/, "")}): check that ` +
    "its directory exists and this process may write there (Gloss's files live under GLOSS_HOME_PATH)"
}

/** An error's own words; an error without a message (some of the platform's) is named by its cause or its tag. */
const explain = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  if (error.message !== "") return error.message
  if (error.cause !== undefined) return explain(error.cause)
  return "_tag" in error ? String(error._tag) : error.name
}

/**
 * A value that did not have the form the code expects, in one sentence rather than the schema's tree: the first
 * issue's place and what was wrong there. Start-up decodes rows of the database and files under GLOSS_HOME_PATH, so
 * those are what to look at; otherwise it is a bug to report.
 */
const undecodable = (error: ParseResult.ParseError): string => {
  const [first] = ParseResult.ArrayFormatter.formatErrorSync(error)
  const where = first === undefined || first.path.length === 0 ? "" : ` at "${first.path.join(".")}"`
  const what = first === undefined ? "" : ` (${first.message.split("\n")[0]}${where})`
  return `a value read from the database or GLOSS_HOME_PATH had an unexpected form${what}: check that ` +
    "GLOSS_DATABASE_URL and GLOSS_HOME_PATH belong to this version of Gloss, or report this as a bug"
}

/** Why the HTTP server could not listen, in the terms of the settings that decide it. */
const cannotListen = (cause: unknown): string => {
  const { address, code, port } = (cause ?? {}) as { address?: unknown; code?: unknown; port?: unknown }
  const where = port === undefined ? "the port" : `port ${String(port)}${address === undefined ? "" : ` on ${String(address)}`}`
  switch (code) {
    case "EADDRINUSE":
      return `${where} is already in use by another process: stop it, or choose another port with GLOSS_PORT`
    case "EACCES":
      return `not allowed to listen on ${where}: ports below 1024 need privileges; choose another with GLOSS_PORT`
    case "EADDRNOTAVAIL":
      return `cannot listen on ${where}: the address is not one of this machine's (GLOSS_HOST)`
    default:
      return `cannot listen for HTTP requests: ${explain(cause)}`
  }
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
