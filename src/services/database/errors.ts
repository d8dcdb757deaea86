import { SqlError } from "@effect/sql"
import { Data } from "effect"

/** A defect, not an API error: the HTTP layer turns it into 503 with a body that says to try again. */
export class DatabaseLocked extends Data.TaggedError("DatabaseLocked")<{ readonly timeoutSeconds: number }> {
  override get message() {
    return `The database stayed locked for more than ${this.timeoutSeconds} s (GLOSS_DATABASE_SQLITE_TIMEOUT)`
  }
}

const codeOf = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined

/** SQLite's "database is locked" family (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED…). */
export const isBusy = (error: unknown): error is SqlError.SqlError =>
  error instanceof SqlError.SqlError && /^SQLITE_(BUSY|LOCKED)/.test(codeOf(error.cause) ?? "")

/** A unique constraint rejected the write, on either dialect. */
export const isUniqueViolation = (error: unknown): error is SqlError.SqlError => {
  if (!(error instanceof SqlError.SqlError)) return false
  const code = codeOf(error.cause)
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY"
}

/** A foreign key refused the write (a `restrict` reference still points at the row), on either dialect. */
export const isForeignKeyViolation = (error: unknown): error is SqlError.SqlError =>
  error instanceof SqlError.SqlError && ["23503", "SQLITE_CONSTRAINT_FOREIGNKEY"].includes(codeOf(error.cause) ?? "")

/**
 * PostgreSQL refused text it cannot store: the NUL character, in a `text` value (22021) or a JSON string (22P05).
 * SQLite stores it; the API answers PostgreSQL's refusal with 422 instead of a 500.
 */
export const isUnstorableText = (error: unknown): error is SqlError.SqlError =>
  error instanceof SqlError.SqlError && ["22021", "22P05"].includes(codeOf(error.cause) ?? "")
