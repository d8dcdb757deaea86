/**
 * Migrations, in order. They run at start-up (and with `gloss db migrate`); each runs once per database, recorded
 * in `effect_sql_migrations`. Never edit a migration that has been released: add a new one.
 */
import { Migrator, SqlClient } from "@effect/sql"
import { Effect, Schedule } from "effect"
import m0001 from "./migrations/0001_users_and_workspaces.js"
import m0002 from "./migrations/0002_datasets.js"
import m0004 from "./migrations/0004_records.js"
import m0005 from "./migrations/0005_search.js"
import m0006 from "./migrations/0006_jobs.js"
import m0007 from "./migrations/0007_webhooks.js"
import m0008 from "./migrations/0008_vector_index.js"
import m0009 from "./migrations/0009_record_texts_whole.js"
import m0010 from "./migrations/0010_job_progress.js"
import m0011 from "./migrations/0011_record_texts_fields_index.js"
import m0012 from "./migrations/0012_credentials_at_rest.js"
import m0013 from "./migrations/0013_webhook_health.js"
import m0014 from "./migrations/0014_invitations.js"
import m0015 from "./migrations/0015_export_files.js"
import m0016 from "./migrations/0016_argilla_migrations.js"
import m0017 from "./migrations/0017_review.js"
import m0018 from "./migrations/0018_assignment.js"

/** By name; exported so that tests can bring a database to an earlier schema. */
export const migrations = {
  "0001_users_and_workspaces": m0001,
  "0002_datasets": m0002,
  "0004_records": m0004,
  "0005_search": m0005,
  "0006_jobs": m0006,
  "0007_webhooks": m0007,
  "0008_vector_index": m0008,
  "0009_record_texts_whole": m0009,
  "0010_job_progress": m0010,
  "0011_record_texts_fields_index": m0011,
  "0012_credentials_at_rest": m0012,
  "0013_webhook_health": m0013,
  "0014_invitations": m0014,
  "0015_export_files": m0015,
  "0016_argilla_migrations": m0016,
  "0017_review": m0017,
  "0018_assignment": m0018
}
const LATEST = Math.max(...Object.keys(migrations).map((name) => Number.parseInt(name, 10)))

const migrate = Migrator.make({})({ loader: Migrator.fromRecord(migrations) })

/** The newest migration recorded in this database (0 for none). */
const recorded = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ latest: number | string | null }>`select max(migration_id) as latest from effect_sql_migrations`,
    (rows) => Number(rows[0]?.latest ?? 0)
  ))

/**
 * Applies what is missing and returns what it applied. Several processes may start at once (a server and its
 * workers): the migrator lets one of them work and the others skip, so each then waits until the schema is
 * complete before it goes on (at most a minute); a racing `create table if not exists` is simply tried again.
 */
export const runMigrations = Effect.gen(function*() {
  const applied = yield* migrate.pipe(Effect.retry({ times: 3, schedule: Schedule.spaced("250 millis") }))
  // Up to a minute, four checks a second.
  for (let check = 0; (yield* recorded) < LATEST; check++) {
    if (check === 240) {
      return yield* new Migrator.MigrationError({
        reason: "failed",
        message: `the database stayed behind migration ${LATEST} while another process was migrating it`
      })
    }
    yield* Effect.sleep("250 millis")
  }
  return applied
})
