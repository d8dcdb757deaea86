/**
 * The SQL database: SQLite (embedded default) or PostgreSQL, chosen by `GlossConfig.database`, behind one
 * `SqlClient`. `Database` adds what every repository needs on both dialects: transactions that wait out a locked
 * SQLite file without blocking the event loop, the one way services write a change (`write`), and the names of
 * column types for migrations.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { SqlClient, SqlError } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Duration, Effect, Layer, Option, Redacted, Schedule } from "effect"
import pg from "pg"
import { timestamptzParser } from "../../codecs/pgTimestamp.js"
import { type DatabaseConfig, GlossConfig } from "../../Config.js"
import { columnTypes } from "./ddl.js"
import { DatabaseLocked, isBusy, isUniqueViolation } from "./errors.js"

/**
 * json (114) and jsonb (3802) arrive as text, as they do from SQLite, so one column schema reads both; timestamptz
 * (1184) is read by a parser that allocates less than the driver's (see pgTimestamp).
 */
const readTimestamptz = timestamptzParser(pg.types.getTypeParser(1184, "text"))
const pgTypes = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    oid === 114 || oid === 3802
      ? (value: string) => value
      : oid === 1184 && format !== "binary"
      ? readTimestamptz
      : pg.types.getTypeParser(oid, format)
} as pg.CustomTypesConfig

const sqliteLayer = (config: Extract<DatabaseConfig, { _tag: "Sqlite" }>): Layer.Layer<SqlClient.SqlClient> => {
  if (config.filename !== ":memory:") fs.mkdirSync(path.dirname(config.filename), { recursive: true })
  const pragmas = Layer.effectDiscard(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // 16 KiB pages, for new databases only (a file keeps the page size it was created with): a record is ~1 KB,
    // and a bulk upsert of 500 commits about a third fewer bytes of b-tree pages to the WAL than with 4 KiB pages
    // (`npm run bench -- ingest` measures it). The size must be set before the file turns to
    // WAL, so the client is opened with WAL off and it is turned on here.
    yield* sql.unsafe(`PRAGMA page_size = ${SQLITE_PAGE_SIZE}`)
    yield* sql`PRAGMA journal_mode = WAL`
    yield* sql`PRAGMA foreign_keys = ON`
    yield* sql`PRAGMA synchronous = NORMAL`
    // better-sqlite3 waits for a lock synchronously, blocking every other request; keep that wait short and do the
    // rest of the waiting in `transaction` below, asynchronously.
    yield* sql.unsafe(`PRAGMA busy_timeout = ${Math.min(SYNC_BUSY_WAIT_MS, config.timeoutSeconds * 1000)}`)
  }).pipe(Effect.orDie))
  // The layer's ConfigError cannot happen: its options are given, not read from a ConfigProvider.
  return pragmas.pipe(Layer.provideMerge(SqliteClient.layer({ filename: config.filename, disableWAL: true })), Layer.orDie)
}

const SYNC_BUSY_WAIT_MS = 100
export const SQLITE_PAGE_SIZE = 16384

const isSqlError = (error: unknown): error is SqlError.SqlError => error instanceof SqlError.SqlError

/**
 * The connection URL with `-c jit=off` added to its startup `options`, unless it sets `jit` itself. PostgreSQL
 * JIT-compiles a statement whose estimated cost passes `jit_above_cost`, and the planner's estimates for a search
 * over a million records (a common word, filters on `jsonb` metadata) pass it easily, and compiling then costs more
 * than the query itself, on every search, since nothing is cached between statements (`npm run bench -- scale`).
 */
export const withoutJit = (url: Redacted.Redacted): Redacted.Redacted => {
  const parsed = new URL(Redacted.value(url))
  const options = parsed.searchParams.get("options") ?? ""
  if (/\bjit\b/.test(options)) return url
  parsed.searchParams.set("options", `${options} -c jit=off`.trim())
  return Redacted.make(parsed.href)
}

const postgresLayer = (
  config: Extract<DatabaseConfig, { _tag: "Postgres" }>
): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError> =>
  PgClient.layer({
    url: withoutJit(config.url),
    maxConnections: config.poolSize + config.maxOverflow,
    minConnections: config.poolSize,
    idleTimeout: Duration.seconds(30),
    connectTimeout: Duration.seconds(10),
    applicationName: "gloss",
    types: pgTypes
  })

/** The `SqlClient` for the configured database. Fails (start-up stops) when PostgreSQL cannot be reached. */
export const SqlLive: Layer.Layer<SqlClient.SqlClient, SqlError.SqlError, GlossConfig> = Layer.unwrapEffect(
  Effect.map(GlossConfig, ({ database }) =>
    database._tag === "Sqlite" ? sqliteLayer(database) : postgresLayer(database))
)

