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
import { type RowsBetween, skipped } from "./sqliteReaderProtocol.js"

/** A statement of `readInTurn`, not run when the one before it gave from `from` to `to` rows. */
export interface InTurn {
  readonly statement: Statement.Statement<object>
  readonly skipWhenPrevious?: RowsBetween | undefined
}

/** Runs a read-only statement: the rows, not yet decoded. */
export type Read = (statement: Statement.Statement<object>) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>

export interface SearchReadsShape {
  readonly read: Read
  /**
   * Statements a search needs one after the other (a page of hits, then its count unless the page was short), each
   * skipped when `skipWhenPrevious` says so of the rows before it: on SQLite in one call to a worker. Each one's rows
   * in order, or null for one skipped.
   */
  readonly readInTurn: (
    statements: ReadonlyArray<InTurn>
  ) => Effect.Effect<ReadonlyArray<ReadonlyArray<unknown> | null>, SqlError.SqlError>
  /** Whether `read` runs where SQL has `gloss_cosine` (SQLite's workers): rescoring can read scores, not vectors. */
  readonly scoresInSql: boolean
}

export class SearchReads extends Context.Tag("Gloss/SearchReads")<SearchReads, SearchReadsShape>() {}

/** `readInTurn` on the server's own connection. */
const inTurnOn = (statements: ReadonlyArray<InTurn>) =>
  Effect.reduce(statements, [] as Array<ReadonlyArray<unknown> | null>, (results, { skipWhenPrevious, statement }) =>
    skipped(skipWhenPrevious, results[results.length - 1])
      ? Effect.succeed([...results, null])
      : Effect.map(statement, (rows) => [...results, rows]))

export const SearchReadsLive: Layer.Layer<SearchReads, never, GlossConfig> = Layer.scoped(
  SearchReads,
  Effect.gen(function*() {
    const { database } = yield* GlossConfig
    if (database._tag === "Postgres" || database.filename === ":memory:") {
      return { read: (statement) => statement, readInTurn: inTurnOn, scoresInSql: false } satisfies SearchReadsShape
    }
    const reader = yield* makeSqliteReader({ filename: database.filename })
    return {
      read: (statement) => reader.all(statement.compile()),
      readInTurn: (statements) =>
        reader.each(statements.map(({ skipWhenPrevious, statement }) => {
          const [sql, params] = statement.compile()
          return { sql, params, skipWhenPrevious }
        })),
      scoresInSql: true
    } satisfies SearchReadsShape
  })
)
