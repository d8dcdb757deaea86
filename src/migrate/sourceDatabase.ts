/**
 * A read-only connection to Argilla's database, SQLite file or PostgreSQL, behind one small interface: the reader
 * writes each query once with `?` placeholders and gets rows of plain values back. What differs between the two is
 * here: SQLAlchemy writes UUIDs on SQLite as 32 hex digits (no dashes) and as native uuids on PostgreSQL; timestamps
 * are naive UTC (`timestamp without time zone`), read as text so no time zone is applied to them; JSON is text.
 */
import * as fs from "node:fs"
import Sqlite from "better-sqlite3"
import { Effect } from "effect"
import pg from "pg"
import { MigrationError } from "./errors.js"

export type SourceValue = string | number | bigint | boolean | Buffer | null

export interface SourceDatabase {
  readonly dialect: "sqlite" | "postgresql"
  /** Where it is, for messages (a PostgreSQL URL without its password). */
  readonly location: string
  readonly all: (query: string, params?: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<Record<string, SourceValue>>, MigrationError>
  /** An id as the database stores it, for a parameter. */
  readonly idParam: (id: string) => string
  /** `column in (…)` for these ids, with its parameters. */
  readonly inIds: (column: string, ids: ReadonlyArray<string>) => { readonly clause: string; readonly params: ReadonlyArray<unknown> }
  readonly tableExists: (table: string) => Effect.Effect<boolean, MigrationError>
  readonly close: Effect.Effect<void>
}

const failed = (location: string) => (cause: unknown) =>
  new MigrationError({ message: `Reading Argilla's database at ${location} failed: ${messageOf(cause)}` })

export const messageOf = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

const isPostgresUrl = (url: string) => /^postgres(ql)?(\+\w+)?:\/\//.test(url)

/** Opens `url`: a PostgreSQL URL (SQLAlchemy's `postgresql+asyncpg://` form too), or a SQLite file (path or `sqlite:///`). */
export const openSourceDatabase = (url: string): Effect.Effect<SourceDatabase, MigrationError> =>
  isPostgresUrl(url) ? openPostgres(url) : openSqlite(url)

const sqlitePath = (url: string) => url.replace(/^sqlite(\+\w+)?:\/\/\//, "")

const openSqlite = (url: string): Effect.Effect<SourceDatabase, MigrationError> =>
  Effect.gen(function*() {
    const file = sqlitePath(url)
    if (!fs.existsSync(file)) {
      return yield* new MigrationError({ message: `There is no Argilla database at ${file}: give the path of its SQLite file (argilla.db in Argilla's home folder) or a PostgreSQL URL` })
    }
    const db = yield* Effect.try({
      try: () => new Sqlite(file, { readonly: true, fileMustExist: true }),
      catch: failed(file)
    })
    // Argilla may be running: wait for its writes instead of failing on a busy file.
    db.pragma("busy_timeout = 10000")
    const toHex = (id: string) => id.replaceAll("-", "").toLowerCase()
    return {
      dialect: "sqlite",
      location: file,
      all: (query, params = []) =>
        Effect.try({
          try: () => db.prepare(query).all(...params.map(sqliteParam)) as ReadonlyArray<Record<string, SourceValue>>,
          catch: failed(file)
        }),
      idParam: toHex,
      inIds: (column, ids) => ({
        clause: ids.length === 0 ? "1 = 0" : `${column} in (${ids.map(() => "?").join(", ")})`,
        params: ids.map(toHex)
      }),
      tableExists: (table) =>
        Effect.try({
          try: () => db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table) !== undefined,
          catch: failed(file)
        }),
      close: Effect.sync(() => db.close())
    }
  })

const sqliteParam = (value: unknown) => typeof value === "boolean" ? (value ? 1 : 0) : value

/** node-postgres hands these type oids over as text: timestamp (naive UTC), json and jsonb. */
const RAW_TYPES = new Set([1114, 114, 3802])
const pgTypes = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    RAW_TYPES.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format)
} as pg.CustomTypesConfig

const openPostgres = (url: string): Effect.Effect<SourceDatabase, MigrationError> =>
  Effect.gen(function*() {
    const parsed = new URL(url.replace(/^postgres(ql)?\+\w+:/, "postgresql:"))
    const location = `${parsed.host}${parsed.pathname}`
    const pool = new pg.Pool({ connectionString: parsed.href, max: 2, types: pgTypes })
    yield* Effect.tryPromise({ try: () => pool.query("select 1"), catch: failed(location) }).pipe(
      Effect.tapError(() => Effect.promise(() => pool.end()))
    )
    const numbered = (query: string) => {
      let n = 0
      return query.replace(/\?/g, () => `$${++n}`)
    }
    return {
      dialect: "postgresql",
      location,
      all: (query, params = []) =>
        Effect.tryPromise({
          try: async () => (await pool.query(numbered(query), [...params])).rows as ReadonlyArray<Record<string, SourceValue>>,
          catch: failed(location)
        }),
      idParam: (id) => id,
      inIds: (column, ids) => ({ clause: `${column} = any(?::uuid[])`, params: [ids] }),
      tableExists: (table) =>
        Effect.tryPromise({
          try: async () => (await pool.query("select to_regclass($1) is not null as found", [`public.${table}`])).rows[0]?.found === true,
          catch: failed(location)
        }),
      close: Effect.promise(() => pool.end())
    }
  })
