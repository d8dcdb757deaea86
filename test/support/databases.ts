/**
 * The databases every database and HTTP contract test runs on: SQLite always, PostgreSQL when a server is
 * reachable. With CI=true a missing PostgreSQL fails the run instead of skipping, so CI
 * never passes on SQLite alone.
 */
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import pg from "pg"

export type Dialect = "sqlite" | "postgres"

export const POSTGRES_URL = process.env.GLOSS_TEST_DATABASE_URL ?? "postgres://gloss:gloss@127.0.0.1:5432/gloss"

const probe = async (): Promise<string | undefined> => {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query("select 1")
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  } finally {
    await client.end().catch(() => undefined)
  }
}

const postgresProblem = await probe()
if (postgresProblem !== undefined) {
  if (process.env.CI === "true") {
    throw new Error(`PostgreSQL is required with CI=true but ${POSTGRES_URL} is unreachable: ${postgresProblem}`)
  }
  console.warn(
    `[gloss tests] Skipping the PostgreSQL runs: ${POSTGRES_URL} is unreachable (${postgresProblem}). ` +
      "Run scripts/services.sh (or set GLOSS_TEST_DATABASE_URL) to include them."
  )
}

/** The dialects to run on in this environment. */
export const dialects: ReadonlyArray<Dialect> = postgresProblem === undefined ? ["sqlite", "postgres"] : ["sqlite"]

const withAdmin = async <A>(f: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/**
 * A fresh, empty database for one test suite, dropped afterwards: a temporary SQLite file, or a new PostgreSQL
 * database on the test server. Returns the environment that points Gloss at it.
 */
export const freshDatabase = (dialect: Dialect) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-test-"))
      if (dialect === "sqlite") return { home, env: { GLOSS_HOME_PATH: home }, name: path.join(home, "gloss.db") }
      const name = `gloss_test_${crypto.randomBytes(6).toString("hex")}`
      await withAdmin((client) => client.query(`create database ${name}`))
      const url = new URL(POSTGRES_URL)
      url.pathname = `/${name}`
      return { home, env: { GLOSS_HOME_PATH: home, GLOSS_DATABASE_URL: url.href }, name }
    }),
    ({ home, name }) =>
      Effect.promise(async () => {
        if (dialect === "postgres") await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`))
        fs.rmSync(home, { recursive: true, force: true })
      })
  )