/** What a change does once committed, and what a unique constraint refusing it becomes (see `Database.write`). */
export interface WriteOptions<A, E2, R2, E3> {
  /** Runs once the transaction has committed, with what it returned: the search index, caches. */
  readonly afterCommit?: ((committed: A) => Effect.Effect<unknown, E2, R2>) | undefined
  /** The error a unique constraint's refusal becomes (two writers racing for one name) instead of a 500. */
  readonly onUniqueViolation?: (() => E3) | undefined
}

export class Database extends Effect.Service<Database>()("Gloss/Database", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { database } = yield* GlossConfig
    const lockTimeout = database._tag === "Sqlite" ? Duration.seconds(database.timeoutSeconds) : Duration.zero

    // A transaction that hit a locked SQLite file was rolled back whole, so running it again is safe. Retry the
    // outermost transaction until GLOSS_DATABASE_SQLITE_TIMEOUT has passed, then die with DatabaseLocked, which the
    // API answers with 503. Repositories turn SQL failures into defects, so the busy error arrives as one.
    const retryWhileLocked = Schedule.exponential("10 millis", 1.5).pipe(
      Schedule.union(Schedule.spaced("250 millis")),
      Schedule.upTo(lockTimeout)
    )
    const timeoutSeconds = Duration.toSeconds(lockTimeout)
    // (Compared by class, not identity: Effect may copy an error to attach span information.)
    const isLocked = (error: unknown): error is DatabaseLocked => error instanceof DatabaseLocked

    const untilUnlocked = <A, E, R>(once: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      once.pipe(
        Effect.catchSomeDefect((defect) =>
          isBusy(defect) ? Option.some(Effect.fail(new DatabaseLocked({ timeoutSeconds }))) : Option.none()
        ),
        Effect.retry({ schedule: retryWhileLocked, while: isLocked }),
        Effect.catchIf(isLocked, (error) => Effect.die(error))
      )

    /** Runs `effect` in one transaction (a savepoint when already inside one). */
    const transaction = <A, E, R>(
      effect: Effect.Effect<A, E, R>
    ): Effect.Effect<A, Exclude<E, SqlError.SqlError>, R> => {
      const once = sql.withTransaction(effect).pipe(Effect.catchIf(isSqlError, (error) => Effect.die(error)))
      return Effect.flatMap(
        Effect.serviceOption(SqlClient.TransactionConnection),
        (outer) => Option.isSome(outer) ? once : untilUnlocked(once)
      )
    }

    /**
     * A change, as every service writes one: `change` (its rows, and the outbox events that describe them) in one
     * transaction; a unique constraint refusing it becomes `onUniqueViolation()`; once it has committed,
     * `afterCommit` (whose failure fails the call but undoes nothing: a reindex heals the search index). Called
     * outside any transaction, or "after commit" would run before the outer one commits.
     */
    const write = <A, E, R, E2 = never, R2 = never, E3 = never>(
      change: Effect.Effect<A, E, R>,
      options: WriteOptions<A, E2, R2, E3> = {}
    ): Effect.Effect<A, Exclude<E, SqlError.SqlError> | E2 | E3, R | R2> => {
      const { afterCommit, onUniqueViolation } = options
      const committed = onUniqueViolation === undefined ? transaction(change) : transaction(change).pipe(
        Effect.catchSomeDefect((defect) =>
          isUniqueViolation(defect) ? Option.some(Effect.fail(onUniqueViolation())) : Option.none()
        )
      )
      return afterCommit === undefined ? committed : Effect.tap(committed, afterCommit)
    }

    /**
     * The rows of several reads in one round trip, on PostgreSQL: node-postgres sends a query without parameters
     * as one message, the server runs its statements in turn (in one snapshot) and each one's rows come back. For
     * the small reads every request makes: as separate statements on separate connections they wake as many
     * server processes at once, which on two cores beside this one is where the slowest requests wait. The
     * statements take no parameters, so they may only hold values that cannot break out of a literal (ids checked
     * as UUIDs). None on SQLite, whose connection is in this process: there the caller reads them one by one.
     */
    const readTogether = (statements: ReadonlyArray<string>): Effect.Effect<Option.Option<ReadonlyArray<ReadonlyArray<unknown>>>> =>
      database._tag === "Postgres" && statements.length > 0
        ? Effect.map(
          Effect.orDie(sql.unsafe(statements.join(";\n"))),
          // One statement gives its rows; several, an array of each one's rows.
          (results) => Option.some(statements.length === 1 ? [results] : (results as unknown as ReadonlyArray<ReadonlyArray<unknown>>))
        )
        : Effect.succeed(Option.none())

    return {
      sql,
      dialect: database._tag,
      transaction,
      write,
      readTogether,
      types: columnTypes(sql)
    } as const
  })
}) {}
