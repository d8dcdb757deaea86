/**
 * How the built-in engine reads, built once per server and shared by its text search (DatabaseEngine) and its
 * vector store. Searches on a SQLite file go to worker threads (SqliteReader), where SQL also has `gloss_cosine`; an
 * in-memory SQLite database has no second connection to offer, and PostgreSQL runs its queries in its own processes
 * already, so there they run on the server's own connection.
 */
import type { SqlError, Statement } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { GlossConfig } from "../../../Config.js"
import { makeSqliteReader } from "./SqliteReader.js"

/** Runs a read-only statement: the rows, not yet decoded. */
export type Read = (statement: Statement.Statement<object>) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>

export interface SearchReadsShape {
  readonly read: Read
  /** Whether `read` runs where SQL has `gloss_cosine` (SQLite's workers): rescoring can read scores, not vectors. */
  readonly scoresInSql: boolean
}

export class SearchReads extends Context.Tag("Gloss/SearchReads")<SearchReads, SearchReadsShape>() {}

export const SearchReadsLive: Layer.Layer<SearchReads, never, GlossConfig> = Layer.scoped(
  SearchReads,
  Effect.gen(function*() {
    const { database } = yield* GlossConfig
    if (database._tag !== "Sqlite" || database.filename === ":memory:") {
      return { read: (statement) => statement, scoresInSql: false } satisfies SearchReadsShape
    }
    const reader = yield* makeSqliteReader({ filename: database.filename })
    return { read: (statement) => reader.all(statement.compile()), scoresInSql: true } satisfies SearchReadsShape
  })
)
