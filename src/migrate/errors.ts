import { Data } from "effect"

/** A migration that cannot go on: printed as its message, one plain sentence, and the command exits non-zero. */
export class MigrationError extends Data.TaggedError("ArgillaMigrationError")<{ readonly message: string }> {}
